#include "SweepStore.h"

#include "store/Store.h"

#include <QAtomicInt>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

namespace TrainDesk {

namespace {

QString timeText(const QDateTime &t) { return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString(); }
QDateTime timeFrom(const QVariant &v)
{
    if (v.isNull() || v.toString().isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

// Qt binds a null QString as SQL NULL; the text columns are NOT NULL.
QString text(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

QString jsonText(const QJsonArray &a) { return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)); }
QString jsonText(const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

Sweep sweepFrom(const QSqlQuery &q)
{
    Sweep s;
    s.id = q.value(QStringLiteral("id")).toLongLong();
    s.experimentId = q.value(QStringLiteral("experiment_id")).toLongLong();
    s.clusterId = q.value(QStringLiteral("cluster_id")).toLongLong();
    s.name = q.value(QStringLiteral("name")).toString();
    s.spec = q.value(QStringLiteral("spec")).toByteArray();
    const QJsonArray params = QJsonDocument::fromJson(q.value(QStringLiteral("params")).toByteArray()).array();
    for (qsizetype i = 0; i < params.size(); ++i) {
        // Stored by create() from parsed parameters: they parse again.
        if (auto p = SweepParams::fromJson(params.at(i).toObject(), QStringLiteral("params[%1]").arg(i)))
            s.params << *p;
    }
    s.sampling = sweepSamplingFromString(q.value(QStringLiteral("sampling")).toString()).value_or(SweepSampling::Grid);
    s.trialCount = q.value(QStringLiteral("trial_count")).toInt();
    s.seed = q.value(QStringLiteral("seed")).toLongLong();
    s.maxConcurrent = q.value(QStringLiteral("max_concurrent")).toInt();
    s.metric = q.value(QStringLiteral("metric")).toString();
    s.maximize = q.value(QStringLiteral("goal")).toString() != QLatin1String("min");
    s.earlyStop = q.value(QStringLiteral("early_stop")).toString();
    s.noContainer = q.value(QStringLiteral("no_container")).toBool();
    s.state = sweepStateFromString(q.value(QStringLiteral("state")).toString()).value_or(SweepState::Completed);
    s.created = timeFrom(q.value(QStringLiteral("created")));
    s.ended = timeFrom(q.value(QStringLiteral("ended")));
    return s;
}

// BEGIN IMMEDIATE ... COMMIT, rolled back unless committed (as the Store's own).
class Transaction
{
public:
    explicit Transaction(QSqlDatabase &db) : m_db(db) { m_active = QSqlQuery(m_db).exec(QStringLiteral("BEGIN IMMEDIATE")); }
    ~Transaction()
    {
        if (m_active)
            QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
    }
    bool active() const { return m_active; }
    bool commit()
    {
        if (QSqlQuery(m_db).exec(QStringLiteral("COMMIT")))
            m_active = false;
        return !m_active;
    }

private:
    QSqlDatabase &m_db;
    bool m_active = false;
};

} // namespace

SweepStore::SweepStore(const Store &store)
{
    static QAtomicInt counter;
    m_connectionName = QStringLiteral("traindesk-sweeps-%1").arg(counter.fetchAndAddRelaxed(1));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_db.setDatabaseName(store.path());
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (m_db.open()) {
        QSqlQuery(m_db).exec(QStringLiteral("PRAGMA foreign_keys=ON"));
        QSqlQuery(m_db).exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    }
}

SweepStore::~SweepStore()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

Result<Sweep> SweepStore::create(const Sweep &sweep, const QList<QJsonObject> &trialParams)
{
    if (!m_db.isOpen())
        return fail(QStringLiteral("cannot open the database for sweeps: %1").arg(m_db.lastError().text()));
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot store sweep '%1': %2").arg(sweep.name, m_db.lastError().text()));
    if (this->sweep(sweep.experimentId, sweep.name))
        return fail(QStringLiteral("sweep '%1' already exists in this experiment").arg(sweep.name));
    QJsonArray params;
    for (const SweepParam &p : sweep.params)
        params.append(p.toJson());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral(
        "INSERT INTO sweeps(experiment_id, cluster_id, name, spec, params, sampling, trial_count, seed, max_concurrent, "
        "metric, goal, early_stop, no_container, state, created) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &v : {QVariant(sweep.experimentId), QVariant(sweep.clusterId), QVariant(sweep.name),
                              QVariant(sweep.spec), QVariant(jsonText(params)), QVariant(toString(sweep.sampling)),
                              QVariant(int(trialParams.size())), QVariant(sweep.seed), QVariant(sweep.maxConcurrent),
                              QVariant(text(sweep.metric)), QVariant(sweep.maximize ? "max" : "min"),
                              QVariant(text(sweep.earlyStop)), QVariant(sweep.noContainer ? 1 : 0),
                              QVariant(toString(SweepState::Running)),
                              QVariant(timeText(sweep.created.isValid() ? sweep.created : QDateTime::currentDateTimeUtc()))})
        q.addBindValue(v);
    if (!q.exec())
        return fail(QStringLiteral("cannot store sweep '%1': %2").arg(sweep.name, q.lastError().text()));
    const qint64 id = q.lastInsertId().toLongLong();
    for (qsizetype i = 0; i < trialParams.size(); ++i) {
        QSqlQuery t(m_db);
        t.prepare(QStringLiteral("INSERT INTO sweep_trials(sweep_id, idx, params) VALUES(?, ?, ?)"));
        t.addBindValue(id);
        t.addBindValue(int(i + 1));
        t.addBindValue(jsonText(trialParams[i]));
        if (!t.exec())
            return fail(QStringLiteral("cannot store trial %1 of sweep '%2': %3").arg(i + 1).arg(sweep.name, t.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot store sweep '%1': %2").arg(sweep.name, m_db.lastError().text()));
    return sweepById(id);
}

Result<Sweep> SweepStore::sweep(qint64 experimentId, const QString &name) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT * FROM sweeps WHERE experiment_id = ? AND name = ?"));
    q.addBindValue(experimentId);
    q.addBindValue(name);
    if (q.exec() && q.next())
        return sweepFrom(q);
    return fail(QStringLiteral("sweep '%1' not found").arg(name));
}

Result<Sweep> SweepStore::sweepById(qint64 id) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT * FROM sweeps WHERE id = ?"));
    q.addBindValue(id);
    if (q.exec() && q.next())
        return sweepFrom(q);
    return fail(QStringLiteral("sweep #%1 not found").arg(id));
}

QList<Sweep> SweepStore::sweeps(qint64 experimentId) const
{
    QList<Sweep> list;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT * FROM sweeps WHERE experiment_id = ? ORDER BY created, id"));
    q.addBindValue(experimentId);
    if (q.exec()) {
        while (q.next())
            list << sweepFrom(q);
    }
    return list;
}

QList<Sweep> SweepStore::activeSweeps() const
{
    QList<Sweep> list;
    QSqlQuery q(m_db);
    if (q.exec(QStringLiteral("SELECT * FROM sweeps WHERE state IN ('running', 'stopping') ORDER BY created, id"))) {
        while (q.next())
            list << sweepFrom(q);
    }
    return list;
}

QList<SweepTrial> SweepStore::trials(qint64 sweepId) const
{
    QList<SweepTrial> list;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT sweep_id, idx, params, job_id, status, reason FROM sweep_trials WHERE sweep_id = ? "
                             "ORDER BY idx"));
    q.addBindValue(sweepId);
    if (q.exec()) {
        while (q.next()) {
            SweepTrial t;
            t.sweepId = q.value(0).toLongLong();
            t.index = q.value(1).toInt();
            t.params = QJsonDocument::fromJson(q.value(2).toByteArray()).object();
            t.jobId = q.value(3).isNull() ? 0 : q.value(3).toLongLong();
            t.status = trialStatusFromString(q.value(4).toString()).value_or(TrialStatus::Pending);
            t.reason = q.value(5).toString();
            list << t;
        }
    }
    return list;
}

VoidResult SweepStore::reread(SweepTrial &trial) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT job_id, status, reason FROM sweep_trials WHERE sweep_id = ? AND idx = ?"));
    q.addBindValue(trial.sweepId);
    q.addBindValue(trial.index);
    if (!q.exec() || !q.next())
        return fail(QStringLiteral("cannot read trial %1 of sweep #%2: %3").arg(trial.index).arg(trial.sweepId).arg(q.lastError().text()));
    trial.jobId = q.value(0).isNull() ? 0 : q.value(0).toLongLong();
    trial.status = trialStatusFromString(q.value(1).toString()).value_or(TrialStatus::Pending);
    trial.reason = q.value(2).toString();
    return {};
}

std::optional<std::pair<Sweep, int>> SweepStore::sweepOfJob(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT sweep_id, idx FROM sweep_trials WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (!q.exec() || !q.next())
        return std::nullopt;
    const int index = q.value(1).toInt();
    if (auto s = sweepById(q.value(0).toLongLong()))
        return std::make_pair(*s, index);
    return std::nullopt;
}

Result<bool> SweepStore::setTrialJob(qint64 sweepId, int index, qint64 jobId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE sweep_trials SET job_id = ?, status = 'submitted' WHERE sweep_id = ? AND idx = ? "
                             "AND status = 'pending'"));
    q.addBindValue(jobId);
    q.addBindValue(sweepId);
    q.addBindValue(index);
    if (!q.exec())
        return fail(QStringLiteral("cannot record trial %1's job: %2").arg(index).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

VoidResult SweepStore::setTrialStatus(qint64 sweepId, int index, TrialStatus status, const QString &reason)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE sweep_trials SET status = ?, reason = ? WHERE sweep_id = ? AND idx = ?"));
    q.addBindValue(toString(status));
    q.addBindValue(text(reason));
    q.addBindValue(sweepId);
    q.addBindValue(index);
    if (!q.exec())
        return fail(QStringLiteral("cannot record trial %1: %2").arg(index).arg(q.lastError().text()));
    return {};
}

Result<bool> SweepStore::requestStop(qint64 sweepId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE sweeps SET state = 'stopping' WHERE id = ? AND state = 'running'"));
    q.addBindValue(sweepId);
    if (!q.exec())
        return fail(QStringLiteral("cannot stop sweep #%1: %2").arg(sweepId).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

VoidResult SweepStore::finish(qint64 sweepId, SweepState state)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE sweeps SET state = ?, ended = ? WHERE id = ? AND state IN ('running', 'stopping')"));
    q.addBindValue(toString(state));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    q.addBindValue(sweepId);
    if (!q.exec())
        return fail(QStringLiteral("cannot end sweep #%1: %2").arg(sweepId).arg(q.lastError().text()));
    return {};
}

VoidResult SweepStore::remove(qint64 sweepId)
{
    const auto s = sweepById(sweepId);
    if (!s)
        return s.failure();
    if (s->active())
        return fail(QStringLiteral("sweep '%1' is %2: stop it first").arg(s->name, toString(s->state)));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM sweeps WHERE id = ?"));
    q.addBindValue(sweepId);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete sweep '%1': %2").arg(s->name, q.lastError().text()));
    return {};
}

} // namespace TrainDesk

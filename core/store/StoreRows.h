#pragma once
// The Store's own small helpers, shared by its files (one per entity): rows read into
// entities, values bound as the schema wants them, transactions. Used by store/ only.
#include "Entities.h"
#include "common/Result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace TrainDesk::StoreRows {

// A UNIQUE constraint that failed: another process created the same name between our
// check and our insert. Said as the caller's own "already exists", never as SQL.
inline bool uniqueViolation(const QSqlQuery &q)
{
    const QString code = q.lastError().nativeErrorCode();
    return code == QLatin1String("2067") || code == QLatin1String("1555")
        || q.lastError().text().contains(QLatin1String("UNIQUE constraint failed"));
}

// Qt binds a null QString as SQL NULL; text columns are NOT NULL, so bind "" instead.
inline QString text(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

inline QString timeText(const QDateTime &t) { return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString(); }
inline QVariant timeValue(const QDateTime &t) { return t.isValid() ? QVariant(timeText(t)) : QVariant(); }
inline QDateTime timeFrom(const QVariant &v)
{
    if (v.isNull())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

inline QString errorsToJson(const QList<JobError> &errors)
{
    QJsonArray array;
    for (const JobError &e : errors) {
        array.append(QJsonObject{{"code", e.code},
                                 {"message", e.message},
                                 {"details", QJsonArray::fromStringList(e.details)}});
    }
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

inline QList<JobError> errorsFromJson(const QString &text)
{
    QList<JobError> errors;
    if (text == QLatin1String("[]"))
        return errors;  // most jobs: no JSON to parse (a snapshot reads 10,000)
    for (const QJsonValue &v : QJsonDocument::fromJson(text.toUtf8()).array()) {
        const QJsonObject o = v.toObject();
        QStringList details;
        for (const QJsonValue &d : o.value("details").toArray())
            details << d.toString();
        errors.append({o.value("code").toString(), o.value("message").toString(), details});
    }
    return errors;
}

// BEGIN IMMEDIATE takes the write lock up front, so two processes that read-then-write
// (the GUI and a CLI ingesting the same job) serialise instead of failing half-way.
class Transaction
{
public:
    explicit Transaction(QSqlDatabase &db) : m_db(db)
    {
        QSqlQuery q(m_db);
        m_active = q.exec(QStringLiteral("BEGIN IMMEDIATE"));
        if (!m_active)
            m_error = q.lastError().text();
    }
    ~Transaction()
    {
        if (m_active)
            QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
    }
    bool active() const { return m_active; }
    QString error() const { return m_error; }
    bool commit()
    {
        QSqlQuery q(m_db);
        const bool ok = q.exec(QStringLiteral("COMMIT"));
        if (ok)
            m_active = false;
        else
            m_error = q.lastError().text();
        return ok;
    }

private:
    QSqlDatabase &m_db;
    bool m_active = false;
    QString m_error;
};

inline Workspace workspaceFrom(const QSqlQuery &q)
{
    return {q.value("id").toLongLong(), q.value("name").toString(), timeFrom(q.value("created"))};
}

inline Experiment experimentFrom(const QSqlQuery &q)
{
    return {q.value("id").toLongLong(), q.value("workspace_id").toLongLong(),
            q.value("name").toString(), timeFrom(q.value("created"))};
}

inline Cluster clusterFrom(const QSqlQuery &q)
{
    Cluster c;
    c.id = q.value("id").toLongLong();
    c.workspaceId = q.value("workspace_id").toLongLong();
    c.name = q.value("name").toString();
    c.kind = clusterKindFromString(q.value("kind").toString()).value_or(ClusterKind::Local);
    c.targetNodeCount = q.value("target_node_count").toInt();
    c.mountRoot = q.value("mount_root").toString();
    c.setupTask = q.value("setup_task").toString();
    c.created = timeFrom(q.value("created"));
    c.sshKeyFile = q.value("ssh_key_file").toString();
    c.sshSecret = q.value("ssh_secret").toString();
    c.slurm = SlurmSettings::fromJson(q.value("scheduler").toByteArray());
    c.nodeLostGraceSeconds = q.value("node_lost_grace").toInt();
    return c;
}

inline Node nodeFrom(const QSqlQuery &q)
{
    Node n;
    n.id = q.value("id").toLongLong();
    n.clusterId = q.value("cluster_id").toLongLong();
    n.index = q.value("idx").toInt();
    n.name = q.value("name").toString();
    n.host = q.value("host").toString();
    n.port = q.value("port").toInt();
    n.user = q.value("user").toString();
    n.slotCount = q.value("slots").toInt();
    n.gpuCount = q.value("gpus").toInt();
    n.state = nodeStateFromString(q.value("state").toString()).value_or(NodeState::Unusable);
    n.stateReason = q.value("state_reason").toString();
    n.lastSeen = timeFrom(q.value("last_seen"));
    n.parked = q.value("parked").toBool();
    n.facts = q.value("facts").toString();
    return n;
}

inline Share shareFrom(const QSqlQuery &q)
{
    Share s;
    s.id = q.value("id").toLongLong();
    s.workspaceId = q.value("workspace_id").toLongLong();
    s.name = q.value("name").toString();
    s.kind = shareKindFromString(q.value("kind").toString()).value_or(ShareKind::Local);
    s.path = q.value("path").toString();
    s.clusterId = q.value("cluster_id").toLongLong();
    s.created = timeFrom(q.value("created"));
    return s;
}

inline QString stringsToJson(const QStringList &strings)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(strings)).toJson(QJsonDocument::Compact));
}

inline QStringList stringsFromJson(const QVariant &value)
{
    QStringList strings;
    const QByteArray text = value.toByteArray();
    if (text == "[]")
        return strings;
    if (text.startsWith("[\"") && text.endsWith("\"]") && text.count('"') == 2 && !text.contains('\\'))
        return {QString::fromUtf8(text.mid(2, text.size() - 4))};  // one plain name: ["node1"]
    for (const QJsonValue &v : QJsonDocument::fromJson(text).array())
        strings << v.toString();
    return strings;
}

inline QString placementToJson(const QList<NodeGrant> &placement)
{
    QJsonArray array;
    for (const NodeGrant &g : placement) {
        QJsonArray cores, gpus;
        for (int c : g.cores)
            cores.append(c);
        for (int i : g.gpus)
            gpus.append(i);
        array.append(QJsonObject{{"node", g.node}, {"cores", cores}, {"gpus", gpus}});
    }
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

inline QList<NodeGrant> placementFromJson(const QVariant &value)
{
    QList<NodeGrant> placement;
    if (value.toByteArray() == "[]")
        return placement;
    for (const QJsonValue &v : QJsonDocument::fromJson(value.toByteArray()).array()) {
        NodeGrant g;
        g.node = v[QLatin1String("node")].toString();
        for (const QJsonValue &c : v[QLatin1String("cores")].toArray())
            g.cores << c.toInt();
        for (const QJsonValue &i : v[QLatin1String("gpus")].toArray())
            g.gpus << i.toInt();
        placement << g;
    }
    return placement;
}

inline Job jobFrom(const QSqlQuery &q)
{
    Job j;
    j.id = q.value("id").toLongLong();
    j.experimentId = q.value("experiment_id").toLongLong();
    j.clusterId = q.value("cluster_id").toLongLong();
    j.name = q.value("name").toString();
    j.spec = q.value("spec").toByteArray();
    j.state = jobStateFromString(q.value("state").toString()).value_or(JobState::Failed);
    j.priority = q.value("priority").toInt();
    j.created = timeFrom(q.value("created"));
    j.started = timeFrom(q.value("started"));
    j.ended = timeFrom(q.value("ended"));
    if (!q.value("exit_code").isNull())
        j.exitCode = q.value("exit_code").toInt();
    j.errors = errorsFromJson(q.value("errors").toString());
    j.nodes = stringsFromJson(q.value("nodes"));
    j.rankNodes = stringsFromJson(q.value("rank_nodes"));
    j.uuid = q.value("uuid").toString();
    j.jobDir = q.value("job_dir").toString();
    j.pid = q.value("pid").toLongLong();
    j.schedulerId = q.value("scheduler_id").toString();
    j.schedulerState = q.value("scheduler_state").toString();
    j.placement = placementFromJson(q.value("placement"));
    return j;
}

// A row of job_attempts read with jobAttemptColumns (StoreReliability).
inline constexpr char jobAttemptColumns[] =
    "SELECT job_id, attempt, uuid, job_dir, nodes, rank_nodes, started, ended, exit_code, errors, lost_nodes, "
    "last_metric_id FROM job_attempts";
JobAttempt jobAttemptFrom(const QSqlQuery &q);

template<typename T, typename Reader>
QList<T> selectAll(const QSqlDatabase &db, const QString &sql, const QVariantList &binds, Reader read)
{
    QSqlQuery q(db);
    q.prepare(sql);
    for (const QVariant &b : binds)
        q.addBindValue(b);
    QList<T> rows;
    if (q.exec()) {
        while (q.next())
            rows.append(read(q));
    }
    return rows;
}

template<typename T, typename Reader>
Result<T> selectOne(const QSqlDatabase &db, const QString &sql, const QVariantList &binds,
                    Reader read, const QString &notFound)
{
    const QList<T> rows = selectAll<T>(db, sql, binds, read);
    if (rows.isEmpty())
        return fail(notFound);
    return rows.first();
}

} // namespace TrainDesk::StoreRows

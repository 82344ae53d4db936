#include "Store.h"

#include <sys/statvfs.h>

#include <cstdio>

#include "DatabaseCheck.h"
#include "Names.h"

#include <QAtomicInt>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace TrainDesk {

namespace {

// Each migration moves the schema one version up; PRAGMA user_version records where it is.
const char *const migrations[] = {
    R"sql(
CREATE TABLE workspaces (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL);
CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL, created TEXT NOT NULL, UNIQUE(workspace_id, name));
CREATE TABLE clusters (
    id INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL, kind TEXT NOT NULL, target_node_count INTEGER NOT NULL,
    mount_root TEXT NOT NULL, setup_task TEXT NOT NULL DEFAULT '', created TEXT NOT NULL,
    UNIQUE(workspace_id, name));
CREATE TABLE nodes (
    id INTEGER PRIMARY KEY,
    cluster_id INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, name TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL,
    user TEXT NOT NULL, slots INTEGER NOT NULL, state TEXT NOT NULL,
    state_reason TEXT NOT NULL DEFAULT '', last_seen TEXT,
    UNIQUE(cluster_id, name));
CREATE TABLE shares (
    id INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL, kind TEXT NOT NULL, path TEXT NOT NULL, created TEXT NOT NULL,
    UNIQUE(workspace_id, name));
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    cluster_id INTEGER NOT NULL REFERENCES clusters(id),
    name TEXT NOT NULL, spec BLOB NOT NULL, state TEXT NOT NULL, priority INTEGER NOT NULL,
    created TEXT NOT NULL, started TEXT, ended TEXT, exit_code INTEGER,
    errors TEXT NOT NULL DEFAULT '[]', nodes TEXT NOT NULL DEFAULT '[]',
    uuid TEXT NOT NULL, job_dir TEXT NOT NULL DEFAULT '', pid INTEGER NOT NULL DEFAULT 0,
    UNIQUE(experiment_id, name));
CREATE TABLE job_file_offsets (
    job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    file TEXT NOT NULL, offset INTEGER NOT NULL, PRIMARY KEY(job_id, file));
CREATE TABLE job_metrics (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    record TEXT NOT NULL);
CREATE INDEX job_metrics_by_job ON job_metrics(job_id, id);
)sql",
    // 2: SSH clusters: credentials (secrets encrypted), parked nodes, probe facts.
    R"sql(
ALTER TABLE clusters ADD COLUMN ssh_key_file TEXT NOT NULL DEFAULT '';
ALTER TABLE clusters ADD COLUMN ssh_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN parked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nodes ADD COLUMN facts TEXT NOT NULL DEFAULT '{}';
)sql",
    // 3: the node of each rank, so that logs can be shown by node.
    R"sql(
ALTER TABLE jobs ADD COLUMN rank_nodes TEXT NOT NULL DEFAULT '[]';
)sql",
    // 4: cluster and replicated shares belong to a cluster (0: a local share).
    R"sql(
ALTER TABLE shares ADD COLUMN cluster_id INTEGER NOT NULL DEFAULT 0;
)sql",
    // 5: Slurm clusters: the login node and sbatch defaults; a job's Slurm id and state.
    R"sql(
ALTER TABLE clusters ADD COLUMN scheduler TEXT NOT NULL DEFAULT '{}';
ALTER TABLE jobs ADD COLUMN scheduler_id TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN scheduler_state TEXT NOT NULL DEFAULT '';
)sql",
    // 6: where a reader of a job's file left off besides the offset (the Keras parser's
    // epoch of every rank), saved with the offset.
    R"sql(
ALTER TABLE job_file_offsets ADD COLUMN reader_state TEXT NOT NULL DEFAULT '';
)sql",
    // 7: how long a node of a running job may be out of reach.
    R"sql(
ALTER TABLE clusters ADD COLUMN node_lost_grace INTEGER NOT NULL DEFAULT 120;
)sql",
    // 8: what the nodes of a running job were doing (CPU, memory, GPUs, network): one JSON
    // object per node and moment (metrics/SystemSample).
    R"sql(
CREATE TABLE job_system_samples (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    sample TEXT NOT NULL);
CREATE INDEX job_system_samples_by_job ON job_system_samples(job_id, id);
)sql",
    // 9: sweeps of ended jobs whose node was out of reach, kept until the node is swept (an
    // agent started after the one that failed the job finishes them).
    R"sql(
CREATE TABLE pending_sweeps (
    cluster_id INTEGER NOT NULL, node TEXT NOT NULL, job_uuid TEXT NOT NULL, since TEXT NOT NULL,
    PRIMARY KEY(cluster_id, node, job_uuid));
)sql",
    // Hyperparameter sweeps (core/sweeps): the job.json template, its parameters and the
    // trials drawn from them, each trial's job once the agent submitted it.
    R"sql(
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    cluster_id INTEGER NOT NULL, name TEXT NOT NULL, spec BLOB NOT NULL, params TEXT NOT NULL,
    sampling TEXT NOT NULL, trial_count INTEGER NOT NULL, seed INTEGER NOT NULL,
    max_concurrent INTEGER NOT NULL, metric TEXT NOT NULL DEFAULT '', goal TEXT NOT NULL DEFAULT 'max',
    early_stop TEXT NOT NULL DEFAULT '', no_container INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL, created TEXT NOT NULL, ended TEXT,
    UNIQUE(experiment_id, name));
CREATE TABLE sweep_trials (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL, params TEXT NOT NULL,
    job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'pending', reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(sweep_id, idx));
CREATE INDEX sweep_trials_by_job ON sweep_trials(job_id);
)sql",
    // Tags and a note per run, the user's own (store/RunNotes).
    R"sql(
CREATE TABLE run_notes (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    tags TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '');
)sql",
    // Retries, hangs and burn-in (issue 31): the ended attempts of retried jobs, the ranks
    // of a job silent past its progress timeout, and each cluster's burn-in schedule.
    R"sql(
CREATE TABLE job_attempts (
    job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL, uuid TEXT NOT NULL, job_dir TEXT NOT NULL,
    nodes TEXT NOT NULL, rank_nodes TEXT NOT NULL, started TEXT, ended TEXT, exit_code INTEGER,
    errors TEXT NOT NULL, lost_nodes TEXT NOT NULL, last_metric_id INTEGER NOT NULL,
    repeats_removed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(job_id, attempt));
CREATE TABLE job_silence (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE, silent TEXT NOT NULL);
CREATE TABLE cluster_burn_in (
    cluster_id INTEGER PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
    before_each_job INTEGER NOT NULL DEFAULT 0, every_hours INTEGER NOT NULL DEFAULT 0, last_run TEXT);
)sql",
    // The colour the user chose for a run ("#rrggbb"; "" for the automatic one), kept with
    // its tags and note (store/RunNotes).
    R"sql(
ALTER TABLE run_notes ADD COLUMN color TEXT NOT NULL DEFAULT '';
)sql",
};

// A UNIQUE constraint that failed: another process created the same name between our
// check and our insert. Said as the caller's own "already exists", never as SQL.
bool uniqueViolation(const QSqlQuery &q)
{
    const QString code = q.lastError().nativeErrorCode();
    return code == QLatin1String("2067") || code == QLatin1String("1555")
        || q.lastError().text().contains(QLatin1String("UNIQUE constraint failed"));
}

// Qt binds a null QString as SQL NULL; text columns are NOT NULL, so bind "" instead.
QString text(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

QString timeText(const QDateTime &t) { return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString(); }
QVariant timeValue(const QDateTime &t) { return t.isValid() ? QVariant(timeText(t)) : QVariant(); }
QDateTime timeFrom(const QVariant &v)
{
    if (v.isNull())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    t.setTimeSpec(Qt::UTC);
    return t;
}

QString errorsToJson(const QList<JobError> &errors)
{
    QJsonArray array;
    for (const JobError &e : errors) {
        array.append(QJsonObject{{"code", e.code},
                                 {"message", e.message},
                                 {"details", QJsonArray::fromStringList(e.details)}});
    }
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QList<JobError> errorsFromJson(const QString &text)
{
    QList<JobError> errors;
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

Workspace workspaceFrom(const QSqlQuery &q)
{
    return {q.value("id").toLongLong(), q.value("name").toString(), timeFrom(q.value("created"))};
}

Experiment experimentFrom(const QSqlQuery &q)
{
    return {q.value("id").toLongLong(), q.value("workspace_id").toLongLong(),
            q.value("name").toString(), timeFrom(q.value("created"))};
}

Cluster clusterFrom(const QSqlQuery &q)
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

Node nodeFrom(const QSqlQuery &q)
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
    n.state = nodeStateFromString(q.value("state").toString()).value_or(NodeState::Unusable);
    n.stateReason = q.value("state_reason").toString();
    n.lastSeen = timeFrom(q.value("last_seen"));
    n.parked = q.value("parked").toBool();
    n.facts = q.value("facts").toString();
    return n;
}

Share shareFrom(const QSqlQuery &q)
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

QString stringsToJson(const QStringList &strings)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(strings)).toJson(QJsonDocument::Compact));
}

QStringList stringsFromJson(const QVariant &value)
{
    QStringList strings;
    for (const QJsonValue &v : QJsonDocument::fromJson(value.toByteArray()).array())
        strings << v.toString();
    return strings;
}

Job jobFrom(const QSqlQuery &q)
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
    return j;
}

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

} // namespace

Store::Store()
{
    static QAtomicInt counter;
    m_connectionName = QStringLiteral("traindesk-store-%1").arg(counter.fetchAndAddRelaxed(1));
}

Store::~Store()
{
    if (m_db.isValid()) {
        m_db.close();
        m_db = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

VoidResult Store::open(const QString &databasePath)
{
    m_path = databasePath;
    const QFileInfo info(databasePath);
    if (!QDir().mkpath(info.absolutePath()))
        return fail(QStringLiteral("cannot create the data directory %1").arg(info.absolutePath()));
    // The database holds every cluster's address, user and sealed secrets: the owner's only.
    // (SQLite makes its -wal and -shm files with the database's mode.)
    QFile::setPermissions(info.absolutePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (!info.exists()) {
        QFile created(databasePath);
        if (!created.open(QIODevice::WriteOnly | QIODevice::NewOnly) && !info.exists())
            return fail(QStringLiteral("cannot create database %1: %2").arg(databasePath, created.errorString()));
    }
    QFile::setPermissions(databasePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_db.setDatabaseName(databasePath);
    // Another process may hold the write lock for a moment: wait instead of failing.
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (!m_db.open())
        return fail(lastError(QStringLiteral("cannot open database %1").arg(databasePath)));
    // Damage first, before anything writes: a migration on a damaged file could make it worse.
    if (const QString damage = DatabaseCheck::problems(m_db, {}); !damage.isEmpty())
        return fail(DatabaseCheck::damagedMessage(databasePath, damage));
    QSqlQuery q(m_db);
    q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    auto migrated = migrate();
    // A table dropped behind TrainDesk's back would read as an empty list.
    if (migrated) {
        if (const QString damage = DatabaseCheck::problems(m_db, tableNames()); !damage.isEmpty())
            return fail(DatabaseCheck::damagedMessage(databasePath, damage));
    }
    // SQLite says "disk I/O error" when it cannot make the write-ahead log on a full disk:
    // say what the user can act on. The database itself is left as it was.
    if (!migrated) {
        struct statvfs fs {};
        if (::statvfs(QFile::encodeName(info.absolutePath()).constData(), &fs) == 0 && fs.f_bavail == 0)
            return fail(QStringLiteral("cannot open database %1: no space left on device (ENOSPC) in %2; the database "
                                       "is unchanged: free some space and run the command again")
                            .arg(databasePath, info.absolutePath()));
    }
    return migrated;
}

QStringList Store::tableNames()
{
    static const QStringList names = [] {
        QStringList list;
        static const QRegularExpression create(QStringLiteral("CREATE TABLE (?:IF NOT EXISTS )?(\\w+)"));
        for (const char *migration : migrations) {
            for (auto it = create.globalMatch(QString::fromUtf8(migration)); it.hasNext();)
                list << it.next().captured(1);
        }
        return list;
    }();
    return names;
}

VoidResult Store::backup() const
{
    if (const QString damage = DatabaseCheck::problems(m_db, tableNames()); !damage.isEmpty())
        return fail(DatabaseCheck::damagedMessage(m_path, damage));
    const QString target = DatabaseCheck::backupPath(m_path);
    const QString part = target + QStringLiteral(".part");
    QFile::remove(part);  // VACUUM INTO writes only a file that is not there
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("VACUUM INTO ?"));
    q.addBindValue(part);
    if (!q.exec()) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot copy the database %1 to %2: %3").arg(m_path, part, q.lastError().text()));
    }
    QFile::setPermissions(part, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot rename %1 to %2").arg(part, target));
    }
    return {};
}

int Store::schemaVersion() const
{
    QSqlQuery q(m_db);
    if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
        return q.value(0).toInt();
    return -1;
}

VoidResult Store::migrate()
{
    const int target = int(std::size(migrations));
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot migrate database %1: %2").arg(m_path, tx.error()));
    const int current = schemaVersion();
    if (current > target) {
        return fail(QStringLiteral("database %1 has schema version %2, newer than this TrainDesk (%3)")
                        .arg(m_path).arg(current).arg(target));
    }
    for (int v = current; v < target; ++v) {
        const QStringList statements = QString::fromUtf8(migrations[v]).split(QLatin1Char(';'), Qt::SkipEmptyParts);
        for (const QString &statement : statements) {
            if (statement.trimmed().isEmpty())
                continue;
            QSqlQuery q(m_db);
            if (!q.exec(statement)) {
                return fail(QStringLiteral("migration to schema version %1 failed: %2")
                                .arg(v + 1).arg(q.lastError().text()));
            }
        }
    }
    if (current != target) {
        QSqlQuery q(m_db);
        q.exec(QStringLiteral("PRAGMA user_version=%1").arg(target));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot migrate database %1: %2").arg(m_path, tx.error()));
    return {};
}

QString Store::lastError(const QString &context) const
{
    return QStringLiteral("%1: %2").arg(context, m_db.lastError().text());
}

// --- workspaces and experiments ---

Result<Workspace> Store::createWorkspace(const QString &name)
{
    if (auto valid = validateName(QStringLiteral("workspace"), name); !valid)
        return valid.failure();
    if (workspace(name))
        return fail(QStringLiteral("workspace '%1' already exists").arg(name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO workspaces(name, created) VALUES(?, ?)"));
    q.addBindValue(name);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("workspace '%1' already exists").arg(name)
                                       : QStringLiteral("cannot create workspace '%1': %2").arg(name, q.lastError().text()));
    return workspace(name);
}

Result<Workspace> Store::workspace(const QString &name) const
{
    return selectOne<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces WHERE name = ?"), {name},
                                workspaceFrom, QStringLiteral("workspace '%1' not found").arg(name));
}

Result<Workspace> Store::workspaceById(qint64 id) const
{
    return selectOne<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces WHERE id = ?"), {id},
                                workspaceFrom, QStringLiteral("workspace #%1 not found").arg(id));
}

QList<Workspace> Store::workspaces() const
{
    return selectAll<Workspace>(m_db, QStringLiteral("SELECT * FROM workspaces ORDER BY name"), {}, workspaceFrom);
}

VoidResult Store::deleteWorkspace(const QString &name)
{
    const auto ws = workspace(name);
    if (!ws)
        return ws.failure();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM jobs j JOIN experiments e ON j.experiment_id = e.id "
                             "WHERE e.workspace_id = ? AND j.state IN ('queued','running','terminating')"));
    q.addBindValue(ws->id);
    if (q.exec() && q.next() && q.value(0).toInt() > 0)
        return fail(QStringLiteral("workspace '%1' has active jobs; terminate them first").arg(name));
    q.prepare(QStringLiteral("DELETE FROM workspaces WHERE id = ?"));
    q.addBindValue(ws->id);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete workspace '%1': %2").arg(name, q.lastError().text()));
    return {};
}

Result<Experiment> Store::createExperiment(qint64 workspaceId, const QString &name)
{
    if (auto valid = validateName(QStringLiteral("experiment"), name); !valid)
        return valid.failure();
    if (experiment(workspaceId, name))
        return fail(QStringLiteral("experiment '%1' already exists").arg(name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO experiments(workspace_id, name, created) VALUES(?, ?, ?)"));
    q.addBindValue(workspaceId);
    q.addBindValue(name);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("experiment '%1' already exists").arg(name)
                                       : QStringLiteral("cannot create experiment '%1': %2").arg(name, q.lastError().text()));
    return experiment(workspaceId, name);
}

Result<Experiment> Store::experiment(qint64 workspaceId, const QString &name) const
{
    return selectOne<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE workspace_id = ? AND name = ?"),
                                 {workspaceId, name}, experimentFrom,
                                 QStringLiteral("experiment '%1' not found").arg(name));
}

Result<Experiment> Store::experimentById(qint64 id) const
{
    return selectOne<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE id = ?"), {id},
                                 experimentFrom, QStringLiteral("experiment #%1 not found").arg(id));
}

QList<Experiment> Store::experiments(qint64 workspaceId) const
{
    return selectAll<Experiment>(m_db, QStringLiteral("SELECT * FROM experiments WHERE workspace_id = ? ORDER BY name"),
                                 {workspaceId}, experimentFrom);
}

// --- clusters ---

Result<Cluster> Store::createCluster(const Cluster &cluster, const QList<Node> &nodes)
{
    if (auto valid = validateName(QStringLiteral("cluster"), cluster.name); !valid)
        return valid.failure();
    if (this->cluster(cluster.workspaceId, cluster.name))
        return fail(QStringLiteral("cluster '%1' already exists").arg(cluster.name));
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' needs at least one node").arg(cluster.name));
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, tx.error()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO clusters(workspace_id, name, kind, target_node_count, mount_root, "
                             "setup_task, created, ssh_key_file, ssh_secret, scheduler, node_lost_grace) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(cluster.workspaceId);
    q.addBindValue(cluster.name);
    q.addBindValue(toString(cluster.kind));
    q.addBindValue(cluster.targetNodeCount);
    q.addBindValue(text(cluster.mountRoot));
    q.addBindValue(text(cluster.setupTask));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(cluster.sshKeyFile));
    q.addBindValue(text(cluster.sshSecret));
    q.addBindValue(QString::fromUtf8(cluster.kind == ClusterKind::Slurm ? cluster.slurm.toJson() : QByteArray("{}")));
    q.addBindValue(cluster.nodeLostGraceSeconds);
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("cluster '%1' already exists").arg(cluster.name)
                                       : QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, q.lastError().text()));
    const qint64 clusterId = q.lastInsertId().toLongLong();
    int index = 0;
    for (const Node &n : nodes) {
        QSqlQuery nq(m_db);
        nq.prepare(QStringLiteral("INSERT INTO nodes(cluster_id, idx, name, host, port, user, slots, state, "
                                  "state_reason, parked, facts) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        nq.addBindValue(clusterId);
        nq.addBindValue(index++);
        nq.addBindValue(n.name);
        nq.addBindValue(text(n.host));
        nq.addBindValue(n.port);
        nq.addBindValue(text(n.user));
        nq.addBindValue(n.slotCount);
        nq.addBindValue(toString(n.state));
        nq.addBindValue(text(n.stateReason));
        nq.addBindValue(n.parked ? 1 : 0);
        nq.addBindValue(n.facts.isEmpty() ? QStringLiteral("{}") : n.facts);
        if (!nq.exec())
            return fail(QStringLiteral("cannot add node '%1' to cluster '%2': %3")
                            .arg(n.name, cluster.name, nq.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, tx.error()));
    return clusterById(clusterId);
}

Result<Cluster> Store::cluster(qint64 workspaceId, const QString &name) const
{
    return selectOne<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE workspace_id = ? AND name = ?"),
                              {workspaceId, name}, clusterFrom, QStringLiteral("cluster '%1' not found").arg(name));
}

Result<Cluster> Store::clusterById(qint64 id) const
{
    return selectOne<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE id = ?"), {id}, clusterFrom,
                              QStringLiteral("cluster #%1 not found").arg(id));
}

QList<Cluster> Store::clusters(qint64 workspaceId) const
{
    return selectAll<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE workspace_id = ? ORDER BY name"),
                              {workspaceId}, clusterFrom);
}

QList<Node> Store::nodes(qint64 clusterId) const
{
    return selectAll<Node>(m_db, QStringLiteral("SELECT * FROM nodes WHERE cluster_id = ? AND parked = 0 ORDER BY idx"),
                           {clusterId}, nodeFrom);
}

QList<Node> Store::allNodes(qint64 clusterId) const
{
    return selectAll<Node>(m_db, QStringLiteral("SELECT * FROM nodes WHERE cluster_id = ? ORDER BY idx"),
                           {clusterId}, nodeFrom);
}

VoidResult Store::setNodeParked(qint64 nodeId, bool parked, NodeState state)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET parked = ?, state = ?, state_reason = '' WHERE id = ?"));
    q.addBindValue(parked ? 1 : 0);
    q.addBindValue(toString(state));
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::setNodeFacts(qint64 nodeId, int slotCount, const QString &facts)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET slots = ?, facts = ? WHERE id = ?"));
    q.addBindValue(qMax(1, slotCount));
    q.addBindValue(facts.isEmpty() ? QStringLiteral("{}") : facts);
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::setClusterTarget(qint64 clusterId, int targetNodeCount)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE clusters SET target_node_count = ? WHERE id = ?"));
    q.addBindValue(targetNodeCount);
    q.addBindValue(clusterId);
    if (!q.exec())
        return fail(QStringLiteral("cannot resize cluster #%1: %2").arg(clusterId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::deleteCluster(qint64 clusterId)
{
    const auto cl = clusterById(clusterId);
    if (!cl)
        return cl.failure();
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, tx.error()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE cluster_id = ? AND state IN ('queued','running','terminating')"));
    q.addBindValue(clusterId);
    if (q.exec() && q.next() && q.value(0).toInt() > 0)
        return fail(QStringLiteral("cluster '%1' has %2 queued or running jobs; terminate them first")
                        .arg(cl->name).arg(q.value(0).toInt()));
    // Finished jobs go with their cluster (their files stay on the share).
    for (const QString &sql : {QStringLiteral("DELETE FROM jobs WHERE cluster_id = ?"),
                               QStringLiteral("DELETE FROM clusters WHERE id = ?")}) {
        QSqlQuery d(m_db);
        d.prepare(sql);
        d.addBindValue(clusterId);
        if (!d.exec())
            return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, d.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, tx.error()));
    return {};
}

VoidResult Store::setNodeState(qint64 nodeId, NodeState state, const QString &reason)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET state = ?, state_reason = ?, last_seen = ? WHERE id = ?"));
    q.addBindValue(toString(state));
    q.addBindValue(text(reason));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

// --- shares ---

Result<Share> Store::createShare(const Share &share)
{
    if (auto valid = validateName(QStringLiteral("share"), share.name); !valid)
        return valid.failure();
    if (this->share(share.workspaceId, share.name))
        return fail(QStringLiteral("share '%1' already exists").arg(share.name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO shares(workspace_id, name, kind, path, cluster_id, created) VALUES(?, ?, ?, ?, ?, ?)"));
    q.addBindValue(share.workspaceId);
    q.addBindValue(share.name);
    q.addBindValue(toString(share.kind));
    q.addBindValue(text(share.path));
    q.addBindValue(share.clusterId);
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("share '%1' already exists").arg(share.name)
                                       : QStringLiteral("cannot create share '%1': %2").arg(share.name, q.lastError().text()));
    return this->share(share.workspaceId, share.name);
}

Result<Share> Store::share(qint64 workspaceId, const QString &name) const
{
    return selectOne<Share>(m_db, QStringLiteral("SELECT * FROM shares WHERE workspace_id = ? AND name = ?"),
                            {workspaceId, name}, shareFrom, QStringLiteral("share '%1' not found").arg(name));
}

QList<Share> Store::shares(qint64 workspaceId) const
{
    return selectAll<Share>(m_db, QStringLiteral("SELECT * FROM shares WHERE workspace_id = ? ORDER BY name"),
                            {workspaceId}, shareFrom);
}

VoidResult Store::deleteShare(qint64 shareId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM shares WHERE id = ?"));
    q.addBindValue(shareId);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete share #%1: %2").arg(shareId).arg(q.lastError().text()));
    if (q.numRowsAffected() == 0)
        return fail(QStringLiteral("share #%1 not found").arg(shareId));
    return {};
}

// --- jobs ---

Result<Job> Store::createJob(const Job &job)
{
    if (auto valid = validateName(QStringLiteral("job"), job.name); !valid)
        return valid.failure();
    if (this->job(job.experimentId, job.name))
        return fail(QStringLiteral("job '%1' already exists in this experiment").arg(job.name));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO jobs(experiment_id, cluster_id, name, spec, state, priority, created, uuid) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(job.experimentId);
    q.addBindValue(job.clusterId);
    q.addBindValue(job.name);
    q.addBindValue(job.spec);
    q.addBindValue(toString(job.state));
    q.addBindValue(job.priority);
    q.addBindValue(timeText(job.created.isValid() ? job.created : QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(job.uuid));
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("job '%1' already exists in this experiment").arg(job.name)
                                       : QStringLiteral("cannot create job '%1': %2").arg(job.name, q.lastError().text()));
    return jobById(q.lastInsertId().toLongLong());
}

Result<Job> Store::job(qint64 experimentId, const QString &name) const
{
    return selectOne<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE experiment_id = ? AND name = ?"),
                          {experimentId, name}, jobFrom, QStringLiteral("job '%1' not found").arg(name));
}

Result<Job> Store::jobById(qint64 id) const
{
    return selectOne<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE id = ?"), {id}, jobFrom,
                          QStringLiteral("job #%1 not found").arg(id));
}

QList<Job> Store::jobs(qint64 experimentId) const
{
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE experiment_id = ? ORDER BY created, id"),
                          {experimentId}, jobFrom);
}

QList<Job> Store::jobsOnCluster(qint64 clusterId) const
{
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE cluster_id = ? ORDER BY created, id"),
                          {clusterId}, jobFrom);
}

QList<Job> Store::jobsInStates(const QList<JobState> &states) const
{
    QStringList names;
    for (JobState s : states)
        names << QLatin1Char('\'') + toString(s) + QLatin1Char('\'');
    return selectAll<Job>(m_db, QStringLiteral("SELECT * FROM jobs WHERE state IN (%1) ORDER BY created, id")
                                    .arg(names.join(QLatin1Char(','))),
                          {}, jobFrom);
}

VoidResult Store::updateJob(const Job &job)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET spec = ?, state = ?, priority = ?, started = ?, ended = ?, "
                             "exit_code = ?, errors = ?, nodes = ?, rank_nodes = ?, job_dir = ?, pid = ?, "
                             "scheduler_id = ?, scheduler_state = ? WHERE id = ?"));
    q.addBindValue(job.spec);
    q.addBindValue(toString(job.state));
    q.addBindValue(job.priority);
    q.addBindValue(timeValue(job.started));
    q.addBindValue(timeValue(job.ended));
    q.addBindValue(job.exitCode ? QVariant(*job.exitCode) : QVariant());
    q.addBindValue(errorsToJson(job.errors));
    q.addBindValue(stringsToJson(job.nodes));
    q.addBindValue(stringsToJson(job.rankNodes));
    q.addBindValue(text(job.jobDir));
    q.addBindValue(job.pid);
    q.addBindValue(text(job.schedulerId));
    q.addBindValue(text(job.schedulerState));
    q.addBindValue(job.id);
    if (!q.exec())
        return fail(QStringLiteral("cannot update job '%1': %2").arg(job.name, q.lastError().text()));
    return {};
}

Result<bool> Store::claimSchedulerSubmit(qint64 jobId, const QString &claim)
{
    // One conditional update: of several processes refreshing at once, one gets the job.
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET scheduler_id = ? WHERE id = ? AND scheduler_id = '' AND state = ?"));
    q.addBindValue(claim);
    q.addBindValue(jobId);
    q.addBindValue(toString(JobState::Queued));
    if (!q.exec())
        return fail(QStringLiteral("cannot claim job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

Result<bool> Store::claimQueuedJob(qint64 jobId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE jobs SET state = ?, pid = 0 WHERE id = ? AND state = ?"));
    q.addBindValue(toString(JobState::Running));
    q.addBindValue(jobId);
    q.addBindValue(toString(JobState::Queued));
    if (!q.exec())
        return fail(QStringLiteral("cannot claim job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return q.numRowsAffected() == 1;
}

VoidResult Store::deleteJob(qint64 jobId)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM jobs WHERE id = ?"));
    q.addBindValue(jobId);
    if (!q.exec())
        return fail(QStringLiteral("cannot delete job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

qint64 Store::jobFileOffset(qint64 jobId, const QString &file) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT offset FROM job_file_offsets WHERE job_id = ? AND file = ?"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

QByteArray Store::jobFileReaderState(qint64 jobId, const QString &file) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT reader_state FROM job_file_offsets WHERE job_id = ? AND file = ?"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

Result<bool> Store::appendJobOutput(qint64 jobId, const QString &file, qint64 fromOffset, qint64 toOffset,
                                    const QList<QByteArray> &records, const QByteArray &readerState)
{
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(tx.error()));
    if (jobFileOffset(jobId, file) != fromOffset)
        return false;
    for (const QByteArray &record : records) {
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral("INSERT INTO job_metrics(job_id, record) VALUES(?, ?)"));
        q.addBindValue(jobId);
        q.addBindValue(QString::fromUtf8(record));
        if (!q.exec())
            return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    }
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO job_file_offsets(job_id, file, offset, reader_state) VALUES(?, ?, ?, ?) "
                             "ON CONFLICT(job_id, file) DO UPDATE SET offset = excluded.offset, "
                             "reader_state = excluded.reader_state"));
    q.addBindValue(jobId);
    q.addBindValue(file);
    q.addBindValue(toOffset);
    q.addBindValue(text(QString::fromUtf8(readerState)));
    if (!q.exec())
        return fail(QStringLiteral("cannot store output offset of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    if (!tx.commit())
        return fail(QStringLiteral("cannot store output of job #%1: %2").arg(jobId).arg(tx.error()));
    return true;
}

QByteArray Store::lastJobMetric(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT record FROM job_metrics WHERE job_id = ? ORDER BY id DESC LIMIT 1"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

qint64 Store::lastMetricId(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM job_metrics WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

VoidResult Store::addPendingSweep(const PendingSweep &sweep)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO pending_sweeps (cluster_id, node, job_uuid, since) VALUES (?, ?, ?, ?)"));
    q.addBindValue(sweep.clusterId);
    q.addBindValue(text(sweep.node));
    q.addBindValue(text(sweep.jobUuid));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot record the pending sweep of node %1").arg(sweep.node)));
    return {};
}

QList<PendingSweep> Store::pendingSweeps() const
{
    return selectAll<PendingSweep>(m_db, QStringLiteral("SELECT cluster_id, node, job_uuid FROM pending_sweeps ORDER BY since"), {},
                                   [](const QSqlQuery &q) {
                                       return PendingSweep{q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString()};
                                   });
}

VoidResult Store::removePendingSweep(const PendingSweep &sweep)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM pending_sweeps WHERE cluster_id = ? AND node = ? AND job_uuid = ?"));
    q.addBindValue(sweep.clusterId);
    q.addBindValue(text(sweep.node));
    q.addBindValue(text(sweep.jobUuid));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot remove the pending sweep of node %1").arg(sweep.node)));
    return {};
}

QList<QPair<qint64, QByteArray>> Store::jobMetrics(qint64 jobId, qint64 afterId) const
{
    return selectAll<QPair<qint64, QByteArray>>(
        m_db, QStringLiteral("SELECT id, record FROM job_metrics WHERE job_id = ? AND id > ? ORDER BY id"),
        {jobId, afterId}, [](const QSqlQuery &q) {
            return qMakePair(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
        });
}

VoidResult Store::forEachJobMetric(qint64 jobId, const std::function<bool(qint64, const QByteArray &)> &each) const
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);  // rows are not kept once read
    q.prepare(QStringLiteral("SELECT id, record FROM job_metrics WHERE job_id = ? ORDER BY id"));
    q.addBindValue(jobId);
    if (!q.exec())
        return fail(QStringLiteral("cannot read the metrics of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    while (q.next()) {
        if (!each(q.value(0).toLongLong(), q.value(1).toString().toUtf8()))
            break;
    }
    return {};
}

VoidResult Store::addSystemSample(qint64 jobId, const QByteArray &sample)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO job_system_samples (job_id, sample) VALUES (?, ?)"));
    q.addBindValue(jobId);
    q.addBindValue(QString::fromUtf8(sample));
    if (!q.exec())
        return fail(QStringLiteral("cannot store a system sample of job #%1: %2").arg(jobId).arg(q.lastError().text()));
    return {};
}

QList<QPair<qint64, QByteArray>> Store::systemSamples(qint64 jobId, qint64 afterId) const
{
    return selectAll<QPair<qint64, QByteArray>>(
        m_db, QStringLiteral("SELECT id, sample FROM job_system_samples WHERE job_id = ? AND id > ? ORDER BY id"),
        {jobId, afterId}, [](const QSqlQuery &q) {
            return qMakePair(q.value(0).toLongLong(), q.value(1).toString().toUtf8());
        });
}

qint64 Store::lastSystemSampleId(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM job_system_samples WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return 0;
}

Result<bool> Store::requeueAttempt(const Job &job, const JobAttempt &ended, const QString &nextUuid)
{
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, tx.error()));
    QSqlQuery insert(m_db);
    insert.prepare(QStringLiteral("INSERT INTO job_attempts (job_id, attempt, uuid, job_dir, nodes, rank_nodes, started, ended, "
                                  "exit_code, errors, lost_nodes, last_metric_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &v : QVariantList{job.id, ended.attempt, text(ended.uuid), text(ended.jobDir), stringsToJson(ended.nodes),
                                          stringsToJson(ended.rankNodes), timeValue(ended.started), timeValue(ended.ended),
                                          ended.exitCode ? QVariant(*ended.exitCode) : QVariant(), errorsToJson(ended.errors),
                                          stringsToJson(ended.lostNodes), lastMetricId(job.id)})
        insert.addBindValue(v);
    if (!insert.exec())
        return fail(QStringLiteral("cannot record attempt %1 of job '%2': %3").arg(ended.attempt).arg(job.name, insert.lastError().text()));
    // Only a running attempt: a terminate asked for meanwhile wins.
    QSqlQuery update(m_db);
    update.prepare(QStringLiteral("UPDATE jobs SET state = ?, uuid = ?, started = NULL, ended = NULL, exit_code = NULL, "
                                  "errors = '[]', nodes = '[]', rank_nodes = '[]', job_dir = '', pid = 0, scheduler_id = '', "
                                  "scheduler_state = '' WHERE id = ? AND state = ? AND uuid = ?"));
    for (const QVariant &v : QVariantList{toString(JobState::Queued), nextUuid, job.id, toString(JobState::Running), job.uuid})
        update.addBindValue(v);
    if (!update.exec())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, update.lastError().text()));
    if (update.numRowsAffected() != 1)
        return false;
    for (const QString &table : {QStringLiteral("job_file_offsets"), QStringLiteral("job_silence")}) {
        QSqlQuery q(m_db);
        q.prepare(QStringLiteral("DELETE FROM %1 WHERE job_id = ?").arg(table));
        q.addBindValue(job.id);
        if (!q.exec())
            return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, q.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot queue job '%1' again: %2").arg(job.name, tx.error()));
    return true;
}

QList<JobAttempt> Store::jobAttempts(qint64 jobId) const
{
    return selectAll<JobAttempt>(
        m_db,
        QStringLiteral("SELECT job_id, attempt, uuid, job_dir, nodes, rank_nodes, started, ended, exit_code, errors, lost_nodes, "
                       "last_metric_id FROM job_attempts WHERE job_id = ? ORDER BY attempt"),
        {jobId}, [](const QSqlQuery &q) {
            JobAttempt a;
            a.jobId = q.value(0).toLongLong();
            a.attempt = q.value(1).toInt();
            a.uuid = q.value(2).toString();
            a.jobDir = q.value(3).toString();
            a.nodes = stringsFromJson(q.value(4));
            a.rankNodes = stringsFromJson(q.value(5));
            a.started = timeFrom(q.value(6));
            a.ended = timeFrom(q.value(7));
            if (!q.value(8).isNull())
                a.exitCode = q.value(8).toInt();
            a.errors = errorsFromJson(q.value(9).toString());
            a.lostNodes = stringsFromJson(q.value(10));
            a.lastMetricId = q.value(11).toLongLong();
            return a;
        });
}

Result<int> Store::removeRepeatedMetrics(qint64 jobId)
{
    // The newest ended attempt, if its repeats are still to be removed.
    QSqlQuery pending(m_db);
    pending.prepare(QStringLiteral("SELECT attempt, last_metric_id FROM job_attempts WHERE job_id = ? AND repeats_removed = 0 "
                                   "AND attempt = (SELECT MAX(attempt) FROM job_attempts WHERE job_id = ?)"));
    pending.addBindValue(jobId);
    pending.addBindValue(jobId);
    if (!pending.exec() || !pending.next())
        return 0;
    const int attempt = pending.value(0).toInt();
    const qint64 boundary = pending.value(1).toLongLong();
    const QString epochKinds = QStringLiteral("json_extract(record, '$.kind') IN ('train', 'rank', 'val', 'epoch')");
    // The first epoch the running attempt recorded: where it resumed.
    QSqlQuery first(m_db);
    first.prepare(QStringLiteral("SELECT MIN(json_extract(record, '$.epoch')) FROM job_metrics WHERE job_id = ? AND id > ? AND %1")
                      .arg(epochKinds));
    first.addBindValue(jobId);
    first.addBindValue(boundary);
    if (!first.exec() || !first.next() || first.value(0).isNull())
        return 0;  // no epoch recorded yet
    const int fromEpoch = first.value(0).toInt();
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(tx.error()));
    QSqlQuery remove(m_db);
    remove.prepare(QStringLiteral("DELETE FROM job_metrics WHERE job_id = ? AND id <= ? AND %1 "
                                  "AND json_extract(record, '$.epoch') >= ?").arg(epochKinds));
    remove.addBindValue(jobId);
    remove.addBindValue(boundary);
    remove.addBindValue(fromEpoch);
    if (!remove.exec())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(remove.lastError().text()));
    const int removed = remove.numRowsAffected();
    QSqlQuery mark(m_db);
    mark.prepare(QStringLiteral("UPDATE job_attempts SET repeats_removed = 1 WHERE job_id = ? AND attempt = ?"));
    mark.addBindValue(jobId);
    mark.addBindValue(attempt);
    if (!mark.exec() || !tx.commit())
        return fail(QStringLiteral("cannot remove repeated metrics of job #%1: %2").arg(jobId).arg(mark.lastError().text()));
    return removed;
}

VoidResult Store::setJobSilence(qint64 jobId, const QByteArray &json)
{
    QSqlQuery q(m_db);
    if (json.isEmpty()) {
        q.prepare(QStringLiteral("DELETE FROM job_silence WHERE job_id = ?"));
        q.addBindValue(jobId);
    } else {
        q.prepare(QStringLiteral("INSERT INTO job_silence (job_id, silent) VALUES (?, ?) "
                                 "ON CONFLICT(job_id) DO UPDATE SET silent = excluded.silent"));
        q.addBindValue(jobId);
        q.addBindValue(QString::fromUtf8(json));
    }
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot store the silent ranks of job #%1").arg(jobId)));
    return {};
}

QByteArray Store::jobSilence(qint64 jobId) const
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT silent FROM job_silence WHERE job_id = ?"));
    q.addBindValue(jobId);
    if (q.exec() && q.next())
        return q.value(0).toString().toUtf8();
    return {};
}

BurnInSchedule Store::burnInSchedule(qint64 clusterId) const
{
    BurnInSchedule s;
    s.clusterId = clusterId;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT before_each_job, every_hours, last_run FROM cluster_burn_in WHERE cluster_id = ?"));
    q.addBindValue(clusterId);
    if (q.exec() && q.next()) {
        s.beforeEachJob = q.value(0).toBool();
        s.everyHours = q.value(1).toInt();
        s.lastRun = timeFrom(q.value(2));
    }
    return s;
}

VoidResult Store::setBurnInSchedule(const BurnInSchedule &schedule)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO cluster_burn_in (cluster_id, before_each_job, every_hours, last_run) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT(cluster_id) DO UPDATE SET before_each_job = excluded.before_each_job, "
                             "every_hours = excluded.every_hours, last_run = excluded.last_run"));
    q.addBindValue(schedule.clusterId);
    q.addBindValue(schedule.beforeEachJob ? 1 : 0);
    q.addBindValue(schedule.everyHours);
    q.addBindValue(timeValue(schedule.lastRun));
    if (!q.exec())
        return fail(lastError(QStringLiteral("cannot store the burn-in schedule of cluster #%1").arg(schedule.clusterId)));
    return {};
}

} // namespace TrainDesk

// Store: the schema, as the list of migrations that build it.
#include "Store.h"

#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

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
    // 9: stray-process clean-ups (StrayProcessCleanup) of ended jobs whose node was out of
    // reach, kept until the node is cleaned up (an agent started after the one that failed
    // the job finishes them). The table keeps the name it was made with.
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
    // Jobs share a node by its cores and GPUs (jobs/ResourcePlacement): a node's GPU count
    // (set by its next probe) and what each packed job holds ('[]': whole nodes).
    R"sql(
ALTER TABLE nodes ADD COLUMN gpus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN placement TEXT NOT NULL DEFAULT '[]';
)sql",
    // Runs imported from TensorBoard folders (store/ImportedRuns.h): a job row each, its
    // folder, and per event file how far it was read (the files themselves stay where they are).
    // The runs table's summary of each job (metrics/RunSummary as JSON) with the last metric
    // row it counted, so a new session reads only the rows after it (session/RunSummaryReader).
    R"sql(
CREATE TABLE imported_runs (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    root BLOB NOT NULL, folder BLOB NOT NULL, run TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '{}');
CREATE INDEX imported_runs_by_folder ON imported_runs(folder);
CREATE TABLE imported_files (
    job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    name BLOB NOT NULL, offset INTEGER NOT NULL, points INTEGER NOT NULL, error TEXT NOT NULL DEFAULT '',
    PRIMARY KEY(job_id, name));
CREATE TABLE run_summaries (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    last_id INTEGER NOT NULL, summary TEXT NOT NULL);
)sql",
};

} // namespace

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
    // Every CLI command opens the store: one that finds the schema current only reads, so it
    // never waits behind another process's write (the agent's); a WAL reader needs no lock.
    if (const int seen = schemaVersion(); seen == target)
        return {};
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot migrate database %1: %2").arg(m_path, tx.error()));
    // Read again under the write lock: another process may have migrated in between.
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

} // namespace TrainDesk

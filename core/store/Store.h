#pragma once

#include "Entities.h"
#include "ImportedRuns.h"
#include "ReliabilityRecords.h"
#include "common/Result.h"

#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

namespace TrainDesk {

// All of TrainDesk's state in one SQLite database (Qt SQL), with schema migrations.
// One Store is one connection: use it from the thread that opened it. Writes that
// belong together run in one transaction; the database runs in WAL mode so the GUI
// and the CLI can use it at the same time.
class Store
{
public:
    Store();
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // Checks the database first (DatabaseCheck): a damaged one, or one that lost a table,
    // is refused with its path and the way back, and left as it is.
    VoidResult open(const QString &databasePath);
    QString path() const { return m_path; }
    int schemaVersion() const;
    // The tables of the schema (what the migrations create).
    static QStringList tableNames();
    // Copies the database, when it passes the check, to DatabaseCheck::backupPath (made
    // beside it and renamed into place): the last good copy `traindesk doctor` restores.
    // The check reads the whole file: damage it finds is noted beside it for every later open
    // (DatabaseCheck::noteDamage) and this Store refuses writes from then on.
    VoidResult backup() const;
    // Writes the write-ahead log into the database and empties it, when it holds more than
    // `overBytes`: a log grown by a large chunk (or a write that failed on a full disk) gives
    // its space back instead of keeping the disk full (issue #38). Never waits: what a
    // reader's snapshot still needs goes at a later call.
    void truncateLogOver(qint64 overBytes);

    // Workspaces and experiments
    Result<Workspace> createWorkspace(const QString &name);
    Result<Workspace> workspace(const QString &name) const;
    Result<Workspace> workspaceById(qint64 id) const;
    QList<Workspace> workspaces() const;
    VoidResult deleteWorkspace(const QString &name);

    Result<Experiment> createExperiment(qint64 workspaceId, const QString &name);
    Result<Experiment> experiment(qint64 workspaceId, const QString &name) const;
    Result<Experiment> experimentById(qint64 id) const;
    QList<Experiment> experiments(qint64 workspaceId) const;

    // Clusters and their nodes (created together, in one transaction)
    Result<Cluster> createCluster(const Cluster &cluster, const QList<Node> &nodes);
    Result<Cluster> cluster(qint64 workspaceId, const QString &name) const;
    Result<Cluster> clusterById(qint64 id) const;
    QList<Cluster> clusters(qint64 workspaceId) const;
    QList<Node> nodes(qint64 clusterId) const;  // the nodes in the cluster (parked ones left out)
    VoidResult setNodeState(qint64 nodeId, NodeState state, const QString &reason = {});
    // Marks a queued job that has no scheduler id yet with `claim`; false when another
    // process got there first.
    Result<bool> claimSchedulerSubmit(qint64 jobId, const QString &claim);
    // Queued -> running in one conditional update, before anything starts on a node: of two
    // schedulers (an old agent still finishing, a new one) exactly one gets true.
    Result<bool> claimQueuedJob(qint64 jobId);
    // What a queued job waits for (the scheduler's word, shown by `job show`); only while it
    // is still queued, so that a terminate meanwhile is never undone.
    VoidResult setJobWaitReason(qint64 jobId, const QString &reason);
    // Cluster membership and sizing (core/cluster/ClusterService uses these).
    QList<Node> allNodes(qint64 clusterId) const;  // parked ones too
    VoidResult setNodeParked(qint64 nodeId, bool parked, NodeState state);
    VoidResult setNodeFacts(qint64 nodeId, int slotCount, const QString &facts);
    VoidResult setClusterTarget(qint64 clusterId, int targetNodeCount);
    // Refused while jobs are queued or running; finished jobs go with the cluster.
    VoidResult deleteCluster(qint64 clusterId);

    // Shares
    Result<Share> createShare(const Share &share);
    Result<Share> share(qint64 workspaceId, const QString &name) const;
    QList<Share> shares(qint64 workspaceId) const;
    VoidResult deleteShare(qint64 shareId);  // the record only: the files stay

    // Jobs
    Result<Job> createJob(const Job &job);
    Result<Job> job(qint64 experimentId, const QString &name) const;
    Result<Job> jobById(qint64 id) const;
    // The job whose current attempt has this uuid (its job folder's name).
    Result<Job> jobByUuid(const QString &uuid) const;
    QList<Job> jobs(qint64 experimentId) const;
    QList<Job> jobsOnCluster(qint64 clusterId) const;
    QList<Job> jobsInStates(const QList<JobState> &states) const;
    VoidResult updateJob(const Job &job);
    VoidResult deleteJob(qint64 jobId);

    // Runs imported from TensorBoard folders (store/ImportedRuns.h). The job row and its
    // record in one transaction; the name is TensorBoard's (a path), unique in the experiment.
    Result<Job> createImportedRun(const Job &job, const ImportedRun &run);
    std::optional<ImportedRun> importedRun(qint64 jobId) const;  // none: not an imported run
    QList<ImportedRun> importedRuns(qint64 experimentId) const;
    QList<ImportedFile> importedFiles(qint64 jobId) const;        // by name
    // What reading runs' files added (each file's offset, points and error, the run's summary,
    // its first and last event time), in one transaction for all of them.
    struct ImportedRead
    {
        qint64 jobId = 0;
        QList<ImportedFile> files;
        QByteArray summary;
        QDateTime started, ended;
    };
    VoidResult saveImportedReads(const QList<ImportedRead> &reads);

    // The runs table's summary of a job (metrics/RunSummary's JSON) and the last metric row it
    // counted (session/RunSummaryReader keeps it up to date; removeRepeatedMetrics drops it).
    std::optional<std::pair<qint64, QByteArray>> runSummary(qint64 jobId) const;
    // The same for every job at once (session/RunSummaryReader, StoreRunsTable): last_id and,
    // with `withSummary`, the summary (else empty); and the imported runs' summaries.
    QHash<qint64, std::pair<qint64, QByteArray>> runSummaries(bool withSummary) const;
    QHash<qint64, QByteArray> importedRunSummaries() const;
    // Of the jobs given with the last metric row counted of each, those that have rows after
    // it: one query (index look-ups inside SQLite) instead of one per job.
    QSet<qint64> jobsWithMetricsAfter(const QHash<qint64, qint64> &lastIds) const;
    VoidResult saveRunSummary(qint64 jobId, qint64 lastId, const QByteArray &summary);

    // Job output read so far. appendJobOutput stores records read from `file` between
    // `fromOffset` and `toOffset` and moves the saved offset, in one transaction; it refuses
    // (returns false) when the saved offset is no longer `fromOffset` because another reader
    // got there first, so nothing is stored twice.
    // `readerState`: what the reader needs besides the offset to go on (saved with it).
    qint64 jobFileOffset(qint64 jobId, const QString &file) const;
    QByteArray jobFileReaderState(qint64 jobId, const QString &file) const;
    Result<bool> appendJobOutput(qint64 jobId, const QString &file, qint64 fromOffset,
                                 qint64 toOffset, const QList<QByteArray> &records,
                                 const QByteArray &readerState = {});
    // Metric records (one JSON object each) with their row ids, after `afterId`.
    QList<QPair<qint64, QByteArray>> jobMetrics(qint64 jobId, qint64 afterId = 0) const;
    // The same one at a time, as SQLite reads them (constant memory for any number);
    // `each` returns false to stop.
    VoidResult forEachJobMetric(qint64 jobId, const std::function<bool(qint64 id, const QByteArray &record)> &each) const;
    // The job's newest metric record, empty when it has none.
    QByteArray lastJobMetric(qint64 jobId) const;
    // The row id of the newest metric record, 0 when none (the agent's change detection).
    qint64 lastMetricId(qint64 jobId) const;
    // System samples of a job's nodes (agent/NodeSampling), one JSON object each, with
    // their row ids, after `afterId`; and the newest row id (0: none).
    VoidResult addSystemSample(qint64 jobId, const QByteArray &sample);
    QList<QPair<qint64, QByteArray>> systemSamples(qint64 jobId, qint64 afterId = 0) const;
    qint64 lastSystemSampleId(qint64 jobId) const;

    // Stray-process clean-ups of ended jobs (StrayProcessCleanup) that wait for their node to
    // be reachable again; kept here, not in the agent's memory, so that a restarted agent
    // finishes them (table `pending_sweeps`, its name from before the rename).
    VoidResult addPendingCleanup(const PendingCleanup &cleanup);  // once per (cluster, node, job)
    QList<PendingCleanup> pendingCleanups() const;                 // oldest first
    VoidResult removePendingCleanup(const PendingCleanup &cleanup);

    // The hyperparameter sweep (core/sweeps, table `sweeps`) whose trial job `jobName` is in
    // the experiment ("<sweep>-<n>", n from 1 to its trial count), with n; none when no
    // sweep's trial is named so. Such a name is the sweep's: other jobs are refused it.
    std::optional<std::pair<QString, int>> sweepHoldingJobName(qint64 experimentId, const QString &jobName) const;

    // Retries (jobs/JobRetry). requeueAttempt, in one transaction: stores the ended attempt,
    // queues the job again as the next attempt under `nextUuid` (its own job directory) with
    // the attempt's fields cleared, and resets the read offsets (the next attempt writes new
    // files); false when the job is no longer in the state `ended` was read in.
    Result<bool> requeueAttempt(const Job &job, const JobAttempt &ended, const QString &nextUuid);
    QList<JobAttempt> jobAttempts(qint64 jobId) const;  // oldest first
    // Every job's attempts and silent ranks, by job id, in one query each (StoreRunsTable):
    // the GUI's snapshot of 10,000 jobs asked 20,000 queries.
    QHash<qint64, QList<JobAttempt>> allJobAttempts() const;  // each oldest first
    QHash<qint64, QByteArray> allJobSilences() const;
    // After a resumed attempt's first records: the rows of earlier attempts from the epoch
    // the attempt went on from (it does those again), so each epoch is stored once. Done
    // once per attempt; returns the rows removed. Which rows an attempt replaces is the
    // metrics' rule (metrics/ResumedAttempt; MetricRows::removeRepeated calls this): `replacedKindSql` picks a row of
    // a kind it replaces, the epoch (`epochSql`, metrics/MetricRecordSql) of the attempt's
    // first row that `resumedAtSql` picks is where it resumed.
    Result<int> removeRepeatedMetrics(qint64 jobId, const QString &replacedKindSql, const QString &resumedAtSql,
                                      QLatin1StringView epochSql);
    // The job's ranks silent past its progress timeout (jobs/ProgressWatch, JSON); empty when
    // none (setting empty clears it).
    VoidResult setJobSilence(qint64 jobId, const QByteArray &json);
    QByteArray jobSilence(qint64 jobId) const;
    // When a cluster's nodes are burnt in besides on demand (cluster/BurnIn).
    BurnInSchedule burnInSchedule(qint64 clusterId) const;
    VoidResult setBurnInSchedule(const BurnInSchedule &schedule);

private:
    VoidResult migrate();
    QString lastError(const QString &context) const;

    QSqlDatabase m_db;
    QString m_connectionName;
    QString m_path;
};

} // namespace TrainDesk

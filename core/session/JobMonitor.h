#pragma once

#include "JobFile.h"
#include "ResourceSnapshot.h"
#include "RunSummaryReader.h"
#include "common/Result.h"
#include "jobs/JobSubmission.h"
#include "metrics/MetricRecord.h"
#include "metrics/SystemSample.h"
#include "shares/ShareService.h"
#include "sweeps/SweepStore.h"
#include "sweeps/TrialMetric.h"

#include <QHash>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QThreadPool>

#include <atomic>
#include <memory>

class QTimer;

namespace TrainDesk {

class AgentClient;
class AgentSubscription;
class Store;
class JobFiles;
class Transport;

// The GUI's worker, the poller: lives in its own thread with its own Store connection,
// reads the jobs (state, metrics) the agent stores when the agent pushes that they changed,
// reports what changed (snapshots, metrics, followed files), and asks the agent to start,
// queue and terminate; it never polls job state on the nodes itself. A slower look at the
// store catches what other processes did (a workspace made with the CLI). Job files are
// listed and downloaded here (downloads in its pool); requests that create things or
// upload are JobRequests', in the same thread.
class JobMonitor : public QObject
{
    Q_OBJECT

public:
    explicit JobMonitor(const QString &databasePath, int pollIntervalMs = 500);
    ~JobMonitor() override;

    static constexpr qint64 followChunkBytes = 512 * 1024;
    // The worker thread's nice value (Linux): the GUI thread goes first when both are busy.
    static constexpr int workerNiceness = 5;
    // The store is read for changes of other processes every this many polls (2 s at 500 ms).
    static constexpr int snapshotEveryPolls = 4;

public Q_SLOTS:
    void start();                   // call in the worker thread
    void poll();
    void watchJob(qint64 jobId);    // metrics of this job are reported from now on
    void unwatchJob(qint64 jobId);
    void queueJob(qint64 jobId);    // draft -> queued
    void terminateJob(qint64 jobId);
    // A deleted job: nothing of it is reported or summed up any more (JobRequests::deleteJob).
    void forgetJob(qint64 jobId);
    // The runs table's settings and last/best metrics of these jobs: runSummariesRead.
    void readRunSummaries(int requestId, const QList<qint64> &jobIds);

    // Reports a job's file (relative to the job directory) as it grows, starting with its
    // last `tailBytes` (cut at a line start); waits for the file when it does not exist yet.
    void followFile(qint64 jobId, const QString &file, qint64 tailBytes);
    void unfollowFile(qint64 jobId, const QString &file);
    // Lists stdouterr and every output directory of the job, recursively.
    void listJobFiles(qint64 jobId);
    // Copies a file of the job's (a remotePath from listJobFiles) to `localPath`.
    void downloadJobFile(int requestId, qint64 jobId, const QString &remotePath, const QString &localPath);
    void cancelDownload(int requestId);

    // Lists the top-level folders of cluster and replicated shares again, in the pool. Their
    // folders are cached: the 500 ms poll does not reach the nodes (local ones are read on
    // every poll). Runs at start, on Refresh, and after a create or an upload.
    void refreshShareFolders();

    // For JobRequests, in this thread: the snapshot now (the answer to a create follows
    // it), the agent woken for a job just queued, a remote share's folders as listed.
    void publishSnapshotNow();
    // Jobs whose rows grew outside the agent (an imported TensorBoard run read again):
    // their watchers get the new rows, the snapshot follows.
    void rowsGrew(const QList<qint64> &jobIds) { jobsChanged(jobIds); }
    void wakeAgent();
    void setShareFolders(qint64 shareId, const QStringList &folders);

Q_SIGNALS:
    void snapshotChanged(const TrainDesk::ResourceSnapshot &snapshot);
    // `reset`: the records are the job's whole series so far, not an addition.
    void metricsArrived(qint64 jobId, const QList<TrainDesk::MetricRecord> &records, bool reset);
    // The system samples of a watched job's nodes (the same `reset` rule).
    void systemSamplesArrived(qint64 jobId, const QList<TrainDesk::SystemSample> &samples, bool reset);
    void operationFailed(const QString &message);
    // `offset`: where `data` starts in the file (more than 0 on the first chunk of a tail).
    void fileChunk(qint64 jobId, const QString &file, qint64 offset, const QByteArray &data);
    void jobFilesListed(qint64 jobId, const QList<TrainDesk::JobFile> &files, const QString &error);
    void downloadProgress(int requestId, qint64 done, qint64 total);
    void downloadFinished(int requestId, const QString &error);  // empty error: done
    void runSummariesRead(int requestId, const TrainDesk::RunSummaries &summaries);

private:
    struct Follow
    {
        qint64 offset = -1;  // -1: not opened yet
        qint64 tailBytes = 0;
        bool idle = false;   // the job ended and the file was read to its end
    };

    // Makes sure an agent runs while jobs wait for one; `wake`: and look at them now.
    void keepAgentWatching(bool wake = false);
    void publishSnapshot(bool force);
    void publishMetrics(qint64 jobId, bool reset);
    void publishSystemSamples(qint64 jobId, bool reset);
    void jobsChanged(const QList<qint64> &jobIds);  // pushed by the agent
    void pollFollows();
    void readFollow(const QPair<qint64, QString> &key, Follow &follow);

    QString m_databasePath;
    int m_pollIntervalMs;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<SweepStore> m_sweeps;  // sweeps for the snapshot (a connection of its own)
    QHash<qint64, std::shared_ptr<TrialMetric>> m_sweepMetrics;  // sweep id -> its series read so far
    std::unique_ptr<JobSubmission> m_submission;
    std::unique_ptr<JobFiles> m_files;
    std::unique_ptr<AgentClient> m_agent;
    std::unique_ptr<RunSummaryReader> m_summaries;
    AgentSubscription *m_subscription = nullptr;
    int m_pollsSinceSnapshot = 0;
    QString m_agentProblem;
    QTimer *m_timer = nullptr;
    QByteArray m_lastSignature;
    QHash<qint64, qint64> m_watched;  // job id -> last metric row reported
    QHash<qint64, qint64> m_watchedSamples;  // job id -> last system sample row reported
    QHash<QPair<qint64, QString>, Follow> m_follows;
    QHash<int, std::shared_ptr<std::atomic_bool>> m_downloads;  // request id -> cancel flag
    QHash<qint64, QStringList> m_remoteFolders;  // share id -> top-level folders (cluster, replicated)
    bool m_listingFolders = false;
    QThreadPool m_pool;               // downloads and share listings, so polling goes on meanwhile
};

} // namespace TrainDesk

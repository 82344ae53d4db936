#pragma once

#include "JobFile.h"
#include "ResourceSnapshot.h"
#include "jobs/JobSubmission.h"
#include "metrics/MetricRecord.h"
#include "metrics/RunSummary.h"
#include "metrics/SystemSample.h"
#include "shares/ShareService.h"
#include "sweeps/SweepCreate.h"

#include <QObject>
#include <QThread>

namespace TrainDesk {

class JobMonitor;
class JobRequests;

// The GUI's handle on the core: starts a JobMonitor (the poller) and its JobRequests in a
// worker thread and forwards calls to them as queued calls, so nothing here blocks. Keeps
// the latest snapshot.
class Backend : public QObject
{
    Q_OBJECT

public:
    explicit Backend(const QString &databasePath, int pollIntervalMs = 500, QObject *parent = nullptr);
    ~Backend() override;

    const ResourceSnapshot &snapshot() const { return m_snapshot; }

    void watchJob(qint64 jobId);
    void unwatchJob(qint64 jobId);
    void queueJob(qint64 jobId);
    void terminateJob(qint64 jobId);
    // Deletes a draft or finished job: requestFinished(id, jobId, error) after the snapshot.
    int deleteJob(qint64 jobId);
    // The jobs' settings and last/best metrics: runSummariesRead(id, summaries).
    int readRunSummaries(const QList<qint64> &jobIds);
    void pollNow();

    // See JobMonitor: a job's file as it grows (fileChunk), its file list (jobFilesListed)
    // and copies of its files to this machine (downloadProgress, downloadFinished).
    void followFile(qint64 jobId, const QString &file, qint64 tailBytes = 4 * 1024 * 1024);
    void unfollowFile(qint64 jobId, const QString &file);
    void listJobFiles(qint64 jobId);
    int downloadJobFile(qint64 jobId, const QString &remotePath, const QString &localPath);  // request id
    void cancelDownload(int requestId);

    // Each returns a request id that requestFinished() answers with the new row's id (0 and
    // a one-line reason on failure), after the snapshot that shows the new row.
    int submitJob(const SubmitRequest &request);
    int createWorkspace(const QString &name);
    int createExperiment(const QString &workspace, const QString &name);
    int createShare(const QString &workspace, const QString &name, const QString &folder);  // a local share
    // A share of any kind (ShareService's rules); cluster and replicated ones reach the nodes
    // in the worker's pool.
    int createShare(const TrainDesk::CreateShareRequest &request);

    // Copies local files into a folder of a share (to the nodes for cluster and replicated
    // ones): uploadProgress, then uploadFinished.
    int uploadToShare(qint64 shareId, const QString &directory, const QStringList &files);
    void cancelUpload(int requestId);

    // A small file (job.json) read or written in the worker: fileRead, fileWritten.
    static constexpr qint64 maxReadBytes = 16 * 1024 * 1024;
    int readFile(const QString &path);
    int writeFile(const QString &path, const QByteArray &data);

    // Hyperparameter sweeps: create (requestFinished with the sweep's id), the trial count
    // a request would make (sweepPreviewed), stop (requestFinished with the sweep's id).
    int createSweep(const SweepRequest &request);
    int previewSweep(const SweepRequest &request);
    int stopSweep(qint64 sweepId);

    // A TensorBoard folder's runs opened in place as runs of an experiment of `workspace`
    // (requestFinished with the experiment's id, tensorBoardFolderRead), followed while
    // `follow` until stopFollowingTensorBoardFolders().
    // On node `node` of `cluster` when given (read over SFTP; node empty: the cluster's first);
    // with `share`, `folder` is a path in that share, read where the share is.
    int openTensorBoardFolder(const QString &workspace, const QString &folder, bool follow, const QString &cluster = {},
                              const QString &node = {}, const QString &share = {});
    void stopFollowingTensorBoardFolders();

Q_SIGNALS:
    void snapshotChanged();
    void metricsArrived(qint64 jobId, const QList<TrainDesk::MetricRecord> &records, bool reset);
    void systemSamplesArrived(qint64 jobId, const QList<TrainDesk::SystemSample> &samples, bool reset);
    void operationFailed(const QString &message);
    void fileChunk(qint64 jobId, const QString &file, qint64 offset, const QByteArray &data);
    void jobFilesListed(qint64 jobId, const QList<TrainDesk::JobFile> &files, const QString &error);
    void downloadProgress(int requestId, qint64 done, qint64 total);
    void downloadFinished(int requestId, const QString &error);
    void requestFinished(int requestId, qint64 id, const QString &error);
    void uploadProgress(int requestId, qint64 done, qint64 total, const QString &file);
    void uploadFinished(int requestId, int filesCopied, const QString &error);
    void fileRead(int requestId, const QByteArray &data, const QString &error);
    void fileWritten(int requestId, const QString &error);
    void sweepPreviewed(int requestId, int trials, const QStringList &warnings, const QString &error);
    void runSummariesRead(int requestId, const TrainDesk::RunSummaries &summaries);
    void tensorBoardFolderRead(const QString &folder, const QString &summary, const QStringList &problems);

private:
    QThread m_thread;
    JobMonitor *m_monitor = nullptr;  // lives in m_thread
    JobRequests *m_requests = nullptr;  // lives in m_thread
    ResourceSnapshot m_snapshot;
    int m_nextRequestId = 1;
    // Views that watch each job: the worker stops reporting a job when the last one stops.
    QHash<qint64, int> m_watchers;
};

} // namespace TrainDesk

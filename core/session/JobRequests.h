#pragma once

#include "jobs/JobSubmission.h"
#include "metrics/TensorBoardImport.h"
#include "shares/ShareService.h"
#include "sweeps/SweepCreate.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <memory>

namespace TrainDesk {

class JobMonitor;
class Store;

// The GUI's requests that create things or move files (job submit, workspace, experiment,
// share, uploads to a share, small file reads and writes). Lives in the worker thread beside
// JobMonitor, the poller, with a Store connection of its own (copies in its own pool, each
// task with its own connection); each request answers with a signal that carries its id.
// Requests that create something answer after the monitor published the snapshot that
// shows the new row, so a wizard can select it.
class JobRequests : public QObject
{
    Q_OBJECT

public:
    JobRequests(const QString &databasePath, JobMonitor &monitor);
    ~JobRequests() override;

public Q_SLOTS:
    void start();  // call in the worker thread

    void submitJob(int requestId, const TrainDesk::SubmitRequest &request);
    // Deletes a draft or finished job (JobSubmission::remove): requestFinished(requestId, jobId,
    // error) after the snapshot without it.
    void deleteJob(int requestId, qint64 jobId);
    void createWorkspace(int requestId, const QString &name);
    void createExperiment(int requestId, const QString &workspace, const QString &name);
    // Through ShareService: a local share here, cluster and replicated ones in the pool
    // (they reach the nodes).
    void createShare(int requestId, const TrainDesk::CreateShareRequest &request);
    // Copies files of this machine into `directory` of a share, in the pool.
    void uploadToShare(int requestId, qint64 shareId, const QString &directory, const QStringList &files);
    void cancelUpload(int requestId);
    // Small files the GUI reads or writes (job.json import and export), off its thread.
    void readFile(int requestId, const QString &path, qint64 maxBytes);
    void writeFile(int requestId, const QString &path, const QByteArray &data);
    // Sweeps (core/sweeps): create answers requestFinished with the sweep's id; preview
    // answers sweepPreviewed with the trial count; stop asks the agent to end the trials.
    void createSweep(int requestId, const TrainDesk::SweepRequest &request);
    void previewSweep(int requestId, const TrainDesk::SweepRequest &request);
    void stopSweep(int requestId, qint64 sweepId);
    // File > Open TensorBoard folder...: the folder's runs made runs of an experiment of the
    // workspace (metrics/TensorBoardImport), then followed (read again every 2 s, new rows
    // to their watchers) while `follow`; requestFinished with the experiment's id, and
    // tensorBoardFolderRead with what was read and each problem named.
    // A folder on node `node` of `cluster` (both empty: this machine) is read there over SFTP;
    // with `share`, `folder` is a path in that share, read where the share is.
    void openTensorBoardFolder(int requestId, const QString &workspace, const QString &folder, bool follow,
                               const QString &cluster = {}, const QString &node = {}, const QString &share = {});
    void stopFollowingTensorBoardFolders();

Q_SIGNALS:
    void requestFinished(int requestId, qint64 id, const QString &error);  // id 0 on error
    void uploadProgress(int requestId, qint64 done, qint64 total, const QString &file);
    void uploadFinished(int requestId, int filesCopied, const QString &error);
    void fileRead(int requestId, const QByteArray &data, const QString &error);
    void fileWritten(int requestId, const QString &error);
    void sweepPreviewed(int requestId, int trials, const QStringList &warnings, const QString &error);
    void tensorBoardFolderRead(const QString &folder, const QString &summary, const QStringList &problems);

private:
    void finishRequest(int requestId, qint64 id, const QString &error);
    void followTensorBoardFolders();

    QString m_databasePath;
    JobMonitor &m_monitor;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<JobSubmission> m_submission;
    QHash<int, std::shared_ptr<CancelFlag>> m_uploads;
    QThreadPool m_pool;
    QList<TensorBoardImport::Target> m_followed;  // TensorBoard folders read again every 2 s
    // A followed folder that could not be read (a node gone): named once, tried again after a pause
    // so that an unreachable node does not hold this worker at every tick.
    QHash<QByteArray, int> m_followPause;
    QTimer *m_followTimer = nullptr;
};

} // namespace TrainDesk

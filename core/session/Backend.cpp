#include "Backend.h"

#include "JobMonitor.h"
#include "JobRequests.h"
#include "cluster/ImportedRunNodes.h"

namespace TrainDesk {

Backend::Backend(const QString &databasePath, int pollIntervalMs, QObject *parent) : QObject(parent)
{
    // Runs imported from a node's folder are read there (charts, exports) by the worker.
    ImportedRunNodes::install();
    m_thread.setObjectName(QStringLiteral("TrainDesk job monitor"));
    m_monitor = new JobMonitor(databasePath, pollIntervalMs);
    m_monitor->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_monitor, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_monitor, &JobMonitor::start);
    connect(m_monitor, &JobMonitor::snapshotChanged, this, [this](const ResourceSnapshot &snapshot) {
        m_snapshot = snapshot;
        Q_EMIT snapshotChanged();
    });
    connect(m_monitor, &JobMonitor::metricsArrived, this, &Backend::metricsArrived);
    connect(m_monitor, &JobMonitor::systemSamplesArrived, this, &Backend::systemSamplesArrived);
    connect(m_monitor, &JobMonitor::operationFailed, this, &Backend::operationFailed);
    connect(m_monitor, &JobMonitor::fileChunk, this, &Backend::fileChunk);
    connect(m_monitor, &JobMonitor::jobFilesListed, this, &Backend::jobFilesListed);
    connect(m_monitor, &JobMonitor::downloadProgress, this, &Backend::downloadProgress);
    connect(m_monitor, &JobMonitor::downloadFinished, this, &Backend::downloadFinished);
    // The requests live beside the poller, in the same thread (they publish its snapshot).
    m_requests = new JobRequests(databasePath, *m_monitor);
    m_requests->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_requests, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_requests, &JobRequests::start);
    connect(m_requests, &JobRequests::requestFinished, this, &Backend::requestFinished);
    connect(m_requests, &JobRequests::uploadProgress, this, &Backend::uploadProgress);
    connect(m_requests, &JobRequests::uploadFinished, this, &Backend::uploadFinished);
    connect(m_requests, &JobRequests::fileRead, this, &Backend::fileRead);
    connect(m_requests, &JobRequests::fileWritten, this, &Backend::fileWritten);
    connect(m_requests, &JobRequests::sweepPreviewed, this, &Backend::sweepPreviewed);
    connect(m_requests, &JobRequests::tensorBoardFolderRead, this, &Backend::tensorBoardFolderRead);
    connect(m_monitor, &JobMonitor::runSummariesRead, this, &Backend::runSummariesRead);
    m_thread.start();
}

Backend::~Backend()
{
    m_thread.quit();
    m_thread.wait();
}

void Backend::watchJob(qint64 jobId)
{
    // Every new watcher gets the whole series so far (a reset the others take as well).
    ++m_watchers[jobId];
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->watchJob(jobId); }, Qt::QueuedConnection);
}

void Backend::unwatchJob(qint64 jobId)
{
    const auto it = m_watchers.find(jobId);
    if (it == m_watchers.end() || --*it > 0)
        return;
    m_watchers.erase(it);
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->unwatchJob(jobId); }, Qt::QueuedConnection);
}

int Backend::deleteJob(qint64 jobId)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [r = m_requests, id, jobId] { r->deleteJob(id, jobId); }, Qt::QueuedConnection);
    return id;
}

int Backend::readRunSummaries(const QList<qint64> &jobIds)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, jobIds] { m->readRunSummaries(id, jobIds); },
                              Qt::QueuedConnection);
    return id;
}

void Backend::queueJob(qint64 jobId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->queueJob(jobId); }, Qt::QueuedConnection);
}

void Backend::terminateJob(qint64 jobId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->terminateJob(jobId); }, Qt::QueuedConnection);
}

void Backend::pollNow()
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor] {
        m->poll();
        m->refreshShareFolders();
    }, Qt::QueuedConnection);
}

void Backend::followFile(qint64 jobId, const QString &file, qint64 tailBytes)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId, file, tailBytes] { m->followFile(jobId, file, tailBytes); },
                              Qt::QueuedConnection);
}

void Backend::unfollowFile(qint64 jobId, const QString &file)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId, file] { m->unfollowFile(jobId, file); }, Qt::QueuedConnection);
}

void Backend::listJobFiles(qint64 jobId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->listJobFiles(jobId); }, Qt::QueuedConnection);
}

int Backend::downloadJobFile(qint64 jobId, const QString &remotePath, const QString &localPath)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, jobId, remotePath, localPath] {
        m->downloadJobFile(id, jobId, remotePath, localPath);
    }, Qt::QueuedConnection);
    return id;
}

void Backend::cancelDownload(int requestId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, requestId] { m->cancelDownload(requestId); }, Qt::QueuedConnection);
}

int Backend::submitJob(const SubmitRequest &request)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, request] { m->submitJob(id, request); }, Qt::QueuedConnection);
    return id;
}

int Backend::createSweep(const SweepRequest &request)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, request] { m->createSweep(id, request); }, Qt::QueuedConnection);
    return id;
}

int Backend::previewSweep(const SweepRequest &request)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, request] { m->previewSweep(id, request); }, Qt::QueuedConnection);
    return id;
}

int Backend::stopSweep(qint64 sweepId)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, sweepId] { m->stopSweep(id, sweepId); }, Qt::QueuedConnection);
    return id;
}

int Backend::createWorkspace(const QString &name)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, name] { m->createWorkspace(id, name); }, Qt::QueuedConnection);
    return id;
}

int Backend::createExperiment(const QString &workspace, const QString &name)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, workspace, name] { m->createExperiment(id, workspace, name); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::openTensorBoardFolder(const QString &workspace, const QString &folder, bool follow, const QString &cluster,
                                   const QString &node, const QString &share)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, workspace, folder, follow, cluster, node, share] {
        m->openTensorBoardFolder(id, workspace, folder, follow, cluster, node, share);
    }, Qt::QueuedConnection);
    return id;
}

void Backend::stopFollowingTensorBoardFolders()
{
    QMetaObject::invokeMethod(m_requests, [m = m_requests] { m->stopFollowingTensorBoardFolders(); }, Qt::QueuedConnection);
}

int Backend::createShare(const QString &workspace, const QString &name, const QString &folder)
{
    return createShare(CreateShareRequest{workspace, name, ShareKind::Local, folder, QString()});
}

int Backend::createShare(const CreateShareRequest &request)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, request] { m->createShare(id, request); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::uploadToShare(qint64 shareId, const QString &directory, const QStringList &files)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, shareId, directory, files] {
        m->uploadToShare(id, shareId, directory, files);
    }, Qt::QueuedConnection);
    return id;
}

void Backend::cancelUpload(int requestId)
{
    QMetaObject::invokeMethod(m_requests, [m = m_requests, requestId] { m->cancelUpload(requestId); }, Qt::QueuedConnection);
}

int Backend::readFile(const QString &path)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, path] { m->readFile(id, path, maxReadBytes); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::writeFile(const QString &path, const QByteArray &data)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_requests, [m = m_requests, id, path, data] { m->writeFile(id, path, data); },
                              Qt::QueuedConnection);
    return id;
}

} // namespace TrainDesk

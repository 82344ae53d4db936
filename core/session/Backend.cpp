#include "Backend.h"

#include "JobMonitor.h"

namespace TrainDesk {

Backend::Backend(const QString &databasePath, int pollIntervalMs, QObject *parent) : QObject(parent)
{
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
    connect(m_monitor, &JobMonitor::requestFinished, this, &Backend::requestFinished);
    connect(m_monitor, &JobMonitor::uploadProgress, this, &Backend::uploadProgress);
    connect(m_monitor, &JobMonitor::uploadFinished, this, &Backend::uploadFinished);
    connect(m_monitor, &JobMonitor::fileRead, this, &Backend::fileRead);
    connect(m_monitor, &JobMonitor::fileWritten, this, &Backend::fileWritten);
    m_thread.start();
}

Backend::~Backend()
{
    m_thread.quit();
    m_thread.wait();
}

void Backend::watchJob(qint64 jobId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->watchJob(jobId); }, Qt::QueuedConnection);
}

void Backend::unwatchJob(qint64 jobId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, jobId] { m->unwatchJob(jobId); }, Qt::QueuedConnection);
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
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, request] { m->submitJob(id, request); }, Qt::QueuedConnection);
    return id;
}

int Backend::createWorkspace(const QString &name)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, name] { m->createWorkspace(id, name); }, Qt::QueuedConnection);
    return id;
}

int Backend::createExperiment(const QString &workspace, const QString &name)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, workspace, name] { m->createExperiment(id, workspace, name); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::createShare(const QString &workspace, const QString &name, const QString &folder)
{
    return createShare(CreateShareRequest{workspace, name, ShareKind::Local, folder, QString()});
}

int Backend::createShare(const CreateShareRequest &request)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, request] { m->createShare(id, request); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::uploadToShare(qint64 shareId, const QString &directory, const QStringList &files)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, shareId, directory, files] {
        m->uploadToShare(id, shareId, directory, files);
    }, Qt::QueuedConnection);
    return id;
}

void Backend::cancelUpload(int requestId)
{
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, requestId] { m->cancelUpload(requestId); }, Qt::QueuedConnection);
}

int Backend::readFile(const QString &path)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, path] { m->readFile(id, path, maxReadBytes); },
                              Qt::QueuedConnection);
    return id;
}

int Backend::writeFile(const QString &path, const QByteArray &data)
{
    const int id = m_nextRequestId++;
    QMetaObject::invokeMethod(m_monitor, [m = m_monitor, id, path, data] { m->writeFile(id, path, data); },
                              Qt::QueuedConnection);
    return id;
}

} // namespace TrainDesk

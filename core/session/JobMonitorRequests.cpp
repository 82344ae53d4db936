// JobMonitor's requests from the GUI that create things or move files: each runs in the
// worker thread (copies in its pool) and answers with a signal that carries its request id.
#include "JobMonitor.h"

#include "ShareUpload.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace TrainDesk {

void JobMonitor::finishRequest(int requestId, qint64 id, const QString &error)
{
    // The snapshot first: whoever waits for the answer finds the new row in it.
    if (m_store)
        publishSnapshot(false);
    Q_EMIT requestFinished(requestId, error.isEmpty() ? id : 0, error);
}

void JobMonitor::submitJob(int requestId, const SubmitRequest &request)
{
    if (!m_runner) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto job = m_runner->submit(request);
    finishRequest(requestId, job ? job->id : 0, job.error());
}

void JobMonitor::createWorkspace(int requestId, const QString &name)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto ws = m_store->createWorkspace(name);
    finishRequest(requestId, ws ? ws->id : 0, ws.error());
}

void JobMonitor::createExperiment(int requestId, const QString &workspace, const QString &name)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto ws = m_store->workspace(workspace);
    if (!ws) {
        finishRequest(requestId, 0, ws.error());
        return;
    }
    const auto exp = m_store->createExperiment(ws->id, name);
    finishRequest(requestId, exp ? exp->id : 0, exp.error());
}

void JobMonitor::createShare(int requestId, const QString &workspace, const QString &name, const QString &folder)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    const auto ws = m_store->workspace(workspace);
    if (!ws) {
        finishRequest(requestId, 0, ws.error());
        return;
    }
    const QString path = QDir::cleanPath(folder.trimmed());
    const QFileInfo info(path);
    QString error;
    if (folder.trimmed().isEmpty())
        error = QStringLiteral("share '%1' needs a folder").arg(name);
    else if (!info.isAbsolute())
        error = QStringLiteral("folder '%1' of share '%2' must be an absolute path").arg(folder, name);
    else if (info.exists() && !info.isDir())
        error = QStringLiteral("%1 exists and is not a folder").arg(path);
    if (!error.isEmpty()) {
        finishRequest(requestId, 0, error);
        return;
    }
    // The name is checked before the folder is made, so a refused share leaves nothing behind.
    if (m_store->share(ws->id, name)) {
        finishRequest(requestId, 0, QStringLiteral("share '%1' already exists").arg(name));
        return;
    }
    const bool existed = info.exists();
    if (!QDir().mkpath(path)) {
        finishRequest(requestId, 0, QStringLiteral("cannot create folder %1").arg(path));
        return;
    }
    Share share;
    share.workspaceId = ws->id;
    share.name = name;
    share.kind = ShareKind::Local;
    share.path = path;
    const auto created = m_store->createShare(share);
    if (!created && !existed)
        QDir().rmdir(path);
    finishRequest(requestId, created ? created->id : 0, created.error());
}

void JobMonitor::uploadToShare(int requestId, qint64 shareId, const QString &directory, const QStringList &files)
{
    if (!m_store) {
        Q_EMIT uploadFinished(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    std::optional<Share> share;
    for (const Workspace &ws : m_store->workspaces()) {
        for (const Share &s : m_store->shares(ws.id)) {
            if (s.id == shareId)
                share = s;
        }
    }
    if (!share) {
        Q_EMIT uploadFinished(requestId, 0, QStringLiteral("the share no longer exists"));
        return;
    }
    if (const auto folder = ShareUpload::folderPath(*share, directory); !folder) {
        Q_EMIT uploadFinished(requestId, 0, folder.error());
        return;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_uploads.insert(requestId, cancel);
    (void)QtConcurrent::run(&m_pool, [this, requestId, share = *share, directory, files, cancel] {
        const auto copied = ShareUpload::copy(share, directory, files, *cancel,
                                              [this, requestId](qint64 done, qint64 total, const QString &file) {
                                                  Q_EMIT uploadProgress(requestId, done, total, file);
                                              });
        // Back in the worker thread: the snapshot with the new folders goes out first.
        QMetaObject::invokeMethod(this, [this, requestId, copied] {
            m_uploads.remove(requestId);
            publishSnapshot(false);
            Q_EMIT uploadFinished(requestId, copied.copied, copied.error);
        }, Qt::QueuedConnection);
    });
}

void JobMonitor::cancelUpload(int requestId)
{
    if (const auto cancel = m_uploads.value(requestId))
        cancel->store(true);
}

void JobMonitor::readFile(int requestId, const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT fileRead(requestId, {}, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        return;
    }
    if (file.size() > maxBytes) {
        Q_EMIT fileRead(requestId, {}, QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(maxBytes));
        return;
    }
    Q_EMIT fileRead(requestId, file.readAll(), {});
}

void JobMonitor::writeFile(int requestId, const QString &path, const QByteArray &data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        Q_EMIT fileWritten(requestId, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    Q_EMIT fileWritten(requestId, {});
}

} // namespace TrainDesk

// JobMonitor's requests from the GUI that create things or move files: each runs in the
// worker thread (copies in its pool) and answers with a signal that carries its request id.
#include "JobMonitor.h"

#include "shares/ShareUpload.h"
#include "shares/ShareService.h"
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
    if (job && job->state == JobState::Queued)
        keepAgentWatching(true);
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

namespace {

// A Store belongs to the thread that opened it: pool tasks open their own connection.
template<typename Work>
auto withPoolStore(const QString &databasePath, Work work) -> decltype(work(std::declval<Store &>()))
{
    Store store;
    if (auto opened = store.open(databasePath); !opened)
        return opened.failure();
    return work(store);
}

} // namespace

void JobMonitor::createShare(int requestId, const CreateShareRequest &request)
{
    if (!m_store) {
        finishRequest(requestId, 0, QStringLiteral("the database is not open"));
        return;
    }
    if (request.kind == ShareKind::Local) {
        // Only this machine's disk: quick enough for the worker thread, and answers in order.
        const auto created = ShareService(*m_store).create(request);
        finishRequest(requestId, created ? created->id : 0, created.error());
        return;
    }
    (void)QtConcurrent::run(&m_pool, [this, requestId, request, path = m_databasePath] {
        QStringList folders;
        const auto created = withPoolStore(path, [&request, &folders](Store &store) -> Result<Share> {
            ShareService service(store);
            const auto share = service.create(request);
            if (share) {
                if (const auto listed = service.folders(*share))
                    folders = *listed;
            }
            return share;
        });
        QMetaObject::invokeMethod(this, [this, requestId, created, folders] {
            if (created)
                m_remoteFolders.insert(created->id, folders);
            finishRequest(requestId, created ? created->id : 0, created.error());
        }, Qt::QueuedConnection);
    });
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
    auto cancel = std::make_shared<CancelFlag>();
    m_uploads.insert(requestId, cancel);
    (void)QtConcurrent::run(&m_pool, [this, requestId, share = *share, directory, files, cancel, path = m_databasePath] {
        ShareUpload::Outcome outcome;
        QStringList folders;
        const auto progress = [this, requestId](qint64 done, qint64 total, const QString &file) {
            Q_EMIT uploadProgress(requestId, done, total, file);
        };
        const auto ran = withPoolStore(path, [&](Store &store) -> VoidResult {
            ShareService service(store);
            outcome = service.upload(share, directory, files, cancel.get(), progress);
            if (share.kind != ShareKind::Local) {
                if (const auto listed = service.folders(share))
                    folders = *listed;
            }
            return {};
        });
        if (!ran)
            outcome.error = ran.error();
        // Back in the worker thread: the snapshot with the new folders goes out first.
        QMetaObject::invokeMethod(this, [this, requestId, outcome, folders, share] {
            m_uploads.remove(requestId);
            if (share.kind != ShareKind::Local)
                m_remoteFolders.insert(share.id, folders);
            publishSnapshot(false);
            Q_EMIT uploadFinished(requestId, outcome.copied, outcome.error);
        }, Qt::QueuedConnection);
    });
}

void JobMonitor::cancelUpload(int requestId)
{
    if (const auto cancel = m_uploads.value(requestId))
        cancel->cancel();
}

void JobMonitor::refreshShareFolders()
{
    if (!m_store || m_listingFolders)
        return;
    QList<Share> remote;
    for (const Workspace &ws : m_store->workspaces()) {
        for (const Share &s : m_store->shares(ws.id)) {
            if (s.kind != ShareKind::Local)
                remote.append(s);
        }
    }
    if (remote.isEmpty())
        return;
    m_listingFolders = true;
    (void)QtConcurrent::run(&m_pool, [this, remote, path = m_databasePath] {
        QHash<qint64, QStringList> listed;
        withPoolStore(path, [&remote, &listed](Store &store) -> VoidResult {
            ShareService service(store);
            // A node that does not answer keeps the folders listed before.
            for (const Share &s : remote) {
                if (const auto folders = service.folders(s))
                    listed.insert(s.id, *folders);
            }
            return {};
        });
        QMetaObject::invokeMethod(this, [this, listed] {
            m_listingFolders = false;
            m_remoteFolders.insert(listed);
            publishSnapshot(false);
        }, Qt::QueuedConnection);
    });
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

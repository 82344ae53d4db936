#include "ShareWorker.h"

#include "shares/ShareService.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QtConcurrent>

namespace TrainDesk {

ShareWorker::ShareWorker(const QString &databasePath, QObject *parent)
    : QObject(parent), m_databasePath(databasePath)
{
    // A listing may wait for a slow node while a download runs: two at a time.
    m_pool.setMaxThreadCount(2);
}

ShareWorker::~ShareWorker()
{
    for (const auto &cancel : std::as_const(m_cancels))
        cancel->cancel();
    m_pool.waitForDone();
}

// Runs `work(service, id)` in the pool with a Store of its own; it returns the error text.
template<typename Work>
int ShareWorker::run(Work work)
{
    const int id = m_nextId++;
    ++m_running;
    (void)QtConcurrent::run(&m_pool, [this, id, work, path = m_databasePath] {
        QString error;
        Store store;
        if (const auto opened = store.open(path); !opened) {
            error = opened.error();
        } else {
            ShareService service(store);
            error = work(service, id);
        }
        QMetaObject::invokeMethod(this, [this, id, error] {
            --m_running;
            m_cancels.remove(id);
            Q_EMIT finished(id, error);
        }, Qt::QueuedConnection);
    });
    return id;
}

int ShareWorker::list(const Share &share, const QString &folder)
{
    const int id = m_nextId++;
    ++m_running;
    (void)QtConcurrent::run(&m_pool, [this, id, share, folder, path = m_databasePath] {
        QList<RemoteFileInfo> entries;
        QString error;
        Store store;
        if (const auto opened = store.open(path); !opened) {
            error = opened.error();
        } else if (const auto listed = ShareService(store).listFiles(share, folder); !listed) {
            error = listed.error();
        } else {
            entries = *listed;
        }
        QMetaObject::invokeMethod(this, [this, id, entries, error] {
            --m_running;
            Q_EMIT listed(id, entries, error);
        }, Qt::QueuedConnection);
    });
    return id;
}

int ShareWorker::makeFolder(const Share &share, const QString &folder)
{
    return run([share, folder](ShareService &service, int) {
        const auto made = service.createDirectory(share, folder);
        return made ? QString() : made.error();
    });
}

int ShareWorker::deletePath(const Share &share, const QString &path)
{
    return run([share, path](ShareService &service, int) {
        const auto deleted = service.deletePath(share, path);
        return deleted ? QString() : deleted.error();
    });
}

int ShareWorker::download(const Share &share, const QString &file, const QString &target)
{
    auto cancel = std::make_shared<CancelFlag>();
    const int id = run([this, share, file, target, cancel](ShareService &service, int requestId) {
        TransferOptions options;
        options.cancel = cancel.get();
        auto sinceProgress = std::make_shared<QElapsedTimer>();
        sinceProgress->start();
        // A few updates a second are enough to see it move; the last one always goes out.
        options.progress = [this, requestId, sinceProgress](qint64 done, qint64 total) {
            if (done != total && sinceProgress->elapsed() < 100)
                return;
            sinceProgress->restart();
            QMetaObject::invokeMethod(this, [this, requestId, done, total] { Q_EMIT downloadProgress(requestId, done, total); },
                                      Qt::QueuedConnection);
        };
        const auto got = service.downloadAs(share, file, target, options);
        return got ? QString() : got.error();
    });
    m_cancels.insert(id, cancel);
    return id;
}

void ShareWorker::cancel(int requestId)
{
    if (const auto flag = m_cancels.value(requestId))
        flag->cancel();
}

} // namespace TrainDesk

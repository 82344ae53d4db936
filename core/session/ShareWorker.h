#pragma once

#include "store/Entities.h"
#include "transport/TransferOptions.h"
#include "transport/Transport.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>

#include <memory>

namespace TrainDesk {

// The share browser's work, off the GUI thread: list a folder of a share, make a folder,
// delete a file or folder, and copy files to this machine (core/shares/ShareService, the
// same code as `traindesk share file ...`). Each task runs in this object's pool with a
// Store connection of its own; answers come back as signals in this object's thread.
// Uploads go through Backend::uploadToShare, which also updates the tree's folders.
class ShareWorker : public QObject
{
    Q_OBJECT

public:
    explicit ShareWorker(const QString &databasePath, QObject *parent = nullptr);
    // Cancels what runs and waits for it: no signal comes after.
    ~ShareWorker() override;

    // Each returns a request id that its signal carries.
    int list(const Share &share, const QString &folder);                 // listed
    int makeFolder(const Share &share, const QString &folder);           // finished
    int deletePath(const Share &share, const QString &path);             // finished
    // Copies `file` of the share to the local file `target`: downloadProgress, then finished.
    int download(const Share &share, const QString &file, const QString &target);
    void cancel(int requestId);
    bool busy() const { return m_running > 0; }

Q_SIGNALS:
    void listed(int requestId, const QList<TrainDesk::RemoteFileInfo> &entries, const QString &error);
    void downloadProgress(int requestId, qint64 done, qint64 total);
    void finished(int requestId, const QString &error);  // empty error: done

private:
    template<typename Work>
    int run(Work work);

    QString m_databasePath;
    int m_nextId = 1;
    int m_running = 0;
    QHash<int, std::shared_ptr<CancelFlag>> m_cancels;
    QThreadPool m_pool;
};

} // namespace TrainDesk

#include "EventFiles.h"

#include "store/Store.h"
#include "transport/Transport.h"

#include <QReadWriteLock>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TrainDesk {

namespace {

QString localErrorText(int error) { return QString::fromLocal8Bit(std::strerror(error)); }

class LocalEventFiles final : public EventFiles
{
public:
    QString place() const override { return {}; }
    bool parallel() const override { return true; }

    Result<std::optional<QList<Entry>>> list(const QByteArray &folder) override
    {
        DIR *d = ::opendir(folder.constData());
        if (!d) {
            const int error = errno;
            if (error == ENOENT || error == ENOTDIR)
                return std::optional<QList<Entry>>();
            return fail(localErrorText(error));
        }
        QList<Entry> entries;
        while (const dirent *entry = ::readdir(d)) {
            const QByteArray name(entry->d_name);
            if (name == "." || name == "..")
                continue;
            unsigned char type = entry->d_type;
            if (type == DT_UNKNOWN) {
                struct stat st {};
                if (::lstat((folder + '/' + name).constData(), &st) != 0)
                    continue;  // gone meanwhile
                type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
            }
            entries.append({name, type == DT_DIR ? Entry::Folder : type == DT_REG ? Entry::File : Entry::Other});
        }
        ::closedir(d);
        return std::optional<QList<Entry>>(entries);
    }

    Result<std::optional<FileState>> stat(const QByteArray &path) override
    {
        struct stat st {};
        if (::lstat(path.constData(), &st) != 0) {
            const int error = errno;
            if (error == ENOENT || error == ENOTDIR)
                return std::optional<FileState>();
            return fail(localErrorText(error));
        }
        if (!S_ISREG(st.st_mode))
            return fail(QStringLiteral("not a file"));
        return std::optional<FileState>(FileState{qint64(st.st_size), QDateTime::fromSecsSinceEpoch(st.st_mtim.tv_sec, Qt::UTC)});
    }

    Result<QByteArray> readAt(const QByteArray &path, qint64 offset, qint64 maxBytes) override
    {
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            return fail(errno == ENOENT ? QStringLiteral("gone") : localErrorText(errno));
        QByteArray buffer(maxBytes, Qt::Uninitialized);
        qint64 have = 0;
        while (have < maxBytes) {
            const ssize_t got = ::pread(fd, buffer.data() + have, size_t(maxBytes - have), offset + have);
            if (got < 0) {
                const int error = errno;
                ::close(fd);
                return fail(localErrorText(error));
            }
            if (got == 0)
                break;
            have += got;
        }
        ::close(fd);
        buffer.resize(have);
        return buffer;
    }
};

// SftpClient names a missing path this way (SSH_FX_NO_SUCH_FILE); every other failure is
// the node's or the connection's, and is said as it comes.
bool saysGone(const QString &error) { return error.endsWith(QLatin1String(" does not exist")); }

class NodeEventFiles final : public EventFiles
{
public:
    NodeEventFiles(std::shared_ptr<Transport> transport, QString place)
        : m_transport(std::move(transport)), m_place(std::move(place))
    {
    }
    QString place() const override { return m_place; }
    bool parallel() const override { return false; }

    Result<std::optional<QList<Entry>>> list(const QByteArray &folder) override
    {
        const auto listed = m_transport->list(QString::fromUtf8(folder));
        if (!listed)
            return saysGone(listed.error()) ? Result<std::optional<QList<Entry>>>(std::optional<QList<Entry>>())
                                            : Result<std::optional<QList<Entry>>>(listed.failure());
        QList<Entry> entries;
        for (const RemoteFileInfo &info : *listed) {
            // readdir's attributes are the entry's own (lstat): a link is listed as one.
            const Entry::Kind kind = info.isLink ? Entry::Other : info.isDirectory ? Entry::Folder : Entry::File;
            entries.append({info.name.toUtf8(), kind});
        }
        return std::optional<QList<Entry>>(entries);
    }

    Result<std::optional<FileState>> stat(const QByteArray &path) override
    {
        const auto info = m_transport->stat(QString::fromUtf8(path));
        if (!info)
            return saysGone(info.error()) ? Result<std::optional<FileState>>(std::optional<FileState>())
                                          : Result<std::optional<FileState>>(info.failure());
        if (info->isDirectory)
            return fail(QStringLiteral("not a file"));
        return std::optional<FileState>(FileState{info->size, info->modified});
    }

    Result<QByteArray> readAt(const QByteArray &path, qint64 offset, qint64 maxBytes) override
    {
        // An SFTP read at the offset: only the bytes asked for cross the link.
        return m_transport->readAt(QString::fromUtf8(path), offset, maxBytes);
    }

private:
    std::shared_ptr<Transport> m_transport;
    QString m_place;
};

QReadWriteLock openerLock;
NodeEventFilesOpener &opener()
{
    static NodeEventFilesOpener installed;
    return installed;
}

} // namespace

std::shared_ptr<EventFiles> localEventFiles()
{
    static const auto local = std::make_shared<LocalEventFiles>();
    return local;
}

std::shared_ptr<EventFiles> nodeEventFiles(std::shared_ptr<Transport> transport, const QString &place)
{
    return std::make_shared<NodeEventFiles>(std::move(transport), place);
}

void setNodeEventFilesOpener(NodeEventFilesOpener newOpener)
{
    QWriteLocker lock(&openerLock);
    opener() = std::move(newOpener);
}

Result<std::shared_ptr<EventFiles>> eventFilesOfRun(const Store &store, qint64 jobId)
{
    const auto job = store.jobById(jobId);
    if (!job)
        return job.failure();
    if (job->nodes.isEmpty())
        return localEventFiles();
    QReadLocker lock(&openerLock);
    if (!opener())
        return fail(QStringLiteral("run '%1' was imported from node %2: this program cannot reach nodes")
                        .arg(job->name, job->nodes.first()));
    return opener()(store, jobId);
}

} // namespace TrainDesk

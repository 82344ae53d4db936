#include "SftpClient.h"

#include "common/ProcessToken.h"

#include "SftpWire.h"
#include "SshConnection.h"
#include "common/ShellQuote.h"

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <functional>
#include <memory>

namespace TrainDesk {

namespace {

struct AttributesDeleter
{
    void operator()(sftp_attributes a) const { sftp_attributes_free(a); }
};
using AttributesPtr = std::unique_ptr<sftp_attributes_struct, AttributesDeleter>;

struct FileCloser
{
    void operator()(sftp_file f) const { sftp_close(f); }
};
using FilePtr = std::unique_ptr<sftp_file_struct, FileCloser>;

constexpr qint64 readChunk = 128 * 1024;
constexpr int readsInFlight = 16;
constexpr qint64 resumeCheckBytes = 64 * 1024;

QString sftpErrorText(sftp_session sftp)
{
    switch (sftp_get_error(sftp)) {
    case SSH_FX_NO_SUCH_FILE: return QStringLiteral("no such file or directory");
    case SSH_FX_PERMISSION_DENIED: return QStringLiteral("permission denied");
    case SSH_FX_FILE_ALREADY_EXISTS: return QStringLiteral("already exists");
    case SSH_FX_NO_SUCH_PATH: return QStringLiteral("no such path");
    case SSH_FX_WRITE_PROTECT: return QStringLiteral("read-only file system");
    case SSH_FX_OP_UNSUPPORTED: return QStringLiteral("not supported by the server");
    case SSH_FX_FAILURE: return QStringLiteral("failed (disk full, not empty, or not allowed)");
    default: break;
    }
    const char *text = ssh_get_error(sftp->session);
    return text && *text ? QString::fromUtf8(text) : QStringLiteral("SFTP error %1").arg(sftp_get_error(sftp));
}

RemoteFileInfo infoFrom(sftp_attributes a, const QString &name)
{
    RemoteFileInfo info;
    info.name = name;
    info.isDirectory = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
    info.isLink = a->type == SSH_FILEXFER_TYPE_SYMLINK;  // listings lstat: a link is a link
    info.size = info.isDirectory || info.isLink ? 0 : qint64(a->size);
    info.modified = QDateTime::fromSecsSinceEpoch(qint64(a->mtime64 ? a->mtime64 : a->mtime), Qt::UTC);
    return info;
}

QString parentOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return QStringLiteral(".");
    return slash == 0 ? QStringLiteral("/") : path.left(slash);
}

QString baseName(const QString &path) { return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1); }

} // namespace

unsigned int toPosixMode(QFileDevice::Permissions p)
{
    unsigned int mode = 0;
    if (p & QFileDevice::ReadOwner) mode |= 0400;
    if (p & QFileDevice::WriteOwner) mode |= 0200;
    if (p & QFileDevice::ExeOwner) mode |= 0100;
    if (p & QFileDevice::ReadGroup) mode |= 0040;
    if (p & QFileDevice::WriteGroup) mode |= 0020;
    if (p & QFileDevice::ExeGroup) mode |= 0010;
    if (p & QFileDevice::ReadOther) mode |= 0004;
    if (p & QFileDevice::WriteOther) mode |= 0002;
    if (p & QFileDevice::ExeOther) mode |= 0001;
    return mode;
}

QFileDevice::Permissions fromPosixMode(unsigned int mode)
{
    QFileDevice::Permissions p;
    if (mode & 0400) p |= QFileDevice::ReadOwner | QFileDevice::ReadUser;
    if (mode & 0200) p |= QFileDevice::WriteOwner | QFileDevice::WriteUser;
    if (mode & 0100) p |= QFileDevice::ExeOwner | QFileDevice::ExeUser;
    if (mode & 0040) p |= QFileDevice::ReadGroup;
    if (mode & 0020) p |= QFileDevice::WriteGroup;
    if (mode & 0010) p |= QFileDevice::ExeGroup;
    if (mode & 0004) p |= QFileDevice::ReadOther;
    if (mode & 0002) p |= QFileDevice::WriteOther;
    if (mode & 0001) p |= QFileDevice::ExeOther;
    return p;
}

SftpClient::SftpClient(SshConnection &connection)
    : m_connection(connection), m_timeoutMs(qMax(30000, connection.parameters().connectTimeoutMs * 3))
{
}

QString SftpClient::remotePartPath(const QString &remotePath)
{
    const QString parent = parentOf(remotePath);
    const QString prefix = parent == QLatin1String("/") ? QStringLiteral("/") : parent + QLatin1Char('/');
    // This process's own part file: concurrent uploads of one name never write into one
    // file, and a retry in this process resumes its own.
    return prefix + QLatin1Char('.') + baseName(remotePath) + QLatin1Char('.') + processToken()
        + QStringLiteral(".traindesk-part");
}

QString SftpClient::localPartPath(const QString &localPath)
{
    const QFileInfo info(localPath);
    return info.absolutePath() + QStringLiteral("/.%1.%2.traindesk-part").arg(info.fileName(), processToken());
}

Result<sftp_session_struct *> SftpClient::session()
{
    auto sftp = m_connection.sftp();
    // Each operation starts with no status, so SshConnection::noteSftpFailure can tell a
    // failure the server answered from one it never did.
    if (sftp)
        (*sftp)->errnum = SSH_FX_OK;
    return sftp;
}

QString SftpClient::failure(const QString &what, const QString &path) const
{
    auto sftp = const_cast<SshConnection &>(m_connection).sftp();
    const QString why = sftp ? sftpErrorText(*sftp) : sftp.error();
    return QStringLiteral("%1: cannot %2 %3: %4").arg(m_connection.describe(), what, path, why);
}

Result<RemoteFileInfo> SftpClient::stat(const QString &path)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    AttributesPtr attributes(sftp_stat(*sftp, path.toUtf8().constData()));
    if (!attributes) {
        if (sftp_get_error(*sftp) == SSH_FX_NO_SUCH_FILE)
            return fail(QStringLiteral("%1: %2 does not exist").arg(m_connection.describe(), path));
        return fail(failure(QStringLiteral("stat"), path));
    }
    return infoFrom(attributes.get(), baseName(path));
}

Result<QList<RemoteFileInfo>> SftpClient::list(const QString &directory)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    sftp_dir dir = sftp_opendir(*sftp, directory.toUtf8().constData());
    if (!dir) {
        if (sftp_get_error(*sftp) == SSH_FX_NO_SUCH_FILE)
            return fail(QStringLiteral("%1: directory %2 does not exist").arg(m_connection.describe(), directory));
        return fail(failure(QStringLiteral("list"), directory));
    }
    QList<RemoteFileInfo> entries;
    while (AttributesPtr a{sftp_readdir(*sftp, dir)}) {
        const QString name = QString::fromUtf8(a->name);
        if (name == QLatin1String(".") || name == QLatin1String(".."))
            continue;
        entries.append(infoFrom(a.get(), name));
        if (entries.last().isLink) {
            const QByteArray path = (directory + QLatin1Char('/') + name).toUtf8();
            if (char *target = sftp_readlink(*sftp, path.constData())) {
                entries.last().linkTarget = QString::fromUtf8(target);
                ssh_string_free_char(target);
            }
        }
    }
    const bool complete = sftp_dir_eof(dir);
    sftp_closedir(dir);
    if (!complete)
        return fail(failure(QStringLiteral("list"), directory));
    std::sort(entries.begin(), entries.end(),
              [](const RemoteFileInfo &a, const RemoteFileInfo &b) { return a.name < b.name; });
    return entries;
}

VoidResult SftpClient::makeDirectories(const QString &path)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString current = path.startsWith(QLatin1Char('/')) ? QStringLiteral("/") : QString();
    for (const QString &part : parts) {
        current += (current.isEmpty() || current.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/")) + part;
        const QByteArray encoded = current.toUtf8();
        AttributesPtr existing(sftp_stat(*sftp, encoded.constData()));
        if (existing) {
            if (existing->type != SSH_FILEXFER_TYPE_DIRECTORY)
                return fail(QStringLiteral("%1: cannot create directory %2: %3 is a file")
                                .arg(m_connection.describe(), path, current));
            continue;
        }
        if (sftp_mkdir(*sftp, encoded.constData(), 0755) != SSH_OK) {
            // Another writer may have made it in between.
            AttributesPtr again(sftp_stat(*sftp, encoded.constData()));
            if (!again || again->type != SSH_FILEXFER_TYPE_DIRECTORY)
                return fail(failure(QStringLiteral("create directory"), current));
        }
    }
    return {};
}

VoidResult SftpClient::removeTree(const QString &path)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    const auto entries = list(path);
    if (!entries)
        return entries.failure();
    for (const RemoteFileInfo &e : *entries) {
        const QString child = path + QLatin1Char('/') + e.name;
        AttributesPtr a(sftp_lstat(*sftp, child.toUtf8().constData()));
        // Symbolic links are removed, never followed.
        if (a && a->type == SSH_FILEXFER_TYPE_DIRECTORY) {
            if (auto removed = removeTree(child); !removed)
                return removed;
        } else if (sftp_unlink(*sftp, child.toUtf8().constData()) != SSH_OK) {
            return fail(failure(QStringLiteral("remove"), child));
        }
    }
    if (sftp_rmdir(*sftp, path.toUtf8().constData()) != SSH_OK)
        return fail(failure(QStringLiteral("remove directory"), path));
    return {};
}

VoidResult SftpClient::remove(const QString &path, bool recursive)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    AttributesPtr a(sftp_lstat(*sftp, path.toUtf8().constData()));
    if (!a)
        return fail(QStringLiteral("%1: cannot remove %2: it does not exist").arg(m_connection.describe(), path));
    if (a->type != SSH_FILEXFER_TYPE_DIRECTORY) {
        if (sftp_unlink(*sftp, path.toUtf8().constData()) != SSH_OK)
            return fail(failure(QStringLiteral("remove"), path));
        return {};
    }
    if (recursive)
        return removeTree(path);
    if (sftp_rmdir(*sftp, path.toUtf8().constData()) != SSH_OK)
        return fail(failure(QStringLiteral("remove directory"), path));
    return {};
}

Result<QByteArray> SftpClient::readAt(const QString &path, qint64 offset, qint64 maxBytes)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    FilePtr file(sftp_open(*sftp, path.toUtf8().constData(), O_RDONLY, 0));
    if (!file) {
        if (sftp_get_error(*sftp) == SSH_FX_NO_SUCH_FILE)
            return fail(QStringLiteral("%1: cannot read %2: it does not exist").arg(m_connection.describe(), path));
        return fail(failure(QStringLiteral("read"), path));
    }
    if (sftp_seek64(file.get(), quint64(offset)) != 0)
        return fail(failure(QStringLiteral("seek in"), path));
    QByteArray data;
    while (data.size() < maxBytes) {
        const qint64 want = qMin(readChunk, maxBytes - data.size());
        const qsizetype at = data.size();
        data.resize(at + want);
        const ssize_t n = sftp_read(file.get(), data.data() + at, size_t(want));
        if (n < 0)
            return fail(failure(QStringLiteral("read"), path));
        data.resize(at + n);
        if (n == 0)
            break;
    }
    return data;
}

VoidResult SftpClient::rename(const QString &from, const QString &to)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    bool unsupported = false;
    const auto renamed = SftpWire::posixRename(*sftp, from, to, m_timeoutMs, &unsupported);
    if (renamed)
        return {};
    if (!unsupported) {
        return fail(QStringLiteral("%1: cannot rename %2 to %3: %4")
                        .arg(m_connection.describe(), from, to, renamed.error()));
    }
    // Servers without the extension: rename through the shell, which replaces.
    const auto moved = m_connection.exec(QStringLiteral("mv -f -- %1 %2").arg(shellQuote(from), shellQuote(to)), {},
                                         nullptr, m_timeoutMs);
    if (!moved)
        return moved.failure();
    if (*moved != 0)
        return fail(QStringLiteral("%1: cannot rename %2 to %3 (mv exited with %4)")
                        .arg(m_connection.describe(), from, to).arg(*moved));
    return {};
}

VoidResult SftpClient::chmod(const QString &path, QFileDevice::Permissions permissions)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    if (sftp_chmod(*sftp, path.toUtf8().constData(), toPosixMode(permissions)) != SSH_OK)
        return fail(failure(QStringLiteral("set permissions of"), path));
    return {};
}

VoidResult SftpClient::writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    const QString part = remotePartPath(path);
    FilePtr file(sftp_open(*sftp, part.toUtf8().constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600));
    if (!file)
        return fail(failure(QStringLiteral("write"), part));
    const auto written = SftpWire::write(
        *sftp, file.get(), 0, data.size(),
        [&](qint64 offset, char *buffer, qint64 size) {
            memcpy(buffer, data.constData() + offset, size_t(size));
            return size;
        },
        {}, nullptr, m_timeoutMs);
    if (written.broken)
        m_connection.markBroken();
    if (!written.error.isEmpty())
        return fail(QStringLiteral("%1: cannot write %2: %3").arg(m_connection.describe(), path, written.error));
    if (sftp_close(file.release()) != SSH_OK)
        return fail(failure(QStringLiteral("write"), part));
    if (auto ok = chmod(part, permissions); !ok)
        return ok;
    return rename(part, path);
}

VoidResult SftpClient::upload(const QString &localPath, const QString &remotePath, const TransferOptions &options)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    const QString where = m_connection.describe();
    QFile local(localPath);
    if (!local.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot upload %1 to %2: %3").arg(localPath, where, local.errorString()));
    const qint64 total = local.size();
    const QString part = remotePartPath(remotePath);

    // Continue a partial copy only when its tail still matches the source.
    qint64 start = 0;
    if (options.resume) {
        AttributesPtr existing(sftp_stat(*sftp, part.toUtf8().constData()));
        if (existing && existing->type == SSH_FILEXFER_TYPE_REGULAR && qint64(existing->size) <= total
            && existing->size > 0) {
            const qint64 size = qint64(existing->size);
            const qint64 check = qMin(resumeCheckBytes, size);
            const auto remoteTail = readAt(part, size - check, check);
            local.seek(size - check);
            if (remoteTail && *remoteTail == local.read(check))
                start = size;
        }
    }
    FilePtr file(sftp_open(*sftp, part.toUtf8().constData(), O_WRONLY | O_CREAT | (start == 0 ? O_TRUNC : 0), 0600));
    if (!file)
        return fail(failure(QStringLiteral("write"), part));
    if (options.progress)
        options.progress(start, total);
    const int fd = local.handle();
    const auto written = SftpWire::write(
        *sftp, file.get(), start, total,
        [fd](qint64 offset, char *buffer, qint64 size) -> qint64 {
            qint64 got = 0;
            while (got < size) {
                const ssize_t n = pread(fd, buffer + got, size_t(size - got), off_t(offset + got));
                if (n <= 0)
                    return -1;
                got += n;
            }
            return got;
        },
        options.progress, options.cancel, m_timeoutMs);
    if (written.broken) {
        m_connection.markBroken();
        file.release();  // the handle cannot be closed on a broken channel
    }
    if (written.cancelled || !written.error.isEmpty()) {
        // Keep only the gap-free prefix, so that the next attempt resumes after it.
        if (!written.broken) {
            file.reset();
            sftp_attributes_struct truncate{};
            truncate.flags = SSH_FILEXFER_ATTR_SIZE;
            truncate.size = quint64(start + written.written);
            sftp_setstat(*sftp, part.toUtf8().constData(), &truncate);
        }
        if (written.cancelled)
            return fail(QStringLiteral("%1: upload of %2 cancelled after %3 of %4 bytes; it resumes from there")
                            .arg(where, remotePath).arg(start + written.written).arg(total));
        return fail(QStringLiteral("%1: cannot upload %2 to %3: %4").arg(where, localPath, remotePath, written.error));
    }
    if (sftp_close(file.release()) != SSH_OK)
        return fail(failure(QStringLiteral("write"), part));
    if (auto ok = chmod(part, local.permissions()); !ok)
        return ok;
    return rename(part, remotePath);
}

namespace {

// Reads [start, total) of an open remote file into the local file `fd` at the same offsets,
// with up to readsInFlight requests outstanding (libssh's async reads); each short reply
// asks for the rest. `complete`: the bytes from 0 on disk without a hole, also after a
// failure or a cancel, so that a resume starts there.
struct PipelinedRead
{
    qint64 complete = 0;
    QString error;
    bool cancelled = false;
};

PipelinedRead readPipelined(sftp_file file, int fd, qint64 start, qint64 total, const TransferOptions &options,
                            const std::function<QString()> &readFailure, const QString &shorterText,
                            const QString &partPath)
{
    struct Request
    {
        int id;
        qint64 offset;
        qint64 length;
    };
    std::deque<Request> inFlight;
    PipelinedRead result;
    qint64 next = start;
    qint64 done = start;
    qint64 failedAt = -1;  // offset of a request taken off the queue that did not complete
    QByteArray buffer(int(readChunk), Qt::Uninitialized);
    auto request = [&](qint64 offset, qint64 length) -> bool {
        sftp_seek64(file, quint64(offset));
        const int id = sftp_async_read_begin(file, quint32(length));
        if (id < 0) {
            result.error = readFailure();
            return false;
        }
        inFlight.push_back({id, offset, length});
        return true;
    };
    while (result.error.isEmpty() && (next < total || !inFlight.empty())) {
        if (options.cancel && options.cancel->isCancelled()) {
            result.cancelled = true;
            break;
        }
        while (next < total && int(inFlight.size()) < readsInFlight) {
            const qint64 length = qMin(readChunk, total - next);
            if (!request(next, length))
                break;
            next += length;
        }
        if (inFlight.empty())
            break;
        const Request r = inFlight.front();
        inFlight.pop_front();
        const int n = sftp_async_read(file, buffer.data(), quint32(r.length), quint32(r.id));
        failedAt = r.offset;
        if (n < 0) {
            result.error = readFailure();
            break;
        }
        if (n == 0) {
            result.error = shorterText;
            break;
        }
        if (pwrite(fd, buffer.constData(), size_t(n), off_t(r.offset)) != n) {
            result.error = QStringLiteral("cannot write %1: disk full?").arg(partPath);
            break;
        }
        failedAt = r.offset + n;
        if (n < r.length && !request(r.offset + n, r.length - n))  // a short read: ask for the rest
            break;
        failedAt = -1;
        done += n;
        if (options.progress)
            options.progress(done, total);
    }
    // Everything below the first outstanding request is on disk without a hole.
    result.complete = failedAt >= 0 ? qMin(next, failedAt) : next;
    for (const Request &r : inFlight)
        result.complete = qMin(result.complete, r.offset);
    // Take the replies still due, so that the session is clean for the next request.
    while (!inFlight.empty()) {
        sftp_async_read(file, buffer.data(), quint32(inFlight.front().length), quint32(inFlight.front().id));
        inFlight.pop_front();
    }
    return result;
}

} // namespace

qint64 SftpClient::resumePoint(const QString &remotePath, QFile &part, qint64 total)
{
    // Continue a partial copy only when its tail still matches the source.
    if (!part.exists() || part.size() <= 0 || part.size() > total)
        return 0;
    const qint64 size = part.size();
    const qint64 check = qMin(resumeCheckBytes, size);
    const auto remoteTail = readAt(remotePath, size - check, check);
    qint64 start = 0;
    if (part.open(QIODevice::ReadOnly)) {
        part.seek(size - check);
        if (remoteTail && *remoteTail == part.read(check))
            start = size;
        part.close();
    }
    return start;
}

VoidResult SftpClient::download(const QString &remotePath, const QString &localPath, const TransferOptions &options)
{
    auto sftp = session();
    if (!sftp)
        return sftp.failure();
    const QString where = m_connection.describe();
    AttributesPtr attributes(sftp_stat(*sftp, remotePath.toUtf8().constData()));
    if (!attributes)
        return fail(failure(QStringLiteral("download"), remotePath));
    if (attributes->type == SSH_FILEXFER_TYPE_DIRECTORY)
        return fail(QStringLiteral("%1: cannot download %2: it is a directory").arg(where, remotePath));
    const qint64 total = qint64(attributes->size);
    const QFileDevice::Permissions permissions = fromPosixMode(attributes->permissions);

    const QString partPath = localPartPath(localPath);
    if (!QDir().mkpath(QFileInfo(localPath).absolutePath()))
        return fail(QStringLiteral("cannot create the folder of %1").arg(localPath));
    QFile part(partPath);
    const qint64 start = options.resume ? resumePoint(remotePath, part, total) : 0;
    if (!part.open(start > 0 ? QIODevice::ReadWrite : QIODevice::ReadWrite | QIODevice::Truncate))
        return fail(QStringLiteral("cannot write %1: %2").arg(partPath, part.errorString()));
    part.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    FilePtr file(sftp_open(*sftp, remotePath.toUtf8().constData(), O_RDONLY, 0));
    if (!file)
        return fail(failure(QStringLiteral("download"), remotePath));
    if (options.progress)
        options.progress(start, total);
    const PipelinedRead read = readPipelined(
        file.get(), part.handle(), start, total, options, [&] { return failure(QStringLiteral("read"), remotePath); },
        QStringLiteral("%1: %2 became shorter while it was downloaded").arg(where, remotePath), partPath);
    file.reset();
    if (read.cancelled || !read.error.isEmpty()) {
        part.resize(qMin(read.complete, part.size()));
        part.close();
        if (read.cancelled)
            return fail(QStringLiteral("%1: download of %2 cancelled after %3 of %4 bytes; it resumes from there")
                            .arg(where, remotePath).arg(read.complete).arg(total));
        return fail(read.error);
    }
    if (!part.flush()) {
        return fail(QStringLiteral("cannot write %1: %2").arg(partPath, part.errorString()));
    }
    part.setPermissions(permissions);
    part.close();
    if (::rename(QFile::encodeName(partPath).constData(), QFile::encodeName(localPath).constData()) != 0)
        return fail(QStringLiteral("cannot replace %1 with the downloaded copy").arg(localPath));
    return {};
}

} // namespace TrainDesk

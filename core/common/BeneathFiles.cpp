#include "BeneathFiles.h"

#include <QFile>

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace TrainDesk::BeneathFiles {

Fd &Fd::operator=(Fd &&other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

Fd::~Fd()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

int Fd::release()
{
    const int fd = m_fd;
    m_fd = -1;
    return fd;
}

namespace {

// The components of a relative path; false for an absolute one or one with "..".
bool split(const QString &relative, QList<QByteArray> *parts)
{
    if (relative.startsWith(QLatin1Char('/')))
        return false;
    for (const QString &part : relative.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String(".."))
            return false;
        parts->append(QFile::encodeName(part));
    }
    return true;
}

Fd failed(int *error)
{
    *error = errno;
    return Fd();
}

// The walk's failure as openat2's RESOLVE_NO_SYMLINKS reports it, so that callers see one
// errno whichever path ran: a link met on the way is ELOOP, also where O_DIRECTORY |
// O_NOFOLLOW made the kernel say ENOTDIR.
Fd failedAsOpenat2(int at, const QByteArray &name, int *error)
{
    if (errno == ENOTDIR) {
        struct stat info {};
        if (::fstatat(at, name.constData(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode))
            errno = ELOOP;
        else
            errno = ENOTDIR;
    }
    return failed(error);
}

// openat2 where the kernel has it; -1 with errno ENOSYS where it has not (or a filter forbids it).
int openat2Beneath(int dirFd, const QByteArray &path, int flags, mode_t mode)
{
#ifdef SYS_openat2
    open_how how{};
    how.flags = quint64(flags);
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    for (;;) {
        const long fd = ::syscall(SYS_openat2, dirFd, path.constData(), &how, sizeof how);
        if (fd >= 0 || errno != EAGAIN)  // EAGAIN: a rename elsewhere raced the lookup; try again
            return int(fd);
    }
#else
    errno = ENOSYS;
    return -1;
#endif
}

} // namespace

Fd openFolder(const QString &absolute, int *error)
{
    const int fd = ::open(QFile::encodeName(absolute).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd >= 0 ? Fd(fd) : failed(error);
}

Fd openAt(int dirFd, const QString &relative, int flags, int *error, mode_t mode)
{
    QList<QByteArray> parts;
    if (!split(relative, &parts)) {
        errno = EXDEV;
        return failed(error);
    }
    flags |= O_CLOEXEC | O_NOFOLLOW;
    const QByteArray joined = parts.isEmpty() ? QByteArray(".") : parts.join('/');
    const int fd = openat2Beneath(dirFd, joined, flags, mode);
    if (fd >= 0)
        return Fd(fd);
    // O_DIRECTORY | O_NOFOLLOW on a last component that is a link says ENOTDIR: a link
    // all the same, reported as the header promises.
    if (errno == ENOTDIR && !firstLink(dirFd, relative).isEmpty())
        errno = ELOOP;
    if (errno != ENOSYS && errno != EPERM)
        return failed(error);
    // No openat2: one component at a time, none of them followed when it is a link.
    if (parts.isEmpty())
        parts.append(".");
    Fd current;
    int at = dirFd;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const int next = ::openat(at, parts[i].constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return failedAsOpenat2(at, parts[i], error);
        current = Fd(next);
        at = current.get();
    }
    const int last = ::openat(at, parts.last().constData(), flags, mode);
    return last >= 0 ? Fd(last) : failedAsOpenat2(at, parts.last(), error);
}

Fd makeFolders(int dirFd, const QString &relative, int *error)
{
    QList<QByteArray> parts;
    if (!split(relative, &parts)) {
        errno = EXDEV;
        return failed(error);
    }
    Fd current = openAt(dirFd, QString(), O_RDONLY | O_DIRECTORY, error);
    for (const QByteArray &part : std::as_const(parts)) {
        if (!current.valid())
            return current;
        if (::mkdirat(current.get(), part.constData(), 0777) != 0 && errno != EEXIST)
            return failed(error);
        current = openAt(current.get(), QFile::decodeName(part), O_RDONLY | O_DIRECTORY, error);
    }
    return current;
}

QList<Entry> list(int dirFd, int *error)
{
    QList<Entry> entries;
    const int copy = ::openat(dirFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = copy >= 0 ? ::fdopendir(copy) : nullptr;
    if (!dir) {
        *error = errno;
        if (copy >= 0)
            ::close(copy);
        return entries;
    }
    while (const dirent *d = ::readdir(dir)) {
        const QByteArray name(d->d_name);
        if (name == "." || name == "..")
            continue;
        Entry e;
        e.name = QFile::decodeName(name);
        if (::fstatat(::dirfd(dir), d->d_name, &e.info, AT_SYMLINK_NOFOLLOW) != 0)
            continue;  // removed since readdir saw it
        if (S_ISLNK(e.info.st_mode)) {
            char target[4096];
            const ssize_t n = ::readlinkat(::dirfd(dir), d->d_name, target, sizeof target);
            if (n > 0)
                e.linkTarget = QFile::decodeName(QByteArray(target, int(n)));
        }
        entries.append(e);
    }
    ::closedir(dir);
    return entries;
}

bool removeAt(int dirFd, const QString &name, int *error)
{
    const QByteArray encoded = QFile::encodeName(name);
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || encoded == "." || encoded == "..") {
        *error = EINVAL;
        return false;
    }
    struct stat info {};
    if (::fstatat(dirFd, encoded.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        *error = errno;
        return false;
    }
    if (S_ISDIR(info.st_mode)) {
        const Fd folder(::openat(dirFd, encoded.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (folder.valid()) {
            int listError = 0;
            for (const Entry &e : list(folder.get(), &listError)) {
                if (!removeAt(folder.get(), e.name, error))
                    return false;
            }
            if (::unlinkat(dirFd, encoded.constData(), AT_REMOVEDIR) == 0)
                return true;
            *error = errno;
            return false;
        }
    }
    if (::unlinkat(dirFd, encoded.constData(), 0) == 0)
        return true;
    *error = errno;
    return false;
}

QString firstLink(int dirFd, const QString &relative)
{
    QList<QByteArray> parts;
    if (!split(relative, &parts))
        return {};
    Fd current;
    int at = dirFd;
    QStringList walked;
    for (const QByteArray &part : std::as_const(parts)) {
        walked << QFile::decodeName(part);
        struct stat info {};
        if (::fstatat(at, part.constData(), &info, AT_SYMLINK_NOFOLLOW) != 0)
            return {};
        if (S_ISLNK(info.st_mode))
            return walked.join(QLatin1Char('/'));
        const int next = ::openat(at, part.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            return {};
        current = Fd(next);
        at = current.get();
    }
    return {};
}

} // namespace TrainDesk::BeneathFiles

#pragma once

#include <QList>
#include <QString>

#include <sys/stat.h>
#include <sys/types.h>

namespace TrainDesk::BeneathFiles {

// A file descriptor of this process, closed when it goes.
class Fd
{
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(Fd &&other) noexcept : m_fd(other.release()) {}
    Fd &operator=(Fd &&other) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd();
    int get() const { return m_fd; }
    int release();
    bool valid() const { return m_fd >= 0; }

private:
    int m_fd = -1;
};

// File operations under a folder that hold while others change what is in it: every path
// is relative to an open folder and resolved component by component without following a
// link or leaving the folder (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or
// openat with O_NOFOLLOW at each step on kernels before 5.6). Once a folder is open, a
// swap of its name for a link changes nothing: what follows happens in the folder opened.
// Every call sets errno-style `*error` when it fails (ELOOP: a link on the way; EXDEV: a
// path that leaves the folder; ENOTDIR, ENOENT as usual).

// The folder `absolute` itself (the trusted anchor: links in it are followed).
Fd openFolder(const QString &absolute, int *error);
// `relative` ('/'-separated; "" or "." is the folder itself) under `dirFd`, opened with
// `flags` (O_CLOEXEC and O_NOFOLLOW are added).
Fd openAt(int dirFd, const QString &relative, int flags, int *error, mode_t mode = 0);
// mkdir -p of `relative` under `dirFd`, each step made and opened without following a link;
// returns the last folder, open.
Fd makeFolders(int dirFd, const QString &relative, int *error);
// Removes `name` of the folder `dirFd`: a file or a link (never what it points to), or a
// folder with everything in it, walked through descriptors.
bool removeAt(int dirFd, const QString &name, int *error);

struct Entry
{
    QString name;
    struct stat info {};  // of the entry itself (a link is a link)
    QString linkTarget;   // where a link points, as written in it
};
// The entries of the folder `dirFd` ("." and ".." left out), looked at without following links.
QList<Entry> list(int dirFd, int *error);

// The first component of `relative` under `dirFd` that is a link, or empty (for messages).
QString firstLink(int dirFd, const QString &relative);

} // namespace TrainDesk::BeneathFiles

#include "SpaceReserve.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace TrainDesk {

SpaceReserve::SpaceReserve(const QString &directory, qint64 bytes)
    : m_directory(directory), m_path(QDir(directory).filePath(QStringLiteral("space.reserve"))), m_bytes(bytes)
{
}

bool SpaceReserve::held() const
{
    return QFileInfo(m_path).size() >= m_bytes;
}

bool SpaceReserve::ensure()
{
    if (held())
        return true;
    const qint64 free = freeBytes(m_directory);
    if (free >= 0 && free < 2 * m_bytes)
        return false;
    const QByteArray path = QFile::encodeName(m_path);
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    // Allocated blocks, not a sparse file: the space is really taken.
    const bool ok = ::posix_fallocate(fd, 0, off_t(m_bytes)) == 0;
    ::close(fd);
    if (!ok)
        QFile::remove(m_path);
    m_released = m_released && !ok;
    return ok;
}

bool SpaceReserve::release()
{
    if (!QFile::exists(m_path) || !QFile::remove(m_path))
        return false;
    m_released = true;
    return true;
}

qint64 SpaceReserve::freeBytes(const QString &directory)
{
    struct statvfs s {};
    if (::statvfs(QFile::encodeName(directory).constData(), &s) != 0)
        return -1;
    return qint64(s.f_bavail) * qint64(s.f_frsize);
}

} // namespace TrainDesk

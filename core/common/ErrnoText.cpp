#include "ErrnoText.h"

#include <cerrno>
#include <cstring>

namespace TrainDesk {

QString errnoText(int error)
{
    switch (error) {
    case ENOSPC:
        return QStringLiteral("no space left on device (ENOSPC)");
    case EDQUOT:
        return QStringLiteral("disk quota exceeded (EDQUOT)");
    case EACCES:
    case EPERM:
        return QStringLiteral("permission denied");
    case EROFS:
        return QStringLiteral("read-only file system");
    case EISDIR:
        return QStringLiteral("is a folder");
    default:
        return QString::fromLocal8Bit(std::strerror(error));
    }
}

} // namespace TrainDesk

#include "FileCompare.h"

#include <QFile>

namespace TrainDesk::FileCompare {

bool sameBytes(const QString &a, const QString &b)
{
    constexpr qint64 chunkBytes = 4 * 1024 * 1024;
    QFile fa(a);
    QFile fb(b);
    if (!fa.open(QIODevice::ReadOnly) || !fb.open(QIODevice::ReadOnly) || fa.size() != fb.size())
        return false;
    while (!fa.atEnd()) {
        if (fa.read(chunkBytes) != fb.read(chunkBytes))
            return false;
    }
    return true;
}

} // namespace TrainDesk::FileCompare

#include "CappedRead.h"

#include <QFile>

namespace TrainDesk {

Result<QByteArray> readCapped(const QString &path, qint64 cap)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    QByteArray data = file.read(cap + 1);
    if (data.size() > cap)
        return fail(QStringLiteral("%1 is larger than %2 MiB: refused").arg(path).arg(cap / (1024 * 1024)));
    if (file.error() != QFileDevice::NoError)
        return fail(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    return data;
}

} // namespace TrainDesk

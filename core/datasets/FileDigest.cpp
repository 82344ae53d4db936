#include "FileDigest.h"

#include <QCryptographicHash>
#include <QFile>

namespace TrainDesk::FileDigest {

Result<QString> md5(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    QCryptographicHash hash(QCryptographicHash::Md5);
    if (!hash.addData(&file) || file.error() != QFileDevice::NoError)
        return fail(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace TrainDesk::FileDigest

#include "FileDigest.h"

#include <QCryptographicHash>
#include <QFile>

#include <zlib.h>

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

Result<QString> gunzippedMd5(const QString &path)
{
    gzFile in = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!in)
        return fail(QStringLiteral("cannot read %1").arg(path));
    QCryptographicHash hash(QCryptographicHash::Md5);
    QByteArray buffer(1024 * 1024, Qt::Uninitialized);
    QString error;
    for (;;) {
        const int n = gzread(in, buffer.data(), unsigned(buffer.size()));
        if (n < 0) {
            int code = 0;
            error = QStringLiteral("%1 is not whole gzip data (%2)").arg(path, QString::fromLatin1(gzerror(in, &code)));
            break;
        }
        if (gzdirect(in)) {
            error = QStringLiteral("%1 is not gzip-compressed").arg(path);
            break;
        }
        if (n == 0)
            break;
        hash.addData(QByteArrayView(buffer.constData(), n));
    }
    gzclose(in);
    if (!error.isEmpty())
        return fail(error);
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace TrainDesk::FileDigest

#include "DataSetManifest.h"

#include "common/AtomicReplace.h"
#include "common/CappedRead.h"
#include "common/ErrnoText.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>

namespace TrainDesk::DataSetManifest {

Result<Manifest> read(const QString &folder)
{
    const QString path = QDir(folder).filePath(QString::fromLatin1(fileName));
    const auto text = readCapped(path, 1024 * 1024);
    if (!text)
        return text.failure();
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(*text, &error);
    if (!doc.isObject())
        return fail(QStringLiteral("%1: not a JSON object (%2)").arg(path, error.errorString()));
    const QJsonObject root = doc.object();
    Manifest manifest{root.value(QStringLiteral("dataSet")).toString(), root.value(QStringLiteral("title")).toString(), {}};
    for (const QJsonValue &v : root.value(QStringLiteral("files")).toArray()) {
        const QJsonObject f = v.toObject();
        manifest.files.append({f.value(QStringLiteral("name")).toString(), f.value(QStringLiteral("md5")).toString(),
                               f.value(QStringLiteral("size")).toInteger(), f.value(QStringLiteral("source")).toString(),
                               QDateTime::fromString(f.value(QStringLiteral("placed")).toString(), Qt::ISODate),
                               f.value(QStringLiteral("contentMd5")).toString()});
    }
    return manifest;
}

VoidResult write(const QString &folder, const Manifest &manifest)
{
    QJsonArray files;
    for (const Entry &e : manifest.files) {
        QJsonObject file{{QStringLiteral("name"), e.name}, {QStringLiteral("md5"), e.md5},
                         {QStringLiteral("size"), e.size}, {QStringLiteral("source"), e.source},
                         {QStringLiteral("placed"), e.placed.toUTC().toString(Qt::ISODate)}};
        if (!e.contentMd5.isEmpty())
            file.insert(QStringLiteral("contentMd5"), e.contentMd5);
        files.append(file);
    }
    const QJsonObject root{{QStringLiteral("dataSet"), manifest.dataSet}, {QStringLiteral("title"), manifest.title},
                           {QStringLiteral("files"), files}};
    const QString target = QDir(folder).filePath(QString::fromLatin1(fileName));
    QFile part(AtomicReplace::uniquePartPath(target));
    if (!part.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(part.fileName(), errnoText(errno)));
    const QByteArray bytes = QJsonDocument(root).toJson();
    if (part.write(bytes) != bytes.size() || !part.flush()) {
        const QString why = errnoText(errno);
        part.remove();
        return fail(QStringLiteral("cannot write %1: %2").arg(part.fileName(), why));
    }
    part.close();
    return AtomicReplace::replace(part.fileName(), target);
}

} // namespace TrainDesk::DataSetManifest

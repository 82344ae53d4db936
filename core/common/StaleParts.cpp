#include "StaleParts.h"

#include "AtomicReplace.h"
#include "ProcessToken.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace TrainDesk::StaleParts {

bool isStale(const QString &fileName, const QDateTime &modified, qint64 maxAgeSeconds)
{
    // ".<name>.<host>-<pid>[-<random>].traindesk-part": processToken()'s, and uniquePartPath's.
    static const QRegularExpression writer(QStringLiteral("-\\d+(-[0-9a-f]{8})?$"));
    static const QRegularExpression random(QStringLiteral("-[0-9a-f]{8}$"));
    if (!AtomicReplace::isPartFile(fileName))
        return false;
    const QString head = fileName.chopped(AtomicReplace::partSuffix.size());
    if (!writer.match(head).hasMatch())
        return false;
    if (modified.isValid() && modified.toUTC() < QDateTime::currentDateTimeUtc().addSecs(-maxAgeSeconds))
        return true;
    // Names and host names may hold dots: the token may start after any of them.
    for (qsizetype dot = head.indexOf(QLatin1Char('.')); dot >= 0; dot = head.indexOf(QLatin1Char('.'), dot + 1)) {
        const QString token = head.mid(dot + 1);
        if (processIsGone(token) || (random.match(token).hasMatch() && processIsGone(token.chopped(9))))
            return true;
    }
    return false;
}

void removeFrom(const QString &folder, qint64 maxAgeSeconds)
{
    const QDir dir(folder);
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*") + AtomicReplace::partSuffix}, QDir::Files | QDir::Hidden)) {
        if (isStale(info.fileName(), info.lastModified(), maxAgeSeconds))
            QFile::remove(info.absoluteFilePath());
    }
}

} // namespace TrainDesk::StaleParts

#include "AtomicReplace.h"

#include "ErrnoText.h"
#include "ProcessToken.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstdio>
#include <sys/stat.h>

namespace TrainDesk::AtomicReplace {

QString uniquePartPath(const QString &target)
{
    const QFileInfo info(target);
    return info.absolutePath() + QStringLiteral("/.%1.%2-%3%4")
                                     .arg(info.fileName(), processToken())
                                     .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'))
                                     .arg(partSuffix);
}

bool isPartFile(const QString &fileName) { return fileName.endsWith(partSuffix); }

VoidResult replace(const QString &part, const QString &target)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(target).constData(), &st) == 0 && S_ISDIR(st.st_mode)) {
        QFile::remove(part);
        return fail(QStringLiteral("%1 is a folder: nothing was replaced").arg(target));
    }
    if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(target).constData()) != 0) {
        const int error = errno;
        QFile::remove(part);
        return fail(QStringLiteral("cannot move %1 into place as %2: %3").arg(part, target, errnoText(error)));
    }
    return {};
}

} // namespace TrainDesk::AtomicReplace

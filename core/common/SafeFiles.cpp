#include "SafeFiles.h"

#include "ShellQuote.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSysInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <signal.h>
#include <sys/stat.h>

namespace TrainDesk::SafeFiles {

namespace {

const QString partSuffix = QStringLiteral(".traindesk-part");

} // namespace

QString processToken()
{
    return QStringLiteral("%1-%2").arg(QSysInfo::machineHostName()).arg(QCoreApplication::applicationPid());
}

QString uniquePartPath(const QString &target)
{
    const QFileInfo info(target);
    return info.absolutePath() + QStringLiteral("/.%1.%2-%3%4")
                                     .arg(info.fileName(), processToken())
                                     .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'))
                                     .arg(partSuffix);
}

bool isPartFile(const QString &fileName) { return fileName.endsWith(partSuffix); }

QString errorText(int error)
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

VoidResult replaceAtomically(const QString &part, const QString &target)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(target).constData(), &st) == 0 && S_ISDIR(st.st_mode)) {
        QFile::remove(part);
        return fail(QStringLiteral("%1 is a folder: nothing was replaced").arg(target));
    }
    if (std::rename(QFile::encodeName(part).constData(), QFile::encodeName(target).constData()) != 0) {
        const int error = errno;
        QFile::remove(part);
        return fail(QStringLiteral("cannot move %1 into place as %2: %3").arg(part, target, errorText(error)));
    }
    return {};
}

bool processIsGone(const QString &token)
{
    const QString prefix = QSysInfo::machineHostName() + QLatin1Char('-');
    if (!token.startsWith(prefix))
        return false;
    bool ok = false;
    const qint64 pid = token.mid(prefix.size()).toLongLong(&ok);
    if (!ok || pid <= 0 || pid == QCoreApplication::applicationPid())
        return false;
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

bool isStalePart(const QString &fileName, const QDateTime &modified, qint64 maxAgeSeconds)
{
    // ".<name>.<host>-<pid>[-<random>].traindesk-part": processToken()'s, and uniquePartPath's.
    static const QRegularExpression writer(QStringLiteral("-\\d+(-[0-9a-f]{8})?$"));
    static const QRegularExpression random(QStringLiteral("-[0-9a-f]{8}$"));
    if (!isPartFile(fileName))
        return false;
    const QString head = fileName.chopped(partSuffix.size());
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

void sweepStaleParts(const QString &folder, qint64 maxAgeSeconds)
{
    const QDir dir(folder);
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*") + partSuffix}, QDir::Files | QDir::Hidden)) {
        if (isStalePart(info.fileName(), info.lastModified(), maxAgeSeconds))
            QFile::remove(info.absoluteFilePath());
    }
}

Result<QString> confined(const QString &root, const QString &path, const QString &what)
{
    const QString realRoot = QFileInfo(root).canonicalFilePath();
    if (realRoot.isEmpty())
        return fail(QStringLiteral("%1 %2 does not exist").arg(what, root));
    // Resolve the longest part that exists; what follows it cannot be a link yet.
    QString existing = QDir::cleanPath(path);
    QString rest;
    while (!QFileInfo::exists(existing) && !QFileInfo(existing).isSymLink() && existing != QLatin1String("/")) {
        rest = QFileInfo(existing).fileName() + (rest.isEmpty() ? QString() : QLatin1Char('/') + rest);
        existing = QFileInfo(existing).path();
    }
    QString resolved = QFileInfo(existing).canonicalFilePath();
    if (resolved.isEmpty())  // a dangling link: where it points is outside anything we know
        return fail(QStringLiteral("'%1' is a link to nothing inside %2 %3").arg(path, what, root));
    if (!rest.isEmpty())
        resolved = QDir::cleanPath(resolved + QLatin1Char('/') + rest);
    if (resolved != realRoot && !resolved.startsWith(realRoot + QLatin1Char('/')))
        return fail(QStringLiteral("'%1' is outside %2 %3 (it leads to %4)").arg(path, what, root, resolved));
    return resolved;
}

QString confinedCommand(const QString &root, const QString &path)
{
    return QStringLiteral("r=$(realpath -m -- %1) && p=$(realpath -m -- %2) && "
                          "case \"$p/\" in \"$r\"/*) printf '%s' \"$p\" ;; *) printf '%s' \"$p\"; exit 3 ;; esac")
        .arg(shellQuote(root), shellQuote(path));
}

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

} // namespace TrainDesk::SafeFiles

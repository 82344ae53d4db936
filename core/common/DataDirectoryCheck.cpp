#include "DataDirectoryCheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TrainDesk::DataDirectoryCheck {

namespace {

QString userName(uid_t uid)
{
    if (const passwd *pw = ::getpwuid(uid))
        return QString::fromLocal8Bit(pw->pw_name);
    return QString::number(uid);
}

// What the data directory's own files are called; each is checked where it is there.
const char *const ownFiles[] = {"traindesk.db", "traindesk.db-wal", "traindesk.db-shm", "agent.sock", "agent.lock",
                                "agent.log", "known_hosts", "secret.key", "installation-id", "ssh", "ssh/id_ed25519",
                                "ssh/id_ed25519.pub", "logs", "mounts", "shares", "datasets"};

VoidResult checkOwned(const QString &path, const struct stat &info, bool isDataDirectory)
{
    const uid_t me = ::geteuid();
    const QString refused = QStringLiteral("the data directory %1 is refused: ").arg(path);
    if (info.st_uid != me && (isDataDirectory || info.st_uid != 0))
        return fail(QStringLiteral("%1it belongs to user %2, not to %3 (fix: use a data directory of your own, or "
                                   "'chown %3 %4' as its owner or root)")
                        .arg(isDataDirectory ? refused : QStringLiteral("%1 is refused: ").arg(path), userName(info.st_uid),
                             userName(me), path));
    return {};
}

VoidResult checkFolderAbove(const QString &path)
{
    struct stat info {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return fail(QStringLiteral("cannot look at %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno))));
    if (auto owned = checkOwned(path, info, false); !owned)
        return fail(QStringLiteral("the folder %1 above the data directory belongs to user %2 (fix: a data directory "
                                   "under folders of your own or root's)")
                        .arg(path, userName(info.st_uid)));
    const bool sticky = (info.st_mode & S_ISVTX) && info.st_uid == 0;
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) && !sticky)
        return fail(QStringLiteral("the folder %1 above the data directory may be written by others (mode %2): they "
                                   "could swap the data directory (fix: 'chmod go-w %1')")
                        .arg(path)
                        .arg(info.st_mode & 07777, 4, 8, QLatin1Char('0')));
    return {};
}

} // namespace

VoidResult verify(const QString &dataDirectory)
{
    if (!QFileInfo::exists(dataDirectory)) {
        if (!QDir().mkpath(dataDirectory))
            return fail(QStringLiteral("cannot create the data directory %1").arg(dataDirectory));
        QFile::setPermissions(dataDirectory, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    const QString real = QFileInfo(dataDirectory).canonicalFilePath();
    if (real.isEmpty())
        return fail(QStringLiteral("the data directory %1 cannot be resolved").arg(dataDirectory));
    struct stat info {};
    if (::stat(QFile::encodeName(real).constData(), &info) != 0 || !S_ISDIR(info.st_mode))
        return fail(QStringLiteral("the data directory %1 is not a folder").arg(dataDirectory));
    if (auto owned = checkOwned(dataDirectory, info, true); !owned)
        return owned;
    if (info.st_mode & (S_IWGRP | S_IWOTH))
        return fail(QStringLiteral("the data directory %1 is refused: others may write it (mode %2) (fix: 'chmod 700 %1')")
                        .arg(dataDirectory)
                        .arg(info.st_mode & 07777, 4, 8, QLatin1Char('0')));
    for (QString above = QFileInfo(real).path(); ; above = QFileInfo(above).path()) {
        if (auto ok = checkFolderAbove(above); !ok)
            return ok;
        if (above == QLatin1String("/"))
            break;
    }
    for (const char *name : ownFiles) {
        const QString path = real + QLatin1Char('/') + QLatin1String(name);
        struct stat file {};
        if (::lstat(QFile::encodeName(path).constData(), &file) != 0)
            continue;  // not made yet
        if (S_ISLNK(file.st_mode))
            return fail(QStringLiteral("%1 in the data directory is refused: it is a link (fix: remove it; TrainDesk "
                                       "makes its files itself)")
                            .arg(path));
        if (auto owned = checkOwned(path, file, false); !owned || file.st_uid != ::geteuid())
            return fail(QStringLiteral("%1 in the data directory is refused: it belongs to user %2 (fix: remove it, or "
                                       "'chown %3 %1' as root)")
                            .arg(path, userName(file.st_uid), userName(::geteuid())));
        if (!S_ISSOCK(file.st_mode) && (file.st_mode & (S_IWGRP | S_IWOTH)))
            return fail(QStringLiteral("%1 in the data directory is refused: others may write it (mode %2) (fix: "
                                       "'chmod go-w %1')")
                            .arg(path)
                            .arg(file.st_mode & 07777, 4, 8, QLatin1Char('0')));
    }
    return {};
}

} // namespace TrainDesk::DataDirectoryCheck

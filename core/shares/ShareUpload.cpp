#include "ShareUpload.h"

#include "LocalShareFiles.h"
#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"
#include "common/StaleParts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace TrainDesk::ShareUpload {

namespace {

constexpr qint64 chunkBytes = 1024 * 1024;

} // namespace

Result<QString> folderPath(const Share &share, const QString &directory)
{
    if (share.path.isEmpty())
        return fail(QStringLiteral("share '%1' has no folder").arg(share.name));
    const QString relative = QDir::fromNativeSeparators(directory.trimmed());
    if (QDir::isAbsolutePath(relative))
        return fail(QStringLiteral("folder '%1' must be relative to share '%2'").arg(directory, share.name));
    const QString root = QDir::cleanPath(share.path);
    const QString folder = QDir::cleanPath(root + QLatin1Char('/') + relative);
    if (folder != root && !folder.startsWith(root + QLatin1Char('/')))
        return fail(QStringLiteral("folder '%1' is outside share '%2'").arg(directory, share.name));
    return folder;
}

QString relativePath(const Share &share, const QString &absolute)
{
    const QString root = QDir::cleanPath(share.path);
    return absolute.size() > root.size() ? absolute.mid(root.size() + 1) : QString();
}

Result<qint64> checkSources(const QStringList &files)
{
    qint64 total = 0;
    QSet<QString> names;
    for (const QString &file : files) {
        const QFileInfo info(file);
        if (!info.isFile())
            return fail(QStringLiteral("%1 is not a file").arg(file));
        if (names.contains(info.fileName()))
            return fail(QStringLiteral("two files are named %1: they would land on one another").arg(info.fileName()));
        names.insert(info.fileName());
        total += info.size();
    }
    return total;
}

Outcome copy(const Share &share, const QString &directory, const QStringList &files,
             const std::atomic_bool &cancel, const Progress &progress)
{
    Outcome outcome;
    const auto failed = [&outcome](const QString &error) {
        outcome.error = error;
        return outcome;
    };
    if (share.kind != ShareKind::Local) {
        return failed(QStringLiteral("share '%1' is a %2 share: its files are on the nodes (ShareService uploads there)")
                          .arg(share.name, toString(share.kind)));
    }
    const auto folder = folderPath(share, directory);
    if (!folder)
        return failed(folder.error());
    const auto sources = checkSources(files);
    if (!sources)
        return failed(sources.error());
    const qint64 total = *sources;
    // The folder is opened without following links (LocalShareFiles) and everything after
    // happens in that open folder: a name swapped for a link meanwhile leads nowhere.
    const auto opened = LocalShareFiles::openFolder(share, relativePath(share, *folder), true);
    if (!opened)
        return failed(opened.error());
    const int dir = opened->get();
    int error = 0;
    for (const BeneathFiles::Entry &e : BeneathFiles::list(dir, &error)) {
        if (S_ISREG(e.info.st_mode) && StaleParts::isStale(e.name, QDateTime::fromSecsSinceEpoch(e.info.st_mtim.tv_sec)))
            ::unlinkat(dir, QFile::encodeName(e.name).constData(), 0);
    }

    qint64 done = 0;
    QByteArray buffer;
    for (const QString &file : files) {
        const QString name = QFileInfo(file).fileName();
        const QString target = *folder + QLatin1Char('/') + name;
        struct stat existing {};
        if (::fstatat(dir, QFile::encodeName(name).constData(), &existing, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(existing.st_mode))
            return failed(QStringLiteral("share '%1': %2 is a folder: %3 was not uploaded").arg(share.name, target, name));
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly))
            return failed(QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
        // This upload's own temporary file: concurrent uploads of one name never share one.
        const QByteArray part = QFile::encodeName(QFileInfo(AtomicReplace::uniquePartPath(target)).fileName());
        const QString partPath = *folder + QLatin1Char('/') + QFile::decodeName(part);
        const int fd = ::openat(dir, part.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0)
            return failed(QStringLiteral("cannot write %1: %2").arg(partPath, errnoText(errno)));
        QFile out;
        out.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle);
        const auto dropPart = [&] {
            out.close();
            ::unlinkat(dir, part.constData(), 0);
        };
        if (progress)
            progress(done, total, name);
        while (!in.atEnd()) {
            if (cancel.load()) {
                dropPart();
                return failed(QStringLiteral("upload cancelled after %1 of %2 files").arg(outcome.copied).arg(files.size()));
            }
            buffer = in.read(chunkBytes);
            if (buffer.isEmpty() && in.error() != QFileDevice::NoError) {
                dropPart();
                return failed(QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
            }
            if (out.write(buffer) != buffer.size() || !out.flush()) {
                const QString error = errnoText(errno);
                dropPart();
                return failed(QStringLiteral("cannot write %1: %2").arg(partPath, error));
            }
            done += buffer.size();
            if (progress)
                progress(done, total, name);
        }
        out.close();
        if (out.error() != QFileDevice::NoError) {
            const QString error = errnoText(errno);
            ::unlinkat(dir, part.constData(), 0);
            return failed(QStringLiteral("cannot write %1: %2").arg(partPath, error));
        }
        // rename(2) within the open folder: a link of the target's name is replaced, not followed.
        if (::renameat(dir, part.constData(), dir, QFile::encodeName(name).constData()) != 0) {
            const int renameError = errno;
            ::unlinkat(dir, part.constData(), 0);
            if (renameError == EISDIR)
                return failed(QStringLiteral("%1 is a folder: nothing was replaced").arg(target));
            return failed(QStringLiteral("cannot move %1 into place as %2: %3").arg(partPath, target, errnoText(renameError)));
        }
        ++outcome.copied;
    }
    return outcome;
}

QStringList folders(const Share &share)
{
    if (share.kind != ShareKind::Local || share.path.isEmpty())
        return {};
    return QDir(share.path).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace TrainDesk::ShareUpload

#include "ShareUpload.h"

#include "common/SafeFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

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
    // Symbolic links inside the share must not lead the upload out of it. (A local share's
    // own folder is made when missing, as the upload always did.)
    QDir().mkpath(share.path);
    const auto real = SafeFiles::confined(share.path, *folder, QStringLiteral("share '%1' at").arg(share.name));
    if (!real)
        return failed(real.error());
    if (!QDir().mkpath(*real))
        return failed(QStringLiteral("cannot create folder %1").arg(*real));
    SafeFiles::sweepStaleParts(*real);

    qint64 done = 0;
    QByteArray buffer;
    for (const QString &file : files) {
        const QString name = QFileInfo(file).fileName();
        const QString target = *real + QLatin1Char('/') + name;
        if (QFileInfo(target).isDir() && !QFileInfo(target).isSymLink())
            return failed(QStringLiteral("share '%1': %2 is a folder: %3 was not uploaded").arg(share.name, target, name));
        if (const auto inside = SafeFiles::confined(share.path, target, QStringLiteral("share '%1' at").arg(share.name)); !inside)
            return failed(inside.error());
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly))
            return failed(QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
        // This upload's own temporary file: concurrent uploads of one name never share one.
        QFile out(SafeFiles::uniquePartPath(target));
        if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            return failed(QStringLiteral("cannot write %1: %2").arg(out.fileName(), SafeFiles::errorText(errno)));
        if (progress)
            progress(done, total, name);
        while (!in.atEnd()) {
            if (cancel.load()) {
                out.remove();
                return failed(QStringLiteral("upload cancelled after %1 of %2 files").arg(outcome.copied).arg(files.size()));
            }
            buffer = in.read(chunkBytes);
            if (buffer.isEmpty() && in.error() != QFileDevice::NoError) {
                out.remove();
                return failed(QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
            }
            if (out.write(buffer) != buffer.size() || !out.flush()) {
                const QString error = SafeFiles::errorText(errno);
                out.remove();
                return failed(QStringLiteral("cannot write %1: %2").arg(out.fileName(), error));
            }
            done += buffer.size();
            if (progress)
                progress(done, total, name);
        }
        out.close();
        if (out.error() != QFileDevice::NoError) {
            const QString error = SafeFiles::errorText(errno);
            out.remove();
            return failed(QStringLiteral("cannot write %1: %2").arg(out.fileName(), error));
        }
        if (auto placed = SafeFiles::replaceAtomically(out.fileName(), target); !placed)
            return failed(placed.error());
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

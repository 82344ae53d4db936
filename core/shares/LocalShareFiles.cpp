#include "LocalShareFiles.h"

#include "common/ErrnoText.h"
#include "common/PathConfinement.h"
#include "transport/LocalTransport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <fcntl.h>

namespace TrainDesk::LocalShareFiles {

using BeneathFiles::Fd;

namespace {

QString absolute(const Share &share, const QString &relative)
{
    return QDir::cleanPath(share.path + QLatin1Char('/') + relative);
}

Result<Fd> openRoot(const Share &share, bool create)
{
    if (create)
        QDir().mkpath(share.path);  // a local share's own folder is made when missing
    int error = 0;
    Fd root = BeneathFiles::openFolder(share.path, &error);
    if (!root.valid())
        return fail(QStringLiteral("share '%1': cannot open its folder %2: %3").arg(share.name, share.path, errnoText(error)));
    return root;
}

RemoteFileInfo toInfo(const BeneathFiles::Entry &e)
{
    RemoteFileInfo info;
    info.name = e.name;
    info.isLink = S_ISLNK(e.info.st_mode);
    info.isDirectory = S_ISDIR(e.info.st_mode);
    info.size = info.isDirectory || info.isLink ? 0 : qint64(e.info.st_size);  // a link: not what it points to
    info.modified = QDateTime::fromSecsSinceEpoch(e.info.st_mtim.tv_sec);
    info.linkTarget = e.linkTarget;
    return info;
}

} // namespace

QString refusal(const Share &share, const QString &relative, int error)
{
    const QString path = absolute(share, relative);
    if (error == ELOOP || error == EXDEV) {
        // Where it leads, when that is outside: the message users know for links out.
        const auto inside = PathConfinement::confined(share.path, path, QStringLiteral("share '%1' at").arg(share.name));
        if (!inside)
            return inside.error();
        int rootError = 0;
        const Fd root = BeneathFiles::openFolder(share.path, &rootError);
        const QString link = root.valid() ? BeneathFiles::firstLink(root.get(), relative) : QString();
        return QStringLiteral("share '%1': '%2' passes through the link %3: share files are reached without following links")
            .arg(share.name, path, link.isEmpty() ? QStringLiteral("(changed while it was opened)") : absolute(share, link));
    }
    if (error == ENOENT)
        return QStringLiteral("share '%1': no file or folder %2").arg(share.name, relative);
    return QStringLiteral("share '%1': cannot open %2: %3").arg(share.name, path, errnoText(error));
}

Result<Fd> openFolder(const Share &share, const QString &relative, bool create)
{
    auto root = openRoot(share, create);
    if (!root)
        return root.failure();
    int error = 0;
    Fd folder = create ? BeneathFiles::makeFolders(root->get(), relative, &error)
                       : BeneathFiles::openAt(root->get(), relative, O_RDONLY | O_DIRECTORY, &error);
    if (!folder.valid()) {
        if (error == ENOTDIR && create)
            return fail(QStringLiteral("share '%1': cannot create folder %2: a file is in the way").arg(share.name, absolute(share, relative)));
        if (error == ENOENT || error == ENOTDIR)
            return fail(QStringLiteral("share '%1': no folder %2").arg(share.name, relative));
        return fail(refusal(share, relative, error));
    }
    return folder;
}

Result<QList<RemoteFileInfo>> list(const Share &share, const QString &relative)
{
    const auto folder = openFolder(share, relative, false);
    if (!folder)
        return folder.failure();
    int error = 0;
    QList<RemoteFileInfo> entries;
    errno = 0;
    for (const BeneathFiles::Entry &e : BeneathFiles::list(folder->get(), &error))
        entries.append(toInfo(e));
    if (error != 0)
        return fail(QStringLiteral("share '%1': cannot list %2: %3").arg(share.name, absolute(share, relative), errnoText(error)));
    return entries;
}

VoidResult download(const Share &share, const QString &relative, const QString &target, const TransferOptions &options)
{
    auto root = openRoot(share, false);
    if (!root)
        return root.failure();
    int error = 0;
    Fd fd = BeneathFiles::openAt(root->get(), relative, O_RDONLY, &error);
    if (!fd.valid()) {
        if (error == ENOENT || error == ENOTDIR)
            return fail(QStringLiteral("share '%1': no file %2").arg(share.name, relative));
        return fail(refusal(share, relative, error));
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode))
        return fail(QStringLiteral("share '%1': no file %2").arg(share.name, relative));
    QFile source;
    if (!source.open(fd.get(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle))
        return fail(QStringLiteral("share '%1': cannot read %2: %3").arg(share.name, relative, source.errorString()));
    if (auto copied = LocalTransport::copyOpened(source, absolute(share, relative), target, options); !copied)
        return fail(QStringLiteral("share '%1': %2").arg(share.name, copied.error()));
    return {};
}

VoidResult remove(const Share &share, const QString &relative)
{
    const QString parent = QFileInfo(relative).path();
    const QString name = QFileInfo(relative).fileName();
    const auto folder = openFolder(share, parent == QLatin1String(".") ? QString() : parent, false);
    if (!folder)
        return folder.failure();
    int error = 0;
    if (BeneathFiles::removeAt(folder->get(), name, &error))
        return {};
    if (error == ENOENT)
        return fail(QStringLiteral("share '%1': no file or folder %2").arg(share.name, relative));
    return fail(QStringLiteral("share '%1': cannot delete %2: %3").arg(share.name, absolute(share, relative), errnoText(error)));
}

} // namespace TrainDesk::LocalShareFiles

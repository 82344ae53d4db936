// ShareService: directories and files of a share, on this machine or on the nodes.
#include "ShareService.h"

#include "NodeUpload.h"
#include "common/FileCompare.h"
#include "common/SafeFiles.h"
#include "transport/LocalTransport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace TrainDesk {

namespace {

// Files TrainDesk leaves while it works: partial transfers and the shared-path check.
bool isInternal(const QString &name)
{
    return SafeFiles::isPartFile(name) || name == NodeUpload::lockName()
           || name.startsWith(QLatin1String(".traindesk-share-check-"));
}

// The folder or file `path` of a share, resolved on the side that holds it, refused when a
// symbolic link leads it out of the share (then `*outside` is set, when given).
Result<QString> confinedPath(const Share &share, const QString &path, Transport *node, bool *outside = nullptr)
{
    const QString what = QStringLiteral("share '%1' at").arg(share.name);
    if (!node)
        return SafeFiles::confined(share.path, path, what);
    const auto checked = node->exec(SafeFiles::confinedCommand(share.path, path), 30000);
    if (!checked)
        return checked.failure();
    const QString resolved = QString::fromUtf8(checked->stdOut);
    if (outside)
        *outside = checked->exitCode == 3;
    if (checked->exitCode == 3)
        return fail(QStringLiteral("'%1' is outside %2 %3 on node %4 (it leads to %5)")
                        .arg(path, what, share.path, node->nodeName(), resolved));
    if (checked->exitCode != 0)
        return fail(QStringLiteral("node %1: cannot resolve %2: %3")
                        .arg(node->nodeName(), path, QString::fromLocal8Bit(checked->stdErr).trimmed()));
    return resolved;
}


RemoteFileInfo fromLocal(const QFileInfo &info)
{
    return {info.fileName(), info.isDir() ? 0 : info.size(), info.lastModified(), info.isDir()};
}

const std::atomic<bool> notCancelled{false};

} // namespace

Result<QString> ShareService::createDirectory(const Share &share, const QString &directory)
{
    if (directory.trimmed().isEmpty())
        return fail(QStringLiteral("share '%1': the directory name is empty").arg(share.name));
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    if (share.kind == ShareKind::Local) {
        QDir().mkpath(share.path);
        const auto real = confinedPath(share, *folder, nullptr);
        if (!real)
            return real.failure();
        if (!QDir().mkpath(*real))
            return fail(QStringLiteral("share '%1': cannot create folder %2").arg(share.name, *real));
        return *real;
    }
    const auto nodes = nodesOf(share, share.kind == ShareKind::ClusterPath);
    if (!nodes)
        return nodes.failure();
    for (const NodeTransport &n : *nodes) {
        if (auto made = n.transport->makeDirectories(*folder); !made)
            return fail(QStringLiteral("share '%1': node %2: %3").arg(share.name, n.node.name, made.error()));
    }
    return *folder;
}

ShareUpload::Outcome ShareService::upload(const Share &share, const QString &directory, const QStringList &files,
                                          const CancelFlag *cancel, const ShareUpload::Progress &progress)
{
    if (share.kind == ShareKind::Local)
        return ShareUpload::copy(share, directory, files, cancel ? cancel->flag() : notCancelled, progress);

    ShareUpload::Outcome outcome;
    const auto failed = [&outcome](const QString &error) {
        outcome.error = error;
        return outcome;
    };
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return failed(folder.error());
    const auto sources = ShareUpload::checkSources(files);
    if (!sources)
        return failed(sources.error());
    const auto nodes = nodesOf(share, share.kind == ShareKind::ClusterPath);
    if (!nodes)
        return failed(nodes.error());
    // A link out of the share on any node refuses the whole upload before a folder is made;
    // a node that cannot be reached or written is reported with the others that failed.
    QList<NodeUpload::Target> targets;
    for (const NodeTransport &n : *nodes) {
        NodeUpload::Target target{n.node.name, n.transport, {}};
        bool outside = false;
        if (auto inside = confinedPath(share, *folder, n.transport.get(), &outside); !inside) {
            if (outside)
                return failed(inside.error());
            target.error = inside.error();
        }
        targets.append(target);
    }
    for (NodeUpload::Target &target : targets) {
        if (target.error.isEmpty()) {
            if (auto made = target.transport->makeDirectories(*folder); !made)
                target.error = made.error();
        }
    }
    return NodeUpload::copy(QStringLiteral("share '%1'").arg(share.name), targets, *folder, files,
                            *sources * nodes->size(), cancel, progress);
}

Result<QList<RemoteFileInfo>> ShareService::listFiles(const Share &share, const QString &directory)
{
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    QList<RemoteFileInfo> entries;
    if (share.kind == ShareKind::Local) {
        const auto real = confinedPath(share, *folder, nullptr);
        if (!real)
            return real.failure();
        const QDir dir(*real);
        if (!dir.exists())
            return fail(QStringLiteral("share '%1': no folder %2").arg(share.name, directory));
        for (const QFileInfo &info : dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name))
            entries.append(fromLocal(info));
    } else {
        const auto nodes = nodesOf(share, true);
        if (!nodes)
            return nodes.failure();
        if (auto inside = confinedPath(share, *folder, nodes->first().transport.get()); !inside)
            return inside.failure();
        const auto listed = nodes->first().transport->list(*folder);
        if (!listed)
            return fail(QStringLiteral("share '%1': %2").arg(share.name, listed.error()));
        entries = *listed;
    }
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [](const RemoteFileInfo &e) {
                                     return isInternal(e.name) || e.name == QLatin1String(".")
                                            || e.name == QLatin1String("..");
                                 }),
                  entries.end());
    std::sort(entries.begin(), entries.end(), [](const RemoteFileInfo &a, const RemoteFileInfo &b) { return a.name < b.name; });
    return entries;
}

Result<ShareDownload> ShareService::download(const Share &share, const QString &file, const QString &destination,
                                             const TransferOptions &options, bool overwrite)
{
    const auto source = ShareUpload::folderPath(share, file);
    if (!source)
        return source.failure();
    if (!QDir().mkpath(destination))
        return fail(QStringLiteral("cannot create folder %1").arg(destination));
    const QString target = QDir(destination).filePath(QFileInfo(*source).fileName());
    const QFileInfo existing(target);
    if (existing.isDir())
        return fail(QStringLiteral("%1 is a folder, but %2 of share '%3' is a file: refused, nothing was downloaded")
                        .arg(target, file, share.name));
    if (overwrite || !existing.exists()) {
        if (auto got = downloadAs(share, file, target, options); !got)
            return got.failure();
        return ShareDownload{target, false};
    }
    // A local file of that name: the share's file is fetched beside it first and compared,
    // so that neither a changed local file nor the download is lost.
    const QString part = SafeFiles::uniquePartPath(target);
    if (auto got = downloadAs(share, file, part, options); !got) {
        QFile::remove(part);
        return got.failure();
    }
    const bool same = FileCompare::sameBytes(part, target);
    QFile::remove(part);
    if (same)
        return ShareDownload{target, true};
    return fail(QStringLiteral("%1 exists and differs from %2 of share '%3': refused, nothing was downloaded "
                               "(--overwrite replaces it)")
                    .arg(target, file, share.name));
}

Result<QString> ShareService::downloadAs(const Share &share, const QString &file, const QString &target,
                                         const TransferOptions &options)
{
    const auto source = ShareUpload::folderPath(share, file);
    if (!source)
        return source.failure();
    if (*source == QDir::cleanPath(share.path))
        return fail(QStringLiteral("share '%1': name a file to download").arg(share.name));
    if (const QString folder = QFileInfo(target).absolutePath(); !QDir().mkpath(folder))
        return fail(QStringLiteral("cannot create folder %1").arg(folder));
    SafeFiles::sweepStaleParts(QFileInfo(target).absolutePath());  // what killed downloads left
    if (share.kind == ShareKind::Local) {
        const auto real = confinedPath(share, *source, nullptr);
        if (!real)
            return real.failure();
        if (!QFileInfo(*real).isFile())
            return fail(QStringLiteral("share '%1': no file %2").arg(share.name, file));
        // Through a part file of its own renamed into place (a full disk named as such).
        if (auto copied = LocalTransport().download(*real, target, options); !copied)
            return fail(QStringLiteral("share '%1': %2").arg(share.name, copied.error()));
        return target;
    }
    const auto nodes = nodesOf(share, true);
    if (!nodes)
        return nodes.failure();
    if (auto inside = confinedPath(share, *source, nodes->first().transport.get()); !inside)
        return inside.failure();
    Transport *const node = nodes->first().transport.get();
    if (auto got = node->download(*source, target, options); !got)
        return fail(QStringLiteral("share '%1': node %2: %3").arg(share.name, nodes->first().node.name, got.error()));
    return target;
}

VoidResult ShareService::deletePath(const Share &share, const QString &path)
{
    const auto full = ShareUpload::folderPath(share, path);
    if (!full)
        return full.failure();
    if (*full == QDir::cleanPath(share.path))
        return fail(QStringLiteral("share '%1': name a file or folder to delete, not the share itself").arg(share.name));
    // The folder that holds it is resolved (links there may not lead out); the last part is
    // removed as it is, so a link is deleted and never what it points to.
    const QString name = QFileInfo(*full).fileName();
    const QString parent = QFileInfo(*full).path();
    if (share.kind == ShareKind::Local) {
        const auto real = confinedPath(share, parent, nullptr);
        if (!real)
            return real.failure();
        const QFileInfo target(*real + QLatin1Char('/') + name);
        if (!target.exists() && !target.isSymLink())
            return fail(QStringLiteral("share '%1': no file or folder %2").arg(share.name, path));
        const bool removed = target.isDir() && !target.isSymLink() ? QDir(target.filePath()).removeRecursively()
                                                                   : QFile::remove(target.filePath());
        if (!removed)
            return fail(QStringLiteral("share '%1': cannot delete %2").arg(share.name, target.filePath()));
        return {};
    }
    const auto nodes = nodesOf(share, share.kind == ShareKind::ClusterPath);
    if (!nodes)
        return nodes.failure();
    for (const NodeTransport &n : *nodes) {
        const auto real = confinedPath(share, parent, n.transport.get());
        if (!real)
            return real.failure();
        if (auto removed = n.transport->remove(*real + QLatin1Char('/') + name, true); !removed)
            return fail(QStringLiteral("share '%1': node %2: %3").arg(share.name, n.node.name, removed.error()));
    }
    return {};
}

Result<QStringList> ShareService::folders(const Share &share)
{
    if (share.kind == ShareKind::Local)
        return ShareUpload::folders(share);
    const auto entries = listFiles(share, QString());
    if (!entries)
        return entries.failure();
    QStringList names;
    for (const RemoteFileInfo &e : *entries) {
        if (e.isDirectory && !e.name.startsWith(QLatin1Char('.')))
            names << e.name;
    }
    return names;
}

} // namespace TrainDesk

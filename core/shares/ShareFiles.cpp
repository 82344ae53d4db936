// ShareService: directories and files of a share, on this machine or on the nodes.
#include "ShareService.h"

#include "LocalShareFiles.h"
#include "NodeShareCommands.h"
#include "NodeUpload.h"
#include "common/FileCompare.h"
#include "common/AtomicReplace.h"
#include "common/ErrnoText.h"
#include "common/PathConfinement.h"
#include "common/StaleParts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace TrainDesk {

namespace {

// Files TrainDesk leaves while it works: partial transfers and the shared-path check.
bool isInternal(const QString &name)
{
    return AtomicReplace::isPartFile(name) || name == NodeUpload::lockName()
           || name.startsWith(QLatin1String(".traindesk-share-check-"));
}

// The folder or file `path` of a share, resolved on the side that holds it, refused when a
// symbolic link leads it out of the share (then `*outside` is set, when given).
Result<QString> confinedPath(const Share &share, const QString &path, Transport *node, bool *outside = nullptr)
{
    const QString what = QStringLiteral("share '%1' at").arg(share.name);
    if (!node)
        return PathConfinement::confined(share.path, path, what);
    const auto checked = node->exec(PathConfinement::confinedCommand(share.path, path), 30000);
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


const std::atomic<bool> notCancelled{false};

QString what(const Share &share) { return QStringLiteral("share '%1'").arg(share.name); }

// Runs one of NodeShareCommands' commands (a walk that follows no link) on a node; its output.
Result<QByteArray> onNode(const Share &share, Transport &node, const QString &command, const QString &path)
{
    const auto ran = node.exec(command, 120000);
    if (!ran)
        return fail(QStringLiteral("%1: %2").arg(what(share), ran.error()));
    if (ran->exitCode != 0)
        return fail(QStringLiteral("%1: node %2: %3").arg(what(share), node.nodeName(), NodeShareCommands::reason(path, *ran)));
    return ran->stdOut;
}

// The node's file `relative` of the share, read through the walk that follows no link and
// streamed into a part file of `target`'s, which replaces `target` when complete.
VoidResult downloadFromNode(const Share &share, Transport &node, const QString &relative, const QString &target,
                            const TransferOptions &options)
{
    const QString source = QDir::cleanPath(share.path + QLatin1Char('/') + relative);
    const auto info = node.stat(source);  // its size, for progress only: what is read is checked on the node
    QFile part(AtomicReplace::uniquePartPath(target));
    if (!part.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(part.fileName(), errnoText(errno)));
    qint64 done = 0;
    bool written = true;
    ExecHandlers handlers;
    handlers.onStdOut = [&](const QByteArray &bytes) {
        written = written && part.write(bytes) == bytes.size();
        done += bytes.size();
        if (options.progress)
            options.progress(done, info ? info->size : done);
    };
    QByteArray said;
    handlers.onStdErr = [&said](const QByteArray &bytes) { said += bytes.left(4096 - said.size()); };
    const auto ran = node.exec(NodeShareCommands::readCommand(share.path, relative), handlers, options.cancel, 0);
    part.close();
    if (!ran || *ran != 0 || !written || part.error() != QFileDevice::NoError) {
        part.remove();
        if (!ran)
            return fail(QStringLiteral("%1: node %2: %3").arg(what(share), node.nodeName(), ran.error()));
        if (*ran != 0)
            return fail(QStringLiteral("%1: node %2: %3")
                            .arg(what(share), node.nodeName(), NodeShareCommands::reason(source, ExecResult{*ran, {}, said})));
        return fail(QStringLiteral("cannot write %1: %2").arg(target, errnoText(errno)));
    }
    return AtomicReplace::replace(part.fileName(), target);
}

} // namespace

Result<QString> ShareService::createDirectory(const Share &share, const QString &directory)
{
    if (directory.trimmed().isEmpty())
        return fail(QStringLiteral("share '%1': the directory name is empty").arg(share.name));
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    if (share.kind == ShareKind::Local) {
        if (auto made = LocalShareFiles::openFolder(share, ShareUpload::relativePath(share, *folder), true); !made)
            return made.failure();
        return *folder;
    }
    const auto nodes = nodesOf(share, share.kind == ShareKind::ClusterPath);
    if (!nodes)
        return nodes.failure();
    for (const NodeTransport &n : *nodes) {
        const QString make = NodeShareCommands::enter(share.path, ShareUpload::relativePath(share, *folder), true);
        if (auto made = onNode(share, *n.transport, make, *folder); !made)
            return made.failure();
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
    const QString relative = ShareUpload::relativePath(share, *folder);
    for (NodeUpload::Target &target : targets) {
        if (target.error.isEmpty()) {
            if (auto made = onNode(share, *target.transport, NodeShareCommands::enter(share.path, relative, true), *folder); !made)
                target.error = made.error();
        }
    }
    return NodeUpload::copy(what(share), targets, QDir::cleanPath(share.path), relative, files, *sources * nodes->size(),
                            cancel, progress);
}

Result<QList<RemoteFileInfo>> ShareService::listFiles(const Share &share, const QString &directory)
{
    const auto folder = ShareUpload::folderPath(share, directory);
    if (!folder)
        return folder.failure();
    QList<RemoteFileInfo> entries;
    if (share.kind == ShareKind::Local) {
        auto local = LocalShareFiles::list(share, ShareUpload::relativePath(share, *folder));
        if (!local)
            return local.failure();
        entries = *local;
    } else {
        const auto nodes = nodesOf(share, true);
        if (!nodes)
            return nodes.failure();
        if (auto inside = confinedPath(share, *folder, nodes->first().transport.get()); !inside)
            return inside.failure();
        // Listed in the folder entered without following links: links are listed as links.
        const QString list = NodeShareCommands::listCommand(share.path, ShareUpload::relativePath(share, *folder));
        const auto listed = onNode(share, *nodes->first().transport, list, *folder);
        if (!listed)
            return listed.failure();
        auto parsed = NodeShareCommands::parseList(*listed);
        if (!parsed)
            return fail(QStringLiteral("%1: node %2: %3").arg(what(share), nodes->first().node.name, parsed.error()));
        entries = *parsed;
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
    const QString part = AtomicReplace::uniquePartPath(target);
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
    StaleParts::removeFrom(QFileInfo(target).absolutePath());  // what killed downloads left
    if (share.kind == ShareKind::Local) {
        // Opened without following links: the file read is the one inside the share.
        if (auto copied = LocalShareFiles::download(share, ShareUpload::relativePath(share, *source), target, options); !copied)
            return copied.failure();
        return target;
    }
    const auto nodes = nodesOf(share, true);
    if (!nodes)
        return nodes.failure();
    if (auto inside = confinedPath(share, *source, nodes->first().transport.get()); !inside)
        return inside.failure();
    if (auto got = downloadFromNode(share, *nodes->first().transport, ShareUpload::relativePath(share, *source), target, options); !got)
        return got.failure();
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
        return LocalShareFiles::remove(share, ShareUpload::relativePath(share, *full));
    }
    const auto nodes = nodesOf(share, share.kind == ShareKind::ClusterPath);
    if (!nodes)
        return nodes.failure();
    for (const NodeTransport &n : *nodes) {
        if (const auto real = confinedPath(share, parent, n.transport.get()); !real)
            return real.failure();
        const QString remove = NodeShareCommands::removeCommand(share.path, ShareUpload::relativePath(share, *full));
        if (auto removed = onNode(share, *n.transport, remove, *full); !removed)
            return removed.failure();
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

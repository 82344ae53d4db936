// ShareService: the share records and their creation on this machine or on the nodes.
// The file operations are in ShareFiles.cpp.
#include "ShareService.h"

#include "common/ResultLog.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "store/Names.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

#include <QDir>
#include <QFileInfo>
#include <QUuid>

namespace TrainDesk {

namespace {

// Prints "dir" when `path` is a folder, "other" when something else is there, else the
// top-most folder that mkdir -p would create (what a refusal must remove again).
QString probePathCommand(const QString &path)
{
    return QStringLiteral("p=%1; if [ -d \"$p\" ]; then echo dir; elif [ -e \"$p\" ] || [ -L \"$p\" ]; then echo other; "
                          "else top=$p; d=$(dirname -- \"$p\"); while [ ! -e \"$d\" ]; do top=$d; d=$(dirname -- \"$d\"); "
                          "done; echo \"new $top\"; fi")
        .arg(shellQuote(path));
}

// Removes the empty folders from `path` up to `top`, which mkdir -p made.
QString removeCreatedCommand(const QString &path, const QString &top)
{
    return QStringLiteral("d=%1; while rmdir -- \"$d\" 2>/dev/null; do [ \"$d\" = %2 ] && break; d=$(dirname -- \"$d\"); done")
        .arg(shellQuote(path), shellQuote(top));
}

} // namespace

ShareService::ShareService(Store &store) : m_store(store) {}

QString ShareService::defaultLocalPath(const QString &workspace, const QString &name)
{
    return DataPaths::sharesDirectory() + QLatin1Char('/') + workspace + QLatin1Char('/') + name;
}

Result<Share> ShareService::find(const QString &workspace, const QString &name) const
{
    const auto ws = m_store.workspace(workspace);
    if (!ws)
        return ws.failure();
    return m_store.share(ws->id, name);
}

Result<QList<Share>> ShareService::list(const QString &workspace) const
{
    const auto ws = m_store.workspace(workspace);
    if (!ws)
        return ws.failure();
    return m_store.shares(ws->id);
}

QString ShareService::clusterName(const Share &share) const
{
    if (share.kind == ShareKind::Local)
        return {};
    const auto cluster = m_store.clusterById(share.clusterId);
    return cluster ? cluster->name : QStringLiteral("#%1 (deleted)").arg(share.clusterId);
}

VoidResult ShareService::remove(const QString &workspace, const QString &name)
{
    const auto share = find(workspace, name);
    if (!share)
        return share.failure();
    return m_store.deleteShare(share->id);
}

Result<Share> ShareService::create(const CreateShareRequest &request)
{
    const auto ws = m_store.workspace(request.workspace);
    if (!ws)
        return ws.failure();
    // Everything that can be refused without touching a disk is checked first.
    if (auto valid = validateName(QStringLiteral("share"), request.name); !valid)
        return valid.failure();
    if (m_store.share(ws->id, request.name))
        return fail(QStringLiteral("share '%1' already exists").arg(request.name));
    Share share;
    share.workspaceId = ws->id;
    share.name = request.name;
    share.kind = request.kind;
    const QString path = request.path.trimmed();
    if (request.kind == ShareKind::Local) {
        if (!request.cluster.isEmpty())
            return fail(QStringLiteral("share '%1' is local: it takes no cluster").arg(request.name));
        share.path = path.isEmpty() ? defaultLocalPath(ws->name, request.name) : QDir::cleanPath(path);
    } else {
        share.path = QDir::cleanPath(path);
    }
    if (path.isEmpty() && request.kind != ShareKind::Local)
        return fail(QStringLiteral("share '%1' needs a path on the nodes").arg(request.name));
    if (!QDir::isAbsolutePath(share.path) || !share.path.startsWith(QLatin1Char('/')))
        return fail(QStringLiteral("path '%1' of share '%2' must be an absolute path").arg(request.path, request.name));
    if (request.kind == ShareKind::Local)
        return createLocal(share);

    if (request.cluster.isEmpty())
        return fail(QStringLiteral("share '%1' of kind %2 needs a cluster").arg(request.name, toString(request.kind)));
    const auto cluster = m_store.cluster(ws->id, request.cluster);
    if (!cluster)
        return fail(QStringLiteral("share '%1': cluster '%2' not found in workspace '%3'")
                        .arg(request.name, request.cluster, ws->name));
    if (cluster->kind == ClusterKind::Local)
        return fail(QStringLiteral("share '%1': cluster '%2' is this machine: make a local share instead")
                        .arg(request.name, cluster->name));
    share.clusterId = cluster->id;
    return createOnNodes(share, *cluster);
}

Result<Share> ShareService::createLocal(const Share &share)
{
    const QFileInfo info(share.path);
    if (info.exists() && !info.isDir())
        return fail(QStringLiteral("%1 exists and is not a folder").arg(share.path));
    const bool existed = info.exists();
    if (!QDir().mkpath(share.path))
        return fail(QStringLiteral("cannot create folder %1").arg(share.path));
    const auto created = m_store.createShare(share);
    if (!created && !existed)
        QDir().rmdir(share.path);
    return created;
}

Result<Share> ShareService::createOnNodes(const Share &share, const Cluster &cluster)
{
    const auto nodes = nodesOf(cluster, false);
    if (!nodes)
        return fail(QStringLiteral("share '%1': %2").arg(share.name, nodes.error()));
    // A cluster share is made on the head node (the others see it); a replicated one on all.
    const QList<NodeTransport> makers = share.kind == ShareKind::ClusterPath ? nodes->mid(0, 1) : *nodes;
    QList<QPair<NodeTransport, QString>> made;  // node and the top folder it made
    const auto undo = [&made, &share] {
        for (const auto &[n, top] : std::as_const(made))
            logFailure(n.transport->exec(removeCreatedCommand(share.path, top)),
                       QStringLiteral("share '%1': node %2: cannot remove %3 it made").arg(share.name, n.node.name, top));
    };
    for (const NodeTransport &n : makers) {
        const auto probe = n.transport->exec(probePathCommand(share.path));
        if (!probe || probe->exitCode != 0) {
            undo();
            return fail(QStringLiteral("share '%1': node %2: cannot look at %3: %4")
                            .arg(share.name, n.node.name, share.path,
                                 probe ? QString::fromUtf8(probe->stdErr).trimmed() : probe.error()));
        }
        const QString answer = QString::fromUtf8(probe->stdOut).trimmed();
        if (answer == QLatin1String("other")) {
            undo();
            return fail(QStringLiteral("share '%1': node %2: %3 exists and is not a folder")
                            .arg(share.name, n.node.name, share.path));
        }
        if (auto madeDirs = n.transport->makeDirectories(share.path); !madeDirs) {
            undo();
            return fail(QStringLiteral("share '%1': node %2: %3").arg(share.name, n.node.name, madeDirs.error()));
        }
        if (answer.startsWith(QLatin1String("new ")))
            made.append({n, answer.mid(4)});
    }
    if (share.kind == ShareKind::ClusterPath) {
        if (auto shared = checkShared(share, *nodes); !shared) {
            undo();
            return shared.failure();
        }
    }
    const auto created = m_store.createShare(share);
    if (!created)
        undo();
    return created;
}

VoidResult ShareService::checkShared(const Share &share, const QList<NodeTransport> &nodes)
{
    const NodeTransport &head = nodes.first();
    const QString marker = share.path + QStringLiteral("/.traindesk-share-check-")
                           + QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (auto written = head.transport->writeFile(marker, QByteArrayLiteral("TrainDesk checks that this path is shared\n"));
        !written) {
        return fail(QStringLiteral("share '%1': node %2 cannot write into %3: %4")
                        .arg(share.name, head.node.name, share.path, written.error()));
    }
    VoidResult outcome;
    for (const NodeTransport &n : nodes.mid(1)) {
        // Listing the folder first makes an NFS client look again instead of trusting its
        // cache; a few tries give a slow server time.
        const QString check = QStringLiteral("ls -a %1 >/dev/null 2>&1; for i in 1 2 3; do test -f %2 && exit 0; "
                                             "sleep 1; ls -a %1 >/dev/null 2>&1; done; exit 1")
                                  .arg(shellQuote(share.path), shellQuote(marker));
        const auto seen = n.transport->exec(check);
        if (!seen) {
            outcome = fail(QStringLiteral("share '%1': node %2: %3").arg(share.name, n.node.name, seen.error()));
            break;
        }
        if (seen->exitCode != 0) {
            outcome = fail(QStringLiteral("share '%1': path %2 is not shared: node %3 does not see the file node %4 "
                                          "wrote there (a cluster share needs a path that is the same on every node, "
                                          "such as an NFS mount; make a replicated share otherwise)")
                               .arg(share.name, share.path, n.node.name, head.node.name));
            break;
        }
    }
    logFailure(head.transport->exec(QStringLiteral("rm -f -- %1").arg(shellQuote(marker))),
               QStringLiteral("share '%1': node %2: cannot remove the marker %3").arg(share.name, head.node.name, marker));
    return outcome;
}

Result<QList<ShareService::NodeTransport>> ShareService::nodesOf(const Cluster &cluster, bool headOnly) const
{
    QList<Node> nodes = m_store.allNodes(cluster.id);
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes").arg(cluster.name));
    if (headOnly)
        nodes = nodes.mid(0, 1);
    QList<NodeTransport> result;
    for (const Node &node : std::as_const(nodes)) {
        auto transport = openTransport(cluster, node);
        if (!transport)
            return transport.failure();
        result.append({node, *transport});
    }
    return result;
}

Result<QList<ShareService::NodeTransport>> ShareService::nodesOf(const Share &share, bool headOnly) const
{
    const auto cluster = m_store.clusterById(share.clusterId);
    if (!cluster)
        return fail(QStringLiteral("share '%1': its cluster (#%2) no longer exists").arg(share.name).arg(share.clusterId));
    return nodesOf(*cluster, headOnly);
}

} // namespace TrainDesk

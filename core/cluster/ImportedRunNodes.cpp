#include "ImportedRunNodes.h"

#include "metrics/EventFiles.h"
#include "store/Store.h"

#include <QDir>

#include <algorithm>

namespace TrainDesk::ImportedRunNodes {

namespace {

QString placeText(const Cluster &cluster, const QString &node)
{
    return QStringLiteral("node %1 of cluster '%2': ").arg(node, cluster.name);
}

} // namespace

Result<TensorBoardImport::Place> nodePlace(const Store &store, const QString &workspace, const QString &clusterName,
                                           const QString &node, const TransportOptions &options)
{
    const auto ws = store.workspace(workspace);
    if (!ws)
        return ws.failure();
    const auto cluster = store.cluster(ws->id, clusterName);
    if (!cluster)
        return cluster.failure();
    const QList<Node> nodes = store.nodes(cluster->id);
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes").arg(cluster->name));
    const auto found = node.isEmpty() ? nodes.begin()
                                      : std::find_if(nodes.begin(), nodes.end(), [&](const Node &n) { return n.name == node; });
    if (found == nodes.end()) {
        QStringList names;
        for (const Node &n : nodes)
            names << n.name;
        return fail(QStringLiteral("cluster '%1' has no node '%2' (its nodes: %3)").arg(cluster->name, node, names.join(QStringLiteral(", "))));
    }
    auto transport = openTransport(*cluster, *found, options);
    if (!transport)
        return transport.failure();
    TensorBoardImport::Place place;
    place.clusterId = cluster->id;
    place.node = found->name;
    place.files = nodeEventFiles(*transport, placeText(*cluster, found->name));
    return place;
}

Result<ShareFolder> shareFolder(const Store &store, const QString &workspace, const QString &shareName, const QString &path,
                                const QString &node, const TransportOptions &options)
{
    const auto ws = store.workspace(workspace);
    if (!ws)
        return ws.failure();
    const auto share = store.share(ws->id, shareName);
    if (!share)
        return share.failure();
    const QString relative = QDir::cleanPath(path.isEmpty() ? QStringLiteral(".") : path);
    if (relative.startsWith(QLatin1Char('/')) || relative == QLatin1String("..") || relative.startsWith(QLatin1String("../")))
        return fail(QStringLiteral("share '%1': %2 is not a path inside the share").arg(share->name, path));
    ShareFolder result;
    result.folder = relative == QLatin1String(".") ? share->path : share->path + QLatin1Char('/') + relative;
    if (share->kind == ShareKind::Local) {
        if (!node.isEmpty())
            return fail(QStringLiteral("share '%1' is a folder on this machine: it has no node to name").arg(share->name));
        return result;  // read here, as `runs import DIR`
    }
    const auto cluster = store.clusterById(share->clusterId);
    if (!cluster)
        return cluster.failure();
    auto place = nodePlace(store, workspace, cluster->name, node, options);
    if (!place)
        return place.failure();
    result.place = *place;
    return result;
}

void install()
{
    setNodeEventFilesOpener([](const Store &store, qint64 jobId) -> Result<std::shared_ptr<EventFiles>> {
        const auto job = store.jobById(jobId);
        if (!job)
            return job.failure();
        const auto cluster = store.clusterById(job->clusterId);
        if (!cluster)
            return cluster.failure();
        auto transport = openHeadTransport(store, *job);
        if (!transport)
            return transport.failure();
        return nodeEventFiles(*transport, placeText(*cluster, job->nodes.first()));
    });
}

} // namespace TrainDesk::ImportedRunNodes

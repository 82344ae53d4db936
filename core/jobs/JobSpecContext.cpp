#include "JobSpecContext.h"

#include "common/DataPaths.h"
#include "store/Store.h"

namespace TrainDesk {

SpecContext specContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster)
{
    SpecContext context;
    context.workspace = workspace.name;
    context.cluster = cluster.name;
    context.clusterNodeCount = int(store.nodes(cluster.id).size());
    QStringList shares;
    for (const Share &s : store.shares(workspace.id))
        shares << s.name;
    context.shareNames = shares;
    return context;
}

LaunchContext launchContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster)
{
    LaunchContext context;
    context.workspace = workspace.name;
    context.mountRoot = cluster.mountRoot;
    context.trainerDirectory = DataPaths::trainerDirectory();
    context.shares = store.shares(workspace.id);
    return context;
}

} // namespace TrainDesk

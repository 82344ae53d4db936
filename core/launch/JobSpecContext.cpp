#include "JobSpecContext.h"

#include "cluster/TrainerDeployment.h"

#include "common/DataPaths.h"
#include "store/Store.h"

namespace TrainDesk {

void setShares(SpecContext &context, const QList<Share> &shares, const Cluster &cluster,
               const std::function<QString(qint64)> &clusterName)
{
    QStringList seen;
    context.otherClustersShares.clear();
    for (const Share &s : shares) {
        if (clusterSeesShare(s, cluster))
            seen << s.name;
        else
            context.otherClustersShares.insert(s.name, s.kind == ShareKind::Local ? QString() : clusterName(s.clusterId));
    }
    context.shareNames = seen;
}

SpecContext specContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster)
{
    SpecContext context;
    context.workspace = workspace.name;
    context.cluster = cluster.name;
    context.clusterNodeCount = int(store.nodes(cluster.id).size());
    setShares(context, store.shares(workspace.id), cluster, [&store](qint64 id) {
        const auto owner = store.clusterById(id);
        return owner ? owner->name : QStringLiteral("#%1").arg(id);
    });
    return context;
}

LaunchContext launchContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster)
{
    LaunchContext context;
    context.workspace = workspace.name;
    context.mountRoot = cluster.mountRoot;
    context.slurm = cluster.kind == ClusterKind::Slurm;
    context.trainerDirectory = DataPaths::trainerDirectory();
    // SSH nodes run the copy TrainDesk puts on them (JobRunner::start); without a trainer
    // here, whatever traindesk-trainer the nodes have on their PATH.
    if (cluster.kind == ClusterKind::Ssh) {
        const auto bundle = TrainerDeployment::localBundle(context.trainerDirectory);
        context.trainerDirectory = bundle ? TrainerDeployment::remoteDirectory(cluster, *bundle) : QString();
    }
    // Only what the nodes see: the launch links every share into the job's mount root.
    for (const Share &s : store.shares(workspace.id)) {
        if (clusterSeesShare(s, cluster))
            context.shares << s;
    }
    return context;
}

} // namespace TrainDesk

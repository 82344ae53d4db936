#include "JobDemand.h"

namespace TrainDesk::JobDemand {

namespace {

// The processes a job runs on each of its nodes (rounded up).
int ranksPerNode(const JobSpec &spec)
{
    if (spec.customToolkitSettings)
        return 1;  // one command on the head node
    const int nodes = qMax(1, spec.nodeCount);
    return qMax(1, (qMax(1, spec.processCount()) + nodes - 1) / nodes);
}

} // namespace

ResourceDemand of(const JobSpec &spec, ClusterKind kind)
{
    ResourceDemand d;
    d.nodeCount = qMax(1, spec.nodeCount);
    d.ranks = ranksPerNode(spec);
    d.cores = d.ranks * qMax(1, spec.coresPerProcess.value_or(1));
    if (spec.gpusPerProcess)
        d.gpus = d.ranks * *spec.gpusPerProcess;
    const bool asks = spec.gpusPerProcess || spec.coresPerProcess;
    const bool packs = spec.wholeNodes ? !*spec.wholeNodes : (asks || kind == ClusterKind::Local);
    d.wholeNodes = d.nodeCount > 1 || !packs;
    return d;
}

std::optional<QString> refusal(const JobSpec &spec, const Cluster &cluster, const QList<Node> &nodes)
{
    if (cluster.kind == ClusterKind::Slurm || !spec.gpusPerProcess || *spec.gpusPerProcess == 0)
        return std::nullopt;
    const int ranks = ranksPerNode(spec);
    const int needed = ranks * *spec.gpusPerProcess;
    int most = 0;
    for (const Node &n : nodes)
        most = qMax(most, n.gpuCount);
    if (needed <= most)
        return std::nullopt;
    return QStringLiteral("properties.gpusPerProcess: the job needs %1 GPU%2 on a node (%3 process%4 x %5), and no node "
                          "of cluster '%6' has more than %7 (a probe counts them: traindesk cluster probe -n %6)")
        .arg(needed)
        .arg(needed == 1 ? QString() : QStringLiteral("s"))
        .arg(ranks)
        .arg(ranks == 1 ? QString() : QStringLiteral("es"))
        .arg(*spec.gpusPerProcess)
        .arg(cluster.name)
        .arg(most);
}

} // namespace TrainDesk::JobDemand

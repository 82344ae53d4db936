#include "SlurmCluster.h"

#include "store/Store.h"
#include "transport/TransportFactory.h"

namespace TrainDesk::SlurmCluster {

namespace {

Result<QByteArray> runOnLogin(const Cluster &cluster, const QString &command)
{
    auto transport = openTransport(cluster, Node{});
    if (!transport)
        return transport.failure();
    const auto result = (*transport)->exec(command, 30000);
    if (!result)
        return result.failure();
    if (result->exitCode != 0) {
        const QString why = QString::fromLocal8Bit(result->stdErr).trimmed();
        return fail(QStringLiteral("login node %1: '%2' failed (exit code %3)%4")
                        .arg(cluster.slurm.login, command)
                        .arg(result->exitCode)
                        .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
    return result->stdOut;
}

} // namespace

Result<QList<SlurmQueries::Partition>> partitions(const Cluster &cluster)
{
    const auto out = runOnLogin(cluster, SlurmQueries::partitionsCommand());
    if (!out)
        return out.failure();
    return SlurmQueries::parsePartitions(*out);
}

Result<Cluster> create(Store &store, Cluster cluster, const std::function<void(const QString &)> &message)
{
    const auto version = runOnLogin(cluster, QStringLiteral("sinfo --version"));
    if (!version)
        return fail(QStringLiteral("%1 (is it a Slurm login node with sinfo on PATH?)").arg(version.error()));
    if (message)
        message(QStringLiteral("login node %1: %2").arg(cluster.slurm.login, QString::fromUtf8(*version).trimmed()));
    const auto found = partitions(cluster);
    if (!found)
        return found.failure();
    if (!cluster.slurm.partition.isEmpty()
        && std::none_of(found->begin(), found->end(), [&](const auto &p) { return p.name == cluster.slurm.partition; })) {
        QStringList names;
        for (const auto &p : *found)
            names << p.name;
        return fail(QStringLiteral("Slurm has no partition '%1' (partitions: %2)")
                        .arg(cluster.slurm.partition, names.join(QStringLiteral(", "))));
    }
    const auto out = runOnLogin(cluster, SlurmQueries::nodesCommand(cluster.slurm));
    if (!out)
        return out.failure();
    QList<Node> nodes;
    for (const SlurmQueries::NodeStatus &s : SlurmQueries::parseNodes(*out)) {
        Node n;
        n.name = n.host = s.name;
        n.port = 0;
        n.slotCount = s.cpus;
        n.state = s.state;
        n.stateReason = s.reason;
        nodes << n;
    }
    if (nodes.isEmpty())
        return fail(QStringLiteral("Slurm lists no nodes%1").arg(cluster.slurm.partition.isEmpty()
                                                                     ? QString()
                                                                     : QStringLiteral(" in partition '%1'").arg(cluster.slurm.partition)));
    cluster.kind = ClusterKind::Slurm;
    cluster.targetNodeCount = int(nodes.size());
    if (message)
        message(QStringLiteral("Slurm nodes: %1").arg(nodes.size()));
    return store.createCluster(cluster, nodes);
}

VoidResult refresh(Store &store, const Cluster &cluster)
{
    const auto out = runOnLogin(cluster, SlurmQueries::nodesCommand(cluster.slurm));
    if (!out)
        return out.failure();
    const QList<SlurmQueries::NodeStatus> statuses = SlurmQueries::parseNodes(*out);
    for (const Node &n : store.allNodes(cluster.id)) {
        const auto s = std::find_if(statuses.begin(), statuses.end(), [&](const auto &st) { return st.name == n.name; });
        if (s == statuses.end())
            store.setNodeState(n.id, NodeState::Unusable, QStringLiteral("Slurm no longer lists this node"));
        else
            store.setNodeState(n.id, s->state, s->reason);
    }
    return {};
}

} // namespace TrainDesk::SlurmCluster

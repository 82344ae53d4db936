#include "SlurmCluster.h"

#include "common/ResultLog.h"
#include "SlurmEnvironment.h"

#include "store/Store.h"
#include "cluster/TransportFactory.h"

namespace TrainDesk::SlurmCluster {

namespace {

Result<QByteArray> run(Transport &login, const QString &command)
{
    const auto result = login.exec(command, 30000);
    if (!result)
        return result.failure();
    if (result->exitCode != 0) {
        const QString why = QString::fromLocal8Bit(result->stdErr).trimmed();
        return fail(QStringLiteral("login node %1: '%2' failed (exit code %3)%4")
                        .arg(login.nodeName(), command)
                        .arg(result->exitCode)
                        .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
    return result->stdOut;
}

Result<QByteArray> runOnLogin(const Cluster &cluster, const QString &command)
{
    auto transport = openTransport(cluster, Node{});
    if (!transport)
        return transport.failure();
    return run(**transport, command);
}

} // namespace

Result<QList<SlurmQueries::Partition>> partitions(Transport &login)
{
    const auto out = run(login, SlurmQueries::partitionsCommand());
    if (!out)
        return out.failure();
    return SlurmQueries::parsePartitions(*out);
}

Result<QList<SlurmQueries::Partition>> partitions(const Cluster &cluster)
{
    const auto out = runOnLogin(cluster, SlurmQueries::partitionsCommand());
    if (!out)
        return out.failure();
    return SlurmQueries::parsePartitions(*out);
}

ProbeCheck loginCheck(Transport &login, const SlurmSettings &settings)
{
    ProbeCheck check{QStringLiteral("login"), QStringLiteral("slurm"), QStringLiteral("Slurm"), false, {}, {}};
    const auto version = run(login, QStringLiteral("sinfo --version"));
    if (!version) {
        check.detail = version.error();
        check.hint = QStringLiteral("Give the cluster's login node, where sinfo, sbatch and squeue run");
        return check;
    }
    const auto found = partitions(login);
    if (!found) {
        check.detail = found.error();
        return check;
    }
    QStringList names;
    bool partitionFound = settings.partition.isEmpty();
    for (const SlurmQueries::Partition &p : *found) {
        names << QStringLiteral("%1%2 (%3 nodes, %4)").arg(p.name, p.isDefault ? QStringLiteral("*") : QString()).arg(p.nodes).arg(p.availability);
        partitionFound = partitionFound || p.name == settings.partition;
    }
    const auto nodes = run(login, SlurmQueries::nodesCommand(settings));
    int idle = 0, busy = 0, unusable = 0;
    for (const SlurmQueries::NodeStatus &n : nodes ? SlurmQueries::parseNodes(*nodes) : QList<SlurmQueries::NodeStatus>()) {
        if (n.state == NodeState::Idle)
            ++idle;
        else if (n.state == NodeState::Running)
            ++busy;
        else
            ++unusable;
    }
    check.detail = QStringLiteral("%1; partitions: %2; nodes: %3 idle, %4 busy, %5 unusable")
                       .arg(QString::fromUtf8(*version).trimmed(), names.join(QStringLiteral(", ")))
                       .arg(idle).arg(busy).arg(unusable);
    check.passed = partitionFound && idle + busy + unusable > 0;
    if (!partitionFound)
        check.hint = QStringLiteral("Pick one of the partitions listed (the Partition field)");
    else if (!check.passed)
        check.hint = QStringLiteral("Slurm lists no nodes here: ask the cluster's administrators");
    return check;
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
    auto created = store.createCluster(cluster, nodes);
    if (!created || !cluster.slurm.loginIsLocal())
        return created;
    // On this machine, the user's Slurm settings go with the cluster (the agent may have
    // started without them, or with others).
    const QStringList environment = SlurmEnvironment::fromThisProcess();
    if (auto saved = SlurmEnvironment::save(created->id, environment); !saved) {
        logFailure(store.deleteCluster(created->id),
                   QStringLiteral("cluster '%1': cannot remove it after its Slurm settings were refused").arg(cluster.name));
        return saved.failure();
    }
    if (message && !environment.isEmpty())
        message(QStringLiteral("Slurm settings kept with the cluster: %1").arg(environment.join(QLatin1Char(' '))));
    return created;
}

VoidResult refresh(Store &store, const Cluster &cluster)
{
    const auto out = runOnLogin(cluster, SlurmQueries::nodesCommand(cluster.slurm));
    if (!out)
        return out.failure();
    const QList<SlurmQueries::NodeStatus> statuses = SlurmQueries::parseNodes(*out);
    for (const Node &n : store.allNodes(cluster.id)) {
        const auto s = std::find_if(statuses.begin(), statuses.end(), [&](const auto &st) { return st.name == n.name; });
        const auto stored = s == statuses.end()
            ? store.setNodeState(n.id, NodeState::Unusable, QStringLiteral("Slurm no longer lists this node"))
            : store.setNodeState(n.id, s->state, s->reason);
        // The next refresh writes it again.
        logFailure(stored, QStringLiteral("node %1: cannot store Slurm's state of it").arg(n.name));
    }
    return {};
}

} // namespace TrainDesk::SlurmCluster

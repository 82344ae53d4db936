#include "ClusterHealthIssues.h"

#include <QCoreApplication>

namespace TrainDesk::Ui {

namespace {

QString healthText(const char *text)
{
    return QCoreApplication::translate("TrainDesk::Ui::ClusterHealthIssues", text);
}

SpecIssue warning(const QString &message)
{
    return {SpecIssue::Severity::Warning, QStringLiteral("properties.nodeCount"), message, 0, 0};
}

} // namespace

QList<NodeHealth> nodeHealthOf(const ResourceSnapshot::ClusterEntry &entry)
{
    QList<NodeHealth> nodes;
    for (const Node &n : entry.nodes) {
        if (n.index >= entry.cluster.targetNodeCount)
            continue;
        const bool usable = n.state == NodeState::Idle || n.state == NodeState::Running || n.state == NodeState::Preparing;
        nodes.append({n.name, usable, usable ? QString() : n.stateReason});
    }
    return nodes;
}

QList<SpecIssue> clusterHealthIssues(int nodeCount, const QString &cluster, const QList<NodeHealth> &nodes)
{
    QList<SpecIssue> issues;
    QStringList unusable, noHeadSsh;
    for (const NodeHealth &n : nodes) {
        if (n.usable)
            continue;
        const QString reason = n.reason.isEmpty() ? healthText("no reason recorded") : n.reason;
        unusable << QStringLiteral("%1: %2").arg(n.name, reason);
        if (n.reason.contains(QLatin1String("SSH from the head node")))
            noHeadSsh << n.name;
    }
    const qsizetype usable = nodes.size() - unusable.size();
    if (nodeCount > 1 && !noHeadSsh.isEmpty()) {
        issues << warning(healthText("%1 of cluster %2 failed the check \"SSH from the head node\": a job on several nodes "
                             "cannot start its processes there. Fix it and press Test connection on the cluster's page.")
                              .arg(noHeadSsh.join(QStringLiteral(", ")), cluster));
    }
    if (nodeCount > usable && nodeCount <= nodes.size()) {
        issues << warning(healthText("The job needs %1 nodes but only %2 of cluster %3 can take work (%4): it waits in the queue "
                             "until enough nodes are usable. Test connection on the cluster's page checks them again.")
                              .arg(nodeCount)
                              .arg(usable)
                              .arg(cluster, unusable.join(QStringLiteral("; "))));
    }
    return issues;
}

} // namespace TrainDesk::Ui

#include "QueueReason.h"

#include "jobspec/RunParameters.h"

#include <QCoreApplication>
#include <QSet>

namespace TrainDesk::Ui {

namespace {

QString reasonText(const char *text)
{
    return QCoreApplication::translate("QueueReason", text);
}

QString nodesText(int n)
{
    return n == 1 ? reasonText("1 node") : reasonText("%1 nodes").arg(n);
}

// Queued ahead of `job`: the scheduler's order (higher priority, then older).
bool ahead(const Job &other, const Job &job)
{
    if (other.priority != job.priority)
        return other.priority > job.priority;
    return other.created < job.created || (other.created == job.created && other.id < job.id);
}

} // namespace

QString queueReason(const ResourceSnapshot &snapshot, const Job &job)
{
    if (job.state != JobState::Queued)
        return {};
    const ResourceSnapshot::ClusterEntry *entry = snapshot.findCluster(job.clusterId);
    if (!entry)
        return reasonText("its cluster no longer exists: it cannot start");
    const Cluster &cluster = entry->cluster;
    if (cluster.kind == ClusterKind::Slurm) {
        return job.schedulerId.isEmpty() ? reasonText("being handed to Slurm")
                                         : reasonText("Slurm holds it: %1").arg(job.schedulerState);
    }
    const int needed = RunParameters::shapeOf(job.spec).nodes;
    // The nodes that can take work at all, and why the others cannot.
    int usable = 0;
    QStringList unusable;
    for (const Node &n : entry->nodes) {
        if (n.index >= cluster.targetNodeCount)
            continue;
        if (n.state == NodeState::Idle || n.state == NodeState::Running)
            ++usable;
        else
            unusable << (n.stateReason.isEmpty() ? QStringLiteral("%1 (%2)").arg(n.name, toString(n.state))
                                                 : QStringLiteral("%1 (%2: %3)").arg(n.name, toString(n.state), n.stateReason));
    }
    if (usable < needed) {
        QString text = reasonText("it needs %1 and cluster %2 has %3 usable").arg(nodesText(needed), cluster.name).arg(usable);
        if (!unusable.isEmpty())
            text += reasonText("; not usable: %1").arg(unusable.join(QStringLiteral(", ")));
        return text + reasonText(". Resize the cluster or lower nodeCount.");
    }
    QStringList holders;
    QSet<QString> busy;
    int queuedAhead = 0;
    for (const auto &ws : snapshot.workspaces) {
        for (const auto &exp : ws.experiments) {
            for (const Job &other : exp.jobs) {
                if (other.clusterId != job.clusterId || other.id == job.id)
                    continue;
                if (isActive(other.state)) {
                    for (const QString &n : other.nodes)
                        busy.insert(n);
                    holders << QStringLiteral("%1 (%2)").arg(other.name, other.nodes.join(QStringLiteral(", ")));
                } else if (other.state == JobState::Queued && ahead(other, job)) {
                    ++queuedAhead;
                }
            }
        }
    }
    const int free = usable - int(busy.size());
    QStringList parts;
    if (free < needed) {
        parts << reasonText("it needs %1 and %2 free: the others run %3")
                     .arg(nodesText(needed)).arg(std::max(0, free)).arg(holders.join(QStringLiteral(", ")));
    }
    if (queuedAhead > 0)
        parts << (queuedAhead == 1 ? reasonText("1 job is ahead of it in the queue")
                                   : reasonText("%1 jobs are ahead of it in the queue").arg(queuedAhead));
    if (parts.isEmpty())
        return reasonText("its nodes are free: the scheduler starts it at its next look (the agent looks every few seconds)");
    return parts.join(QStringLiteral("; "));
}

} // namespace TrainDesk::Ui

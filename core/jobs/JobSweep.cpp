#include "JobSweep.h"

#include "LaunchPlan.h"
#include "common/ShellQuote.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

namespace TrainDesk::JobSweep {

QString listMarkedCommand(const QString &jobUuid)
{
    // environ is NUL-separated: -z makes each variable a line, -x matches it whole.
    return QStringLiteral("grep -lzx %1 /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\\([0-9]*\\)/environ$|\\1|p'")
        .arg(shellQuote(jobMarkerVariable() + QLatin1Char('=') + jobUuid));
}

QString sweepCommand(const QString &jobUuid, int graceSeconds)
{
    return QStringLiteral("marked() { %1; }\n"
                          "pids=$(marked); [ -n \"$pids\" ] || exit 0\n"
                          "kill -TERM $pids 2>/dev/null\n"
                          "i=0\n"
                          "while [ $i -lt %2 ]; do sleep 0.5; pids=$(marked); [ -n \"$pids\" ] || exit 0; i=$((i + 1)); done\n"
                          "kill -KILL $pids 2>/dev/null\n"
                          "exit 0\n")
        .arg(listMarkedCommand(jobUuid))
        .arg(graceSeconds * 2);
}

bool sweepNode(Store &store, qint64 clusterId, const QString &nodeName, const QString &jobUuid, int graceSeconds)
{
    const auto cluster = store.clusterById(clusterId);
    if (!cluster || cluster->kind == ClusterKind::Slurm)
        return true;  // Slurm ends a job's processes itself (its cgroups)
    for (const Node &node : store.allNodes(cluster->id)) {
        if (node.name != nodeName)
            continue;
        auto transport = openTransport(*cluster, node);
        return transport
            && (*transport)->startDetached(QStringLiteral("/bin/sh -c %1").arg(shellQuote(sweepCommand(jobUuid, graceSeconds))));
    }
    return true;  // the node left the cluster: nothing to reach
}

QStringList sweepNodes(Store &store, const Job &job, int graceSeconds)
{
    QStringList unreached;
    if (job.uuid.isEmpty())
        return unreached;
    for (const QString &node : job.nodes) {
        if (!sweepNode(store, job.clusterId, node, job.uuid, graceSeconds))
            unreached << node;
    }
    return unreached;
}

} // namespace TrainDesk::JobSweep

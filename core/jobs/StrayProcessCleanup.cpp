#include "StrayProcessCleanup.h"

#include "JobScope.h"
#include "launch/LaunchPlan.h"
#include "common/ShellQuote.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

namespace TrainDesk::StrayProcessCleanup {

QString listMarkedCommand(const QString &jobUuid)
{
    // environ is NUL-separated: -z makes each variable a line, -x matches it whole.
    return QStringLiteral("grep -lzx %1 /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\\([0-9]*\\)/environ$|\\1|p'")
        .arg(shellQuote(jobMarkerVariable() + QLatin1Char('=') + jobUuid));
}

QString cleanupCommand(const QString &jobUuid, int graceSeconds)
{
    // The job's scope (JobScope), where the launch made one, is signalled too: it holds
    // what dropped the marker from its environment.
    // The job's docker containers (ContainerCommands labels them) go first: a launch script
    // killed before its cleanup, or a lost agent, leaves them running under the engine, where
    // the marker's search does not reach.
    const QString containers = QStringLiteral(
        "if command -v docker >/dev/null 2>&1; then td_c=$(timeout 30 docker ps -aq --filter %1 2>/dev/null); "
        "[ -z \"$td_c\" ] || timeout 60 docker rm -f $td_c >/dev/null 2>&1; fi\n")
        .arg(shellQuote(QStringLiteral("label=traindesk.job=") + jobUuid));
    return containers + QStringLiteral("marked() { %1; }\n"
                          "left() { pids=$(marked); [ -n \"$pids\" ] || %2; }\n"
                          "left || exit 0\n"
                          "kill -TERM $pids 2>/dev/null; %3\n"
                          "i=0\n"
                          "while [ $i -lt %4 ]; do sleep 0.5; left || exit 0; i=$((i + 1)); done\n"
                          "kill -KILL $pids 2>/dev/null; %5\n"
                          // KILL is delivered, not done, when kill returns: wait (a little) until
                          // they are gone, so whoever waits for the clean-up finds nothing left.
                          "i=0\n"
                          "while [ $i -lt 20 ]; do left || exit 0; sleep 0.25; i=$((i + 1)); done\n"
                          "exit 0\n")
        .arg(listMarkedCommand(jobUuid), JobScope::activeCommand(jobUuid), JobScope::signalCommand(jobUuid, QStringLiteral("TERM")))
        .arg(graceSeconds * 2)
        .arg(JobScope::signalCommand(jobUuid, QStringLiteral("KILL")));
}

bool startOnNode(Store &store, qint64 clusterId, const QString &nodeName, const QString &jobUuid, int graceSeconds)
{
    const auto cluster = store.clusterById(clusterId);
    if (!cluster || cluster->kind == ClusterKind::Slurm)
        return true;  // Slurm ends a job's processes itself (its cgroups)
    for (const Node &node : store.allNodes(cluster->id)) {
        if (node.name != nodeName)
            continue;
        auto transport = openTransport(*cluster, node);
        return transport
            && (*transport)->startDetached(QStringLiteral("/bin/sh -c %1").arg(shellQuote(cleanupCommand(jobUuid, graceSeconds))));
    }
    return true;  // the node left the cluster: nothing to reach
}

QStringList startOnNodes(Store &store, const Job &job, int graceSeconds)
{
    QStringList unreached;
    if (job.uuid.isEmpty())
        return unreached;
    for (const QString &node : job.nodes) {
        if (!startOnNode(store, job.clusterId, node, job.uuid, graceSeconds))
            unreached << node;
    }
    return unreached;
}

} // namespace TrainDesk::StrayProcessCleanup

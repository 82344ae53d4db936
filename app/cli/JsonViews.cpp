#include "JsonViews.h"

#include "jobspec/JobSpec.h"
#include "jobspec/Secrets.h"

#include <QJsonArray>

namespace TrainDesk::Cli {

namespace {
QJsonValue time(const QDateTime &t) { return t.isValid() ? QJsonValue(t.toString(Qt::ISODateWithMs)) : QJsonValue(); }
}

QJsonObject toJson(const Workspace &ws)
{
    return {{"name", ws.name}, {"creationTime", time(ws.created)}, {"provisioningState", "succeeded"}};
}

QJsonObject toJson(const Experiment &exp, const QString &workspace)
{
    return {{"name", exp.name}, {"workspace", workspace}, {"creationTime", time(exp.created)},
            {"provisioningState", "succeeded"}};
}

NodeCounts countNodes(const QList<Node> &nodes)
{
    NodeCounts c;
    for (const Node &n : nodes) {
        switch (n.state) {
        case NodeState::Idle: ++c.idle; break;
        case NodeState::Running: ++c.running; break;
        case NodeState::Preparing: ++c.preparing; break;
        case NodeState::Leaving: ++c.leaving; break;
        case NodeState::Unusable: ++c.unusable; break;
        }
    }
    return c;
}

QString clusterState(const Cluster &cluster, const QList<Node> &nodes)
{
    // Resizing while the nodes in use differ from the target (some still leaving or joining).
    const NodeCounts c = countNodes(nodes);
    const int inService = c.idle + c.running + c.preparing;
    return (c.leaving > 0 || inService != qMin(cluster.targetNodeCount, int(nodes.size()) - c.unusable))
        ? QStringLiteral("resizing")
        : QStringLiteral("steady");
}

QJsonObject toJson(const Node &node)
{
    return {{"name", node.name}, {"host", node.host}, {"port", node.port}, {"user", node.user},
            {"slots", node.slotCount}, {"state", toString(node.state)}, {"stateReason", node.stateReason},
            {"lastSeen", time(node.lastSeen)}};
}

QJsonObject toJson(const Cluster &cluster, const QList<Node> &nodes, const QString &workspace)
{
    const NodeCounts c = countNodes(nodes);
    QJsonArray nodeArray;
    for (const Node &n : nodes)
        nodeArray.append(toJson(n));
    return {{"name", cluster.name},
            {"workspace", workspace},
            {"kind", toString(cluster.kind)},
            {"allocationState", clusterState(cluster, nodes)},
            {"currentNodeCount", int(nodes.size())},
            {"targetNodeCount", cluster.targetNodeCount},
            {"mountRoot", cluster.mountRoot},
            {"nodeLostGraceSeconds", cluster.nodeLostGraceSeconds},
            {"nodeStateCounts", QJsonObject{{"idleNodeCount", c.idle},
                                            {"runningNodeCount", c.running},
                                            {"preparingNodeCount", c.preparing},
                                            {"leavingNodeCount", c.leaving},
                                            {"unusableNodeCount", c.unusable}}},
            {"nodes", nodeArray},
            {"creationTime", time(cluster.created)}};
}

QJsonObject toJson(const Job &job, const QString &workspace, const QString &experiment, const QString &cluster)
{
    QJsonArray errors;
    for (const JobError &e : job.errors) {
        QJsonArray details;
        for (const QString &d : e.details)
            details.append(QJsonObject{{"name", "detail"}, {"value", d}});
        errors.append(QJsonObject{{"code", e.code}, {"message", e.message}, {"details", details}});
    }
    QJsonObject info{{"startTime", time(job.started)},
                     {"endTime", time(job.ended)},
                     {"exitCode", job.exitCode ? QJsonValue(*job.exitCode) : QJsonValue()},
                     {"errors", errors}};
    static const char *const priorities[] = {"low", "normal", "high"};
    QJsonObject json{{"name", job.name},
            {"workspace", workspace},
            {"experiment", experiment},
            {"cluster", cluster},
            {"executionState", toString(job.state)},
            {"creationTime", time(job.created)},
            {"executionInfo", info},
            {"schedulingPriority", priorities[qBound(0, job.priority, 2)]},
            {"nodes", QJsonArray::fromStringList(job.nodes)},
            {"rankNodes", QJsonArray::fromStringList(job.rankNodes)},
            {"jobDirectory", job.jobDir},
            {"jobOutputDirectoryPathSegment",
             QStringLiteral("workspaces/%1/experiments/%2/jobs/%3/%4").arg(workspace, experiment, job.name, job.uuid)}};
    if (!job.schedulerId.isEmpty())
        json.insert("slurm", QJsonObject{{"jobId", job.schedulerId}, {"state", job.schedulerState}});
    // The job's whole resource, as `az batchai job show` gave it: every property of its
    // job.json (toolkit settings, mount volumes, output directories, environment variables,
    // constraints...) with secret values shown as <secret>, so that a sweep trial's
    // substituted command line can be read back. Names above win over the spec's.
    const ParsedJobSpec parsed = parseJobSpec(job.spec);
    const QJsonObject properties = jobSpecProperties(Secrets::redacted(parsed.spec));
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        if (!json.contains(it.key()))
            json.insert(it.key(), it.value());
    }
    // The service's ToolkitType words: custommpi, horovod, pytorch, custom, ...
    QString toolkit = toString(parsed.spec.toolkit()).remove(QLatin1String("Settings")).toLower();
    json.insert("toolkit", toolkit == QLatin1String("customtoolkit") ? QStringLiteral("custom") : toolkit);
    return json;
}

} // namespace TrainDesk::Cli

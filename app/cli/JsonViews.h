#pragma once

#include "store/Entities.h"

#include <QJsonObject>

namespace TrainDesk::Cli {

// The JSON that `-o json` prints for each resource, shaped like the service's
// responses (executionState, executionInfo, ...) so scripts written for `az` carry over.
QJsonObject toJson(const Workspace &ws);
QJsonObject toJson(const Experiment &exp, const QString &workspace);
QJsonObject toJson(const Cluster &cluster, const QList<Node> &nodes, const QString &workspace);
QJsonObject toJson(const Node &node);
QJsonObject toJson(const Job &job, const QString &workspace, const QString &experiment, const QString &cluster);

// Cluster summary counts, as `cluster show` prints them.
struct NodeCounts
{
    int idle = 0, running = 0, preparing = 0, leaving = 0, unusable = 0;
};
NodeCounts countNodes(const QList<Node> &nodes);
QString clusterState(const Cluster &cluster, const QList<Node> &nodes);

} // namespace TrainDesk::Cli

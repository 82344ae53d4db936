#pragma once

#include "jobspec/JobSpec.h"
#include "session/ResourceSnapshot.h"

namespace TrainDesk::Ui {

// One node of the job's target cluster as the job editor weighs it.
struct NodeHealth
{
    QString name;
    bool usable = true;  // idle, running or preparing: it takes work now or soon
    QString reason;      // why it is unusable
};

// The nodes in service of a cluster (parked and leaving ones are out).
QList<NodeHealth> nodeHealthOf(const ResourceSnapshot::ClusterEntry &entry);

// Warnings (at properties.nodeCount) that submit would not give: a multi-node job on a
// cluster where a node failed "SSH from the head node" (mpirun could not start there), and a
// job that needs more nodes than can take work (it would wait in the queue). Each names the
// nodes, their reasons and the button that checks them again.
QList<SpecIssue> clusterHealthIssues(int nodeCount, const QString &cluster, const QList<NodeHealth> &nodes);

} // namespace TrainDesk::Ui

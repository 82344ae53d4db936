#pragma once

#include "jobspec/JobSpec.h"
#include "LaunchPlan.h"
#include "store/Entities.h"
#include "cluster/ClusterShares.h"

#include <functional>

namespace TrainDesk {

class Store;


// context.shareNames: the shares the cluster's nodes see; otherClustersShares: the others,
// with the name of their cluster (for the error that says where the share is), or "" for a
// local share: a folder only this machine has.
void setShares(SpecContext &context, const QList<Share> &shares, const Cluster &cluster,
               const std::function<QString(qint64)> &clusterName);

// What the spec checks need to know about where a job goes: the cluster's size and the
// workspace's shares.
SpecContext specContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster);

// The parts of a launch context that come from the store: mount root, shares, trainer folder.
// Nodes, names and uuid are the caller's.
LaunchContext launchContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster);

} // namespace TrainDesk

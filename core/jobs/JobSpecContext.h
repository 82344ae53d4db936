#pragma once

#include "JobSpec.h"
#include "LaunchPlan.h"
#include "store/Entities.h"

namespace TrainDesk {

class Store;

// What the spec checks need to know about where a job goes: the cluster's size and the
// workspace's shares.
SpecContext specContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster);

// The parts of a launch context that come from the store: mount root, shares, trainer folder.
// Nodes, names and uuid are the caller's.
LaunchContext launchContextFor(const Store &store, const Workspace &workspace, const Cluster &cluster);

} // namespace TrainDesk

#pragma once

#include "common/Result.h"
#include "store/Entities.h"

namespace TrainDesk {

class Transport;

// What a job spread over several SSH nodes needs besides the head node's launch script
// (JobRunner::start calls these).
namespace MultiNodeJob {

// mpirun logs in from the head node to each other node with ssh: checks that it can,
// in parallel, before the job starts.
VoidResult checkHeadReachesWorkers(const Cluster &cluster, const QList<Node> &nodes, Transport &head);

// Shell text put before the launch script's command on the head node: points mpirun's
// ssh at the cluster's own SSH config (ClusterMesh) when there is one.
QString launchPrefix(const Cluster &cluster);

} // namespace MultiNodeJob
} // namespace TrainDesk

#pragma once

#include "ResourcePlacement.h"
#include "jobspec/JobSpec.h"
#include "store/Entities.h"

#include <optional>

namespace TrainDesk {

// What a job.json asks of each node: a job of several nodes, or one that says wholeNodes,
// holds its nodes whole (as Batch AI gave VMs); a one-node job is packed onto free cores and
// GPUs when it names gpusPerProcess or coresPerProcess, or when its cluster is `local`
// (one machine shared by its jobs). Its ranks take a core each unless coresPerProcess.
namespace JobDemand {

ResourceDemand of(const JobSpec &spec, ClusterKind kind);
// Why no node of the cluster could ever hold the job (its GPUs), with the field named; at
// submit. Slurm clusters are Slurm's to judge.
std::optional<QString> refusal(const JobSpec &spec, const Cluster &cluster, const QList<Node> &nodes);

} // namespace JobDemand

} // namespace TrainDesk

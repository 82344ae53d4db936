#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "store/Entities.h"

namespace TrainDesk {

class Store;
struct JobSpec;

// What runs for a job, as launch/LaunchPlan builds it from the store's view of its
// workspace, cluster and nodes. Shared by what clients ask before a job runs
// (JobSubmission: submit's check, `job plan`, `job show`) and by the agent's start
// (JobRunner), so that what a client is shown is what the agent launches.
namespace JobPlans {

// The plan of a spec (checked and parsed by the caller) as job `jobName` of `experiment`,
// before it exists (its uuid is "<uuid>"). On Slurm the allocation's nodes stand in as
// node-0, node-1, ... and the plan carries the batch script.
Result<LaunchPlan> ofSpec(const Store &store, const JobSpec &spec, const Workspace &ws, const Cluster &cluster,
                          const QString &experiment, const QString &jobName);
// The plan of a stored job on `nodes` (head node first): its uuid, its packed grant, and
// the attempt it is (a retried job's previous uuid).
Result<LaunchPlan> ofJob(const Store &store, const Job &job, const JobSpec &spec, const Cluster &cluster,
                         const QList<Node> &nodes);

} // namespace JobPlans
} // namespace TrainDesk

#pragma once

#include "jobspec/JobSpec.h"
#include "LaunchPlan.h"
#include "common/Result.h"
#include "store/Entities.h"

namespace TrainDesk {

// The sbatch script of a job on a Slurm cluster, written beside launch.sh in the job
// directory: the #SBATCH lines say what Slurm allocates (nodes, tasks spread evenly, GPUs,
// time, nice, partition/account/qos), and the body writes the hostfile from the allocation
// and runs launch.sh, the same script SSH clusters run. The secrets stay in launch.sh
// (owner-only, in the job directory), out of Slurm's spool, which keeps batch scripts.
Result<QString> slurmBatchScript(const LaunchPlan &plan, const JobSpec &spec, const SlurmSettings &settings,
                                 const QString &jobName);

// Stand-ins for the allocation's nodes in a plan: node-i is the i-th node Slurm gives, with
// processCount / nodeCount slots, so the plan's rank map holds once node-i is known. Its
// host is slurmAddressPlaceholder(i): what rendezvous variables (MASTER_ADDR, TF_CONFIG, ...)
// name.
QList<Node> slurmAllocationNodes(const JobSpec &spec);

// Words in launch.sh that the batch script replaces with the i-th allocated node's Slurm
// name (what mpirun's --host matches in the allocation) and its address (NodeAddr: what the
// ranks connect to; the name need not resolve) before it runs launch.sh.
QString slurmNodePlaceholder(const QString &index);
QString slurmAddressPlaceholder(const QString &index);
// The word the batch script replaces with each rank's threads: the CPUs Slurm gave the job on
// the batch node over its tasks there (SLURM_CPUS_ON_NODE / SLURM_NTASKS_PER_NODE, at least 1).
QString slurmThreadsPlaceholder();

// The Slurm side of `traindesk job plan`: the batch script, then launch.sh as shown.
QString slurmPlanText(const LaunchPlan &plan);

} // namespace TrainDesk

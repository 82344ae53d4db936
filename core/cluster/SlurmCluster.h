#pragma once

#include "NodeProbe.h"
#include "SlurmQueries.h"
#include "common/Result.h"
#include "store/Entities.h"

#include <functional>

namespace TrainDesk {

class Store;
class Transport;

// A Slurm cluster as TrainDesk keeps it: the login node it reaches (the cluster's
// transport) and Slurm's compute nodes as the cluster's nodes, their states read from
// sinfo. Slurm decides what runs where; TrainDesk never resizes it.
namespace SlurmCluster {

// Checks the login node (sinfo answers, the partition exists and has nodes), then stores
// `cluster` (kind slurm, login and credentials set) with Slurm's nodes.
Result<Cluster> create(Store &store, Cluster cluster, const std::function<void(const QString &)> &message);
// Node states from sinfo: idle, running (allocated, mixed), unusable with Slurm's reason.
VoidResult refresh(Store &store, const Cluster &cluster);
// The partitions the login node offers (the wizard's list, `cluster show` hints).
Result<QList<SlurmQueries::Partition>> partitions(const Cluster &cluster);
Result<QList<SlurmQueries::Partition>> partitions(Transport &login);
// The connection test's Slurm check on a login node: sinfo answers, the partition exists,
// and how many of its nodes are idle, busy and unusable.
ProbeCheck loginCheck(Transport &login, const SlurmSettings &settings);

} // namespace SlurmCluster

} // namespace TrainDesk

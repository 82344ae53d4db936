#pragma once

#include "common/Result.h"
#include "store/Entities.h"

#include <functional>
#include <memory>

namespace TrainDesk {

class Transport;

// mpirun on the head node starts the ranks on the other nodes with ssh, so the head
// node must log in to each of them without a password. TrainDesk sets that up per
// cluster, without touching the user's own ~/.ssh/config or keys: a key of the cluster's
// own on the head node, its public key in each node's authorized_keys, and an ssh config
// with each node's port and user and the host keys TrainDesk has verified.
namespace ClusterMesh {

using TransportOpener = std::function<Result<std::shared_ptr<Transport>>(const Node &)>;

// Relative to the head node's home directory.
QString directoryRelativePath(const Cluster &cluster);
QString configRelativePath(const Cluster &cluster);

// `nodes`: every node of the cluster (parked ones too, so a resize needs no new setup),
// head node first.
VoidResult setUp(const Cluster &cluster, const QList<Node> &nodes, const TransportOpener &open);

} // namespace ClusterMesh
} // namespace TrainDesk

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

// The cluster's id on every machine: this data directory's installation id and the
// cluster's id in it ("9f3c1a2b4d5e6f70-3"), so that clusters of two data directories on one
// node (equal names and store ids) never share a folder or a key.
QString globalId(const Cluster &cluster);
// Relative to the head node's home directory: .traindesk/clusters/<globalId>-<name>.
QString directoryRelativePath(const Cluster &cluster);
QString configRelativePath(const Cluster &cluster);

// The cluster's key pair on this machine (kept so that a node that joins later gets it).
QString localKeyPath(const Cluster &cluster);

// `nodes`: every node of the cluster (parked ones too, so a resize needs no new setup),
// head node first.
VoidResult setUp(const Cluster &cluster, const QList<Node> &nodes, const TransportOpener &open);

// What tearDown did: one line per thing removed, and one per thing it could not reach.
struct TearDownReport
{
    QStringList removed;
    QStringList leftBehind;
};

// The reverse of setUp, for a deleted cluster: the cluster's public key line out of each
// node's ~/.ssh/authorized_keys, the head node's folder of the cluster (its key pair,
// known_hosts and ssh_config, unless another TrainDesk's key is in it), and the key pair
// here. Nothing else: the user's keys and TrainDesk's login key stay. Nodes are asked in
// parallel; an unreachable one is named with the key line still in it. `message` gets
// each line as it happens.
TearDownReport tearDown(const Cluster &cluster, const QList<Node> &nodes, const TransportOpener &open,
                        const std::function<void(const QString &)> &message = {});

} // namespace ClusterMesh
} // namespace TrainDesk

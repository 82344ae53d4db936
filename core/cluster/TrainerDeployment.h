#pragma once

#include "common/Result.h"
#include "store/Entities.h"

namespace TrainDesk {

class Transport;

// The bundled trainer on the nodes of an SSH cluster. Jobs run `traindesk-trainer` on
// every node, and nodes other than this machine do not have its folder: before a job
// starts, each of its nodes gets a copy in a folder named after its hash (a checksum of
// this version) under the cluster's mount root (~/traindesk/mounts/<workspace>/<cluster>
// by default), which has the same path on every node. A node that has that folder already
// gets nothing.
// What is copied: the portable trainer (installer/portable: the trainer, its CUDA plugin,
// the libraries a bare node lacks and a relocated Open MPI, so it runs on a node with no
// package installed), sent as its .tar.gz, checked against its SHA-256 on the node and
// unpacked into a temporary folder that is renamed into place. Where this machine has no
// portable trainer (a build without it), the executable and its CUDA plugin alone.
namespace TrainerDeployment {

struct Bundle
{
    QString archive;      // traindesk-trainer-VERSION-linux-x86_64.tar.gz, or empty
    QString executable;   // traindesk-trainer on this machine (without an archive)
    QString cudaPlugin;   // libtraindesk-trainer-cuda.so beside it, or empty
    QString sha256;       // of the archive, or of the executable and plugin together
    QString id;           // its first 16 hex digits
};

// The portable trainer in `trainerDirectory` (DataPaths::trainerDirectory()) or in
// ../lib/traindesk beside it (installed), else the bare trainer there; a failure names
// the folder when it has none.
Result<Bundle> localBundle(const QString &trainerDirectory);
// The folder the trainer runs from on every node of `cluster`.
QString remoteDirectory(const Cluster &cluster, const Bundle &bundle);
// Copies the bundle to the node unless it is there already (each file written atomically).
VoidResult ensureOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle);
// The same on every node of `nodes`, in parallel; a failure names the node.
VoidResult ensureOnNodes(const Cluster &cluster, const QList<Node> &nodes, const Bundle &bundle);

} // namespace TrainerDeployment
} // namespace TrainDesk

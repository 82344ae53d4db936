#pragma once

#include "common/Result.h"
#include "store/Entities.h"

namespace TrainDesk {

class Transport;

// The bundled trainer on the nodes of an SSH cluster. Jobs run `traindesk-trainer` on
// every node, and nodes other than this machine do not have its folder: before a job
// starts, each of its nodes gets a copy (the executable and, where built, its CUDA plugin)
// in a folder named after the files' hash (a checksum of this version) under the cluster's
// mount root (~/traindesk/mounts/<workspace>/<cluster> by default), which has the same path
// on every node. A node that has that folder already gets nothing.
namespace TrainerDeployment {

struct Bundle
{
    QString executable;   // traindesk-trainer on this machine
    QString cudaPlugin;   // libtraindesk-trainer-cuda.so beside it, or empty
    QString id;           // the first 16 hex digits of the SHA-256 of both
};

// The trainer in `trainerDirectory` (DataPaths::trainerDirectory()); a failure names the
// folder when it has no trainer.
Result<Bundle> localBundle(const QString &trainerDirectory);
// The folder the trainer runs from on every node of `cluster`.
QString remoteDirectory(const Cluster &cluster, const Bundle &bundle);
// Copies the bundle to the node unless it is there already (each file written atomically).
VoidResult ensureOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle);
// The same on every node of `nodes`, in parallel; a failure names the node.
VoidResult ensureOnNodes(const Cluster &cluster, const QList<Node> &nodes, const Bundle &bundle);

} // namespace TrainerDeployment
} // namespace TrainDesk

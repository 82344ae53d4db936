#pragma once

#include "store/Entities.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// What a job asks of each of its nodes (jobs/JobDemand reads it from a job.json).
struct ResourceDemand
{
    bool wholeNodes = true;  // nodes that run nothing else, as Batch AI gave its VMs
    int nodeCount = 1;
    int cores = 1;           // per node; more than a node has: all of its cores
    // Per node; unset: one per rank, as many as the node has (Horovod's one process a GPU).
    std::optional<int> gpus;
    int ranks = 1;           // per node, for the convention above

    QString describe() const;  // "2 GPUs and 2 cores", "1 whole node"
};

// The cores and GPUs of a cluster's nodes and which are held: jobs are placed on the free
// ones, lowest indices first, a packed job on one node, a whole-node job on nodes nothing
// holds. No widgets, no store: the scheduler (JobRunner::schedule) builds one per pass from
// the nodes and the running jobs' placements.
class ResourcePlacement
{
public:
    struct Offer
    {
        QString node;
        int cores = 1;
        int gpus = 0;
    };
    struct Placement
    {
        QStringList nodes;        // head node first
        QList<NodeGrant> grants;  // what it holds on each (every core and GPU when whole)
        bool wholeNodes = true;
    };

    explicit ResourcePlacement(const QList<Offer> &nodes);

    // A running job's hold: its grants, or its nodes whole when it has none (whole-node
    // jobs, and jobs started before packing). Nodes not offered are passed over.
    void hold(const QStringList &nodes, const QList<NodeGrant> &grants);
    void release(const QList<NodeGrant> &grants);
    // Places `demand` on `candidates` (node names in order of preference) and holds it;
    // nothing when it does not fit now (whyNot says why).
    std::optional<Placement> place(const ResourceDemand &demand, const QStringList &candidates);
    // "needs 2 GPUs, node gpu1 has 1 free", for `job show` while the job waits.
    QString whyNot(const ResourceDemand &demand, const QStringList &candidates) const;

    int freeCores(const QString &node) const;
    int freeGpus(const QString &node) const;
    bool isFree(const QString &node) const;  // nothing held on it

private:
    struct NodeState
    {
        Offer offer;
        QList<bool> coreHeld;
        QList<bool> gpuHeld;
    };
    // The cores and GPUs `demand` takes on `node`, or nothing when it cannot fit there now.
    std::optional<NodeGrant> fit(const ResourceDemand &demand, const NodeState &node) const;
    void mark(const QList<NodeGrant> &grants, bool held);

    QHash<QString, NodeState> m_nodes;
};

} // namespace TrainDesk

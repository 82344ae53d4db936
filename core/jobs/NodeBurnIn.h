#pragma once

#include "common/Result.h"
#include "store/Entities.h"
#include "store/ReliabilityRecords.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

namespace TrainDesk {

class Store;

// One figure of a burn-in: what was measured on a node (or between two), set against what
// it should be.
struct BurnInFigure
{
    enum class Outcome { Passed, Failed, Skipped };
    QStringList nodes;   // the node, or the two nodes of an all-reduce
    QString id;          // gpuHealth, gpuSelfCheck, gpuMemory, allreduce, path, pairblame
    QString title;
    Outcome outcome = Outcome::Passed;
    QString detail;      // the figure and what was expected, or why it was skipped
    double measured = 0; // all-reduce: bus bandwidth in GB/s
    double expected = 0; // all-reduce: the least bus bandwidth accepted, GB/s (0: none known)

    QString toText() const;  // "PASS node1+node2  All-reduce (MPI): ..."
};

struct BurnInReport
{
    QList<BurnInFigure> figures;
    QMap<QString, QString> failedNodes;  // node -> why (the failing figures)
};

// `cluster probe --burn-in`, and before a job's start or every N hours when the cluster
// says so (BurnInSchedule): nodes are checked actively before they are trusted.
// - on each node with an NVIDIA GPU (nvidia-smi -L lists one): the GPUs' temperature,
//   clocks and uncorrected ECC errors from nvidia-smi and XID errors in the kernel log; the
//   trainer's GPU self-check (a short run with --device cuda, which first compares GPU and
//   CPU steps); the trainer's --gpu-memory-test. Nodes without a GPU skip these, saying so.
// - between nodes: the trainer's --allreduce-test (NCCL between GPU nodes, MPI otherwise)
//   on each neighbouring pair of a ring over the nodes (every pair for 3), its bus bandwidth
//   set against the slower node's link speed; a node whose every pair is slow is the slow
//   one. Of 2 nodes, whose one pair says nothing of which is slow, each node's own path to
//   this machine is timed: a node clearly slower than the other is the slow one; else the
//   burn-in says it cannot tell and blames neither. One node alone: 2 ranks on it, no link
//   to compare.
// A node that fails becomes unusable with "burn-in: <why>" and is left out of scheduling
// until a burn-in passes on it.
class NodeBurnIn
{
public:
    explicit NodeBurnIn(Store &store);

    // The least share of the link's speed an all-reduce's bus bandwidth must reach: a floor,
    // not a target. MPI over TCP between busy nodes was measured at 15 % of a 10 Gb/s virtual
    // link (2 cores shared by many processes); a link throttled, flapping or running at a
    // lower negotiated speed (100 Mb/s on a 10 Gb/s network: 1 %) falls far below.
    static constexpr double leastLinkShare = 0.05;
    static constexpr int allreduceMegabytes = 16;
    static constexpr int allreduceIterations = 3;
    // Of two nodes' paths to this machine, one under this share of the other's is the slow
    // one: a throttled or degraded link is many times slower; a busy machine's SSH speeds
    // vary by less.
    static constexpr double clearlySlower = 0.25;
    // 0 or 1: which of two paths' rates (MB/s) is clearly the slower; -1: neither.
    static int slowerOfTwo(double a, double b);

    // Runs every check on `nodes` of `cluster` (SSH or local; Slurm is refused). `onFigure`
    // gets each figure as it is known, one call at a time.
    Result<BurnInReport> run(const Cluster &cluster, const QList<Node> &nodes,
                             const std::function<void(const BurnInFigure &)> &onFigure = {});
    // Failing nodes unusable with the reason; nodes a burn-in had made unusable that now
    // pass are idle again. Records the time of the run in the cluster's schedule.
    void applyVerdicts(const Cluster &cluster, const QList<Node> &nodes, const BurnInReport &report);
    // Before a job starts on `nodes`: burns them in when the cluster's schedule wants it
    // now; false when one failed (unusable now: the scheduler picks others next time).
    bool passesBeforeJob(const Cluster &cluster, const QList<Node> &nodes);
    // Whether `schedule` wants a burn-in now: before a job (beforeEachJob), or every N hours.
    static bool due(const BurnInSchedule &schedule, bool beforeJob, const QDateTime &now);
    static QString reasonPrefix() { return QStringLiteral("burn-in: "); }

private:
    Store &m_store;
};

} // namespace TrainDesk

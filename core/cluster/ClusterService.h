#pragma once

#include "ClusterMesh.h"
#include "CreateClusterRequest.h"
#include "NodeProbe.h"
#include "SetupTask.h"
#include "common/Result.h"
#include "store/Entities.h"
#include "transport/SshParameters.h"
#include "transport/TransferOptions.h"

#include <QHash>

#include <memory>

#include <functional>

namespace TrainDesk {

class Store;
class Transport;

// What happens while a cluster is created, resized or probed: one line per step, and
// probe results as they arrive. Called from worker threads, one call at a time.
struct ClusterEvents
{
    std::function<void(const QString &)> message;
    std::function<void(const ProbeCheck &)> check;
};

// Cluster life cycle over the Store and the nodes: create (credentials, key deployment,
// host keys, SSH between nodes, setup task), resize (nodes above the target drain and
// leave; growing brings them back through the setup task), the setup task on demand,
// delete, probe, node states and commands on a node. Blocks on the nodes: run it off the GUI thread, with a Store
// of that thread.
class ClusterService
{
public:
    explicit ClusterService(Store &store);

    Result<Cluster> create(const CreateClusterRequest &request, const ClusterEvents &events = {});
    Result<Cluster> resize(const QString &workspace, const QString &name, int targetNodeCount,
                           const ClusterEvents &events = {});
    // Deletes the cluster here (refused while it has queued or running jobs), then takes
    // back what its creation put on the nodes (ClusterMesh::tearDown) unless `keepKeys`.
    // Unreachable nodes do not stop the delete: the report names them.
    Result<ClusterMesh::TearDownReport> remove(const QString &workspace, const QString &name, bool keepKeys = false,
                                               const ClusterEvents &events = {});

    // The connection test of the cluster wizard: probes the nodes of a request before
    // anything is stored (new host keys as the request says).
    // `otherShares`: the workspace's shares the new cluster will not use, named in the
    // shares check when `shares` is empty.
    static QList<NodeProbeResult> testNodes(const CreateClusterRequest &request, const QList<Share> &shares,
                                            const ClusterEvents &events, const CancelFlag *cancel = nullptr,
                                            const QStringList &otherShares = {});
    // A Slurm request's login node, logged in to as the request says (host keys asked).
    static Result<std::shared_ptr<Transport>> slurmLoginTransport(const CreateClusterRequest &request);
    // Probes every node in the cluster; the cores found become the nodes' MPI slots.
    Result<QList<NodeProbeResult>> probe(const QString &workspace, const QString &name, const ClusterEvents &events,
                                         const CancelFlag *cancel = nullptr);
    // `cluster setup --install-missing` (and any GUI that offers it): probes the nodes, then
    // installs the packages the trainer lacks on each (apt-get through passwordless sudo),
    // saying each step through `events.message`. Returns what could not be fixed, one line
    // per node (empty: every node has what the trainer needs).
    QStringList installMissingPackages(const QString &workspace, const QString &name, const ClusterEvents &events = {});
    // What a probe learnt of the nodes it reached (cores, facts), kept in the store; a failed
    // write is logged (the next probe writes them again).
    static void recordFacts(Store &store, const QList<NodeProbeResult> &results);

    // Node states from what the nodes answer: unreachable nodes become unusable (with the
    // reason) and usable again when they answer; leaving nodes whose jobs ended leave.
    VoidResult refresh(qint64 clusterId);

    // Runs a command on one node, streaming its output; returns its exit status.
    Result<int> exec(const QString &workspace, const QString &cluster, const QString &node, const QString &command,
                     const ExecHandlers &handlers, const CancelFlag *cancel = nullptr, int timeoutMs = 0);
    Result<QList<SetupLog>> setupLogs(const QString &workspace, const QString &cluster, const QString &node = {});
    // Repairs SSH between the nodes of an SSH cluster of several nodes first (the head
    // node's cluster folder and keys, ClusterMesh::setUp), then runs the cluster's setup task
    // again (after its script changed, say) on the named nodes, or on every node in service
    // when none is named, in parallel; with no setup task the repair is all. The nodes are
    // preparing meanwhile, then idle, or unusable with the reason. Refused for nodes that
    // run a job. One log per node, in node order; a failed run is a log, not a failure.
    Result<QList<SetupLog>> runSetup(const QString &workspace, const QString &cluster, const QStringList &nodeNames,
                                     const ClusterEvents &events = {}, const CancelFlag *cancel = nullptr);

private:
    Result<Cluster> findCluster(const QString &workspace, const QString &name) const;
    static QList<NodeProbeResult> testSlurmLogin(const CreateClusterRequest &request, const ClusterEvents &events);
    // `cluster probe` of a Slurm cluster: its login node and what Slurm says there.
    static QList<NodeProbeResult> probeSlurmLogin(const Cluster &cluster, const ClusterEvents &events);
    Result<Cluster> createLocal(const CreateClusterRequest &request, qint64 workspaceId, const ClusterEvents &events);
    // The nodes runSetup may run on: those named (every node in service when none is),
    // none of them running a job.
    Result<QList<Node>> nodesForSetup(const Cluster &cluster, const QStringList &names) const;
    // For nodes that join or run the setup task again: the setup task (a reachability
    // check when the cluster has none), then each node's state from the outcome. Returns
    // the setup task's logs in node order (none without a setup task).
    QList<SetupLog> prepareNodes(const QString &workspace, const Cluster &cluster, const QList<Node> &nodes,
                                 const ClusterEvents &events, const CancelFlag *cancel = nullptr);
    // Node name -> the name of the running job that holds the node.
    QHash<QString, QString> busyNodes(qint64 clusterId) const;

    Store &m_store;
};

} // namespace TrainDesk

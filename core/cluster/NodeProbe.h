#pragma once

#include "cluster/TransportFactory.h"
#include "store/Entities.h"
#include "transport/SshParameters.h"
#include "transport/TransferOptions.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>

namespace TrainDesk {

// One line of a probe: a pass or a fail, what was found, and what to do about a fail.
struct ProbeCheck
{
    QString node;    // the node's name; empty for a check across the cluster
    QString id;      // reachable, authenticated, os, cores, memory, gpus, openmpi, trainer, trainer-gpu,
                     // mountRoot, shares, headSsh, network
    QString title;
    bool passed = false;
    QString detail;
    QString hint;    // set when it failed

    QString toText() const;  // "PASS node1  Reachable: ..." (and the hint)
};

// What a probe learnt about a node; kept as JSON in Node::facts for the node table.
struct NodeFacts
{
    QString hostname;
    QString os;
    int cores = 0;
    qint64 memoryBytes = 0;
    QStringList gpus;            // "NVIDIA H100 80GB HBM3, 81559 MiB"
    QString openMpiVersion;      // empty when mpirun is missing or not Open MPI
    QString trainerPath;
    QStringList containerRuntimes;  // apptainer, singularity, docker (its daemon answering) on the PATH
    QList<QPair<QString, QString>> addresses;  // interface, address/prefix (IPv4)

    QJsonObject toJson() const;
    static NodeFacts fromJson(const QJsonObject &json);
    // Whether `json` comes from a probe that looked for container runtimes.
    static bool knowsContainerRuntimes(const QJsonObject &json);
};

struct NodeProbeResult
{
    Node node;
    bool connected = false;
    NodeFacts facts;
    QList<ProbeCheck> checks;
    QStringList missingPackages;  // Debian/Ubuntu packages the trainer needs on the node
    bool allPassed() const;
};

struct ProbeOptions
{
    QList<Share> shares;          // the workspace's shares: each must be usable on every node
    // The workspace's shares this cluster does not use (another cluster's, or folders of
    // this machine for an SSH cluster), named when `shares` is empty.
    QStringList otherShares;
    QString trainerDirectory;     // where jobs look for traindesk-trainer on the nodes
    bool trainerCopied = false;   // this machine has a trainer it copies to nodes without one
    TransportOptions transport;   // host keys and the login's timeout
    const CancelFlag *cancel = nullptr;
};

// Checks every node of a cluster in parallel. `onCheck` gets each result as soon as it
// is known, from worker threads but one call at a time (the GUI queues it to its own
// thread). Blocks until every node is done: run it off the GUI thread.
QList<NodeProbeResult> probeCluster(const Cluster &cluster, const QList<Node> &nodes, const ProbeOptions &options,
                                    const std::function<void(const ProbeCheck &)> &onCheck);

// Helpers shared with the cluster service.
QString sharedNetwork(const QList<NodeProbeResult> &results, QString *detail);
// The ssh command line the head node uses to reach `node` (the cluster's own SSH config
// when TrainDesk set one up there).
QString headToNodeSshCommand(const Node &node, const QString &sshConfigPath, const QString &command);

} // namespace TrainDesk

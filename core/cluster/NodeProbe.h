#pragma once

#include "cluster/NodeProbeResult.h"
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

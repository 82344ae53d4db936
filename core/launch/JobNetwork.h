#pragma once

#include "ToolkitPlans.h"
#include "store/Entities.h"

#include <QString>
#include <QStringList>

namespace TrainDesk {

// The network a job's nodes share, from what the cluster probe recorded of each node's
// interfaces (Node::facts "addresses"): the one the head node's address is on, else the
// first shared one. Gloo, NCCL and Open MPI are then told to use it
// (GLOO_SOCKET_IFNAME, NCCL_SOCKET_IFNAME, btl_tcp_if_include, oob_tcp_if_include): left to
// themselves they resolve the host name (which may not resolve, or resolve to loopback)
// or try every interface (docker0, a VPN) and hang or fail across nodes.
struct JobNetwork
{
    QString network;          // "10.0.0.0/24"; empty when none is known (see `reason`)
    QStringList interfaces;   // each node's interface on it, in node order
    QString reason;           // why there is none, for the execution log

    // One name for every node, or empty when the nodes name it differently.
    QString commonInterface() const;
    // "eth0 on node1, ens5 on node2".
    QString describe(const QList<Node> &nodes) const;

    static JobNetwork of(const QList<Node> &nodes);

    // Sets the variables in `environment` (the job's), or in each of `launch`'s tasks where
    // the nodes name the interface differently, leaving alone those in `userVariables` (the
    // job's environmentVariables win) and Open MPI's where `userCommand` sets them itself.
    // Returns what was done, for the execution log.
    QStringList applyTo(ToolkitLaunch &launch, EnvironmentList &environment, const QStringList &userVariables,
                        const QString &userCommand, const QList<Node> &nodes) const;

    // In a Slurm allocation no interface is recorded and the nodes' names need not resolve
    // (gloo then falls back to loopback): each task of a task toolkit looks up, on its node,
    // the interface that carries its node's address (Slurm's NodeAddr, `nodes`' hosts) and
    // exports it as GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME, unless the job sets them.
    // Returns the execution log's line.
    static QStringList applyInSlurm(ToolkitLaunch &launch, const QStringList &userVariables, const QList<Node> &nodes);
    // The lookup for one node: shell text that exports those variables (the names in
    // `names`) when some interface has IPv4 `address`, and does nothing otherwise.
    static QString interfaceLookupText(const QString &address, const QStringList &names);
};

} // namespace TrainDesk

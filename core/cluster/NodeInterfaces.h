#pragma once

#include "store/Entities.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace TrainDesk {

class Store;

// Each node's IPv4 interfaces (interface, address/prefix), kept in Node::facts "addresses":
// what launch/JobNetwork picks the job's network from. The probe records them with the rest
// of its facts; `cluster create`, `cluster setup` and a job's start record them where they
// are missing, so a job never waits on a separate `cluster probe` to set Gloo's, NCCL's and
// Open MPI's interfaces.
namespace NodeInterfaces {

// Shell text printing "addr=<interface> <address>/<prefix>" lines (nothing without `ip`).
QString command();
// The pairs in `output` (the probe's output holds the same lines among others).
QList<QPair<QString, QString>> parse(const QByteArray &output);
bool recorded(const Node &node);

// Reads and records, in parallel, the interfaces of each of `nodes` that has none recorded
// (every one with `all`); returns the nodes with their facts as now stored. A node that cannot
// be read keeps what it had, and `problems` (when given) says why.
QList<Node> recordMissing(Store &store, const Cluster &cluster, const QList<Node> &nodes, QStringList *problems = nullptr,
                          bool all = false);

} // namespace NodeInterfaces
} // namespace TrainDesk

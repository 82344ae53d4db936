#pragma once

#include "transport/Transport.h"
#include "store/Entities.h"

#include <memory>

namespace TrainDesk {

class Store;

// The transport that reaches `node` of `cluster`: this machine for the local cluster.
Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node);

// The transport to the head node of a job that has started (where its files are). Parked
// nodes count: a job keeps the nodes it started on.
Result<std::shared_ptr<Transport>> openHeadTransport(const Store &store, const Job &job);

} // namespace TrainDesk

#pragma once

#include "Transport.h"
#include "store/Entities.h"

#include <memory>

namespace TrainDesk {

// The transport that reaches `node` of `cluster`: this machine for the local cluster.
Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node);

} // namespace TrainDesk

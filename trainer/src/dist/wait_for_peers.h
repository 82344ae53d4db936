#pragma once
// Waiting on work that needs every rank (a GPU stream holding an NCCL all-reduce) without
// waiting forever: poll, and after a time-out name the ranks that went silent. A lost peer
// otherwise leaves the others in cudaStreamSynchronize for good.
#include <functional>
#include <string>

#include "dist/dist.h"

namespace td {

// Seconds without progress before a wait gives up: $TRAINDESK_PEER_TIMEOUT, default 300.
double peerTimeoutSeconds();

// Polls done() (which throws on any error it detects, e.g. NCCL's asynchronous errors)
// until it returns true. After timeoutSeconds, asks the other ranks (Dist::silentRanks)
// and throws RuntimeError naming `what`, this rank and the silent ranks.
void waitForPeers(const Dist& dist, const std::function<bool()>& done, double timeoutSeconds, const std::string& what);

}  // namespace td

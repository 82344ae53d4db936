#include "dist/wait_for_peers.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "util/check.h"
#include "util/timer.h"

namespace td {

double peerTimeoutSeconds() {
    const char* env = std::getenv("TRAINDESK_PEER_TIMEOUT");
    if (env && *env) {
        char* end = nullptr;
        const double v = std::strtod(env, &end);
        if (*end == '\0' && v > 0) return v;
    }
    return 300.0;
}

void waitForPeers(const Dist& dist, const std::function<bool()>& done, double timeoutSeconds, const std::string& what) {
    Timer t;
    while (!done()) {
        if (t.seconds() > timeoutSeconds) {
            // Long enough for the other waiting ranks to reach their own time-out too.
            const double grace = std::min(30.0, std::max(2.0, timeoutSeconds));
            const std::vector<int> silent = dist.silentRanks(grace);
            std::string list;
            for (int r : silent) list += (list.empty() ? "" : ", ") + std::to_string(r);
            TD_FAIL(what, ": no progress for ", timeoutSeconds, " s on rank ", dist.rank(), " of ", dist.size(), "; ",
                    silent.empty() ? std::string("every rank is waiting too (a hang in the collective itself)")
                                   : cat("silent rank(s): ", list, " (not waiting with the others; lost or stuck)"),
                    " (time-out: TRAINDESK_PEER_TIMEOUT)");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

}  // namespace td

#include "dist/agree.h"

#include <cstdint>
#include <vector>

namespace td {

Agreement agree(const Dist& dist, bool ok, const std::string& message) {
    std::vector<double> failedRanks(size_t(dist.size()), 0.0);
    if (!ok) failedRanks[size_t(dist.rank())] = 1.0;
    dist.allreduceSum(failedRanks.data(), failedRanks.size());
    Agreement a;
    for (int r = 0; r < dist.size(); ++r) {
        if (failedRanks[size_t(r)] == 0.0) continue;
        if (a.rank < 0) a.rank = r;
        ++a.failed;
    }
    if (a.rank < 0) return a;
    a.ok = false;
    int64_t length = dist.rank() == a.rank ? int64_t(message.size()) : 0;
    dist.broadcast(&length, sizeof length, a.rank);
    a.message = dist.rank() == a.rank ? message : std::string(size_t(length), '\0');
    if (length > 0) dist.broadcast(a.message.data(), size_t(length), a.rank);
    return a;
}

}  // namespace td

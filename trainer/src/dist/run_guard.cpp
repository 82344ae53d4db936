#include "dist/run_guard.h"

#include <cstdio>

#include "util/check.h"
#include "util/log.h"

namespace td {

int runGuarded(std::unique_ptr<Dist>& dist, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        // Detected after start-up (e.g. batch larger than the data set): same on all ranks.
        if (dist->root()) std::fprintf(stderr, "traindesk-trainer: error: %s\n", e.what());
        dist.reset();
        return 2;
    } catch (const AgreedError& e) {
        // Every rank threw it together: no peer waits in a collective.
        if (dist->root()) log::error(e.what());
        dist.reset();
        return 1;
    } catch (const std::exception& e) {
        log::error(e.what());
        if (dist->size() > 1) dist->abort(1);  // peers may be blocked in a collective
        return 1;
    }
}

}  // namespace td

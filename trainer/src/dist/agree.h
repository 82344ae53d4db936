#pragma once
// Decisions that every rank must take together: each rank says whether its part went well
// and, when not, why; every rank learns the outcome, the lowest failing rank and that
// rank's message. Collective over the Dist (its virtual collectives, so the GPU plugin can
// use it too). One small all-reduce, plus one broadcast when something failed.
#include <string>

#include "dist/dist.h"

namespace td {

struct Agreement {
    bool ok = true;       // every rank succeeded
    int rank = -1;        // the lowest failing rank (ok: -1)
    int failed = 0;       // how many ranks failed
    std::string message;  // that rank's message
};

Agreement agree(const Dist& dist, bool ok, const std::string& message);

}  // namespace td

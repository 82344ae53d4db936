#pragma once
// --allreduce-test: the burn-in's bandwidth figure between the ranks (TrainDesk's
// `cluster probe --burn-in` runs it across nodes). An all-reduce of a buffer of the given
// size is timed over several iterations after a warm-up (NCCL between GPUs, MPI otherwise),
// its result checked, and rank 0 prints one JSON line:
//   {"kind": "allreduce", "backend": "mpi", "ranks": 2, "hosts": ["a", "b"], "bytes": ...,
//    "iterations": ..., "seconds": ..., "algbw_gbytes_per_s": ..., "busbw_gbytes_per_s": ...,
//    "correct": true}
// busbw is nccl-tests' bus bandwidth (algbw x 2(n-1)/n): what each link carried, the
// figure to set against the link's speed.
#include "cli/options.h"
#include "dist/dist.h"

namespace td {

// Returns the exit code: 0, or 1 when the sums were wrong.
int runAllreduceTest(const Options& o, const Dist& dist);

// Bus bandwidth in bytes/s of an all-reduce of `bytes` over `ranks` that took `seconds`.
double allreduceBusBandwidth(double bytes, int ranks, double seconds);

}  // namespace td

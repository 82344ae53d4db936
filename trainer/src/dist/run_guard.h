#pragma once
// How a rank's run ends on an error (main.cpp, and the tests that stand in for the GPU
// backend): a bad command line found after start-up and an AgreedError are the same on
// every rank, so rank 0 reports them and all end normally; any other error may be this
// rank's alone while its peers wait in a collective (an MPI or NCCL all-reduce), so the
// rank says what failed and aborts the whole job through MPI. Exit codes: the body's,
// 1 run-time error, 2 bad command line.
#include <functional>
#include <memory>

#include "dist/dist.h"

namespace td {

int runGuarded(std::unique_ptr<Dist>& dist, const std::function<int()>& body);

}  // namespace td

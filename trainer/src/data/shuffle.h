#pragma once
// The per-epoch shuffle shared by the CPU batcher and the GPU backend: a Fisher-Yates
// permutation drawn from a stream keyed by (seed, epoch) only, so every rank (and every
// backend) sees the same order.
#include <cstdint>
#include <utility>
#include <vector>

#include "util/rng.h"

namespace td {

template <typename Index>
void epochPermutation(int64_t n, uint64_t seed, int epoch, std::vector<Index>& perm) {
    perm.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = Index(i);
    rng::Stream s(rng::key(seed, rng::kShuffle, uint64_t(epoch)));
    for (int64_t i = n - 1; i > 0; --i) std::swap(perm[size_t(i)], perm[s.below(uint64_t(i + 1))]);
}

}  // namespace td

#pragma once
// Counter-based randomness: every random draw is a pure function of
// (seed, purpose, epoch, position, element), so results do not depend on thread order,
// on the number of ranks, or on where a resumed run restarted.
#include <cstdint>

// Callable from CUDA kernels too (the GPU backend draws the same augmentation).
#if defined(__CUDACC__)
#define TD_HD __host__ __device__
#else
#define TD_HD
#endif

namespace td::rng {

TD_HD inline uint64_t mix(uint64_t x) {  // splitmix64 finaliser
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

TD_HD inline uint64_t key(uint64_t a, uint64_t b) { return mix(a ^ mix(b)); }
TD_HD inline uint64_t key(uint64_t a, uint64_t b, uint64_t c) { return key(key(a, b), c); }
TD_HD inline uint64_t key(uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return key(key(a, b, c), d); }

// Uniform in [0, 1) with 24 random bits (exact in float).
TD_HD inline float uniform(uint64_t h) { return static_cast<float>(h >> 40) * (1.0f / 16777216.0f); }

// Sequential generator for places where a stream is natural (init, shuffles).
struct Stream {
    uint64_t state;
    TD_HD explicit Stream(uint64_t seed) : state(mix(seed)) {}
    TD_HD uint64_t next() { return mix(state++); }
    TD_HD float uniform() { return rng::uniform(next()); }
    // Uniform integer in [0, n) (n small relative to 2^64: bias negligible).
    TD_HD uint64_t below(uint64_t n) { return next() % n; }
};

// Purposes, so independent uses never share draws.
enum Purpose : uint64_t {
    kInit = 1, kShuffle = 2, kDropout = 3, kAugment = 4, kSynthTrain = 5, kSynthTest = 6,
};

}  // namespace td::rng

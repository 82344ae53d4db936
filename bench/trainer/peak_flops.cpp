// FP32 FMA peak of this machine: 12 independent FMA chains in registers on every thread
// (enough to cover FMA latency x throughput), AVX-512 where the compiler targets it.
// Build: g++ -O2 -fopenmp -march=native peak_flops.cpp -o /tmp/peak_flops  (bench only)
#include <immintrin.h>
#include <omp.h>

#include <chrono>
#include <cstdio>

#if defined(__AVX512F__)
using vec = __m512;
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
static float first(vec v) { return _mm512_cvtss_f32(v); }
static const int kLanes = 16;
#else
using vec = __m256;
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
static float first(vec v) { return _mm256_cvtss_f32(v); }
static const int kLanes = 8;
#endif

int main() {
    const long iters = 100000000;
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        float sink = 0;
#pragma omp parallel reduction(+ : sink)
        {
            const vec m = SET1(0.999999f), c = SET1(1e-7f);
            // Distinct starting values, so the compiler cannot merge the chains.
            const float t = float(omp_get_thread_num());
            vec a0 = SET1(1.00f + t), a1 = SET1(1.01f), a2 = SET1(1.02f), a3 = SET1(1.03f), a4 = SET1(1.04f);
            vec a5 = SET1(1.05f), a6 = SET1(1.06f), a7 = SET1(1.07f), a8 = SET1(1.08f), a9 = SET1(1.09f);
            vec a10 = SET1(1.10f), a11 = SET1(1.11f);
            for (long i = 0; i < iters; ++i) {
                a0 = FMA(a0, m, c), a1 = FMA(a1, m, c), a2 = FMA(a2, m, c), a3 = FMA(a3, m, c);
                a4 = FMA(a4, m, c), a5 = FMA(a5, m, c), a6 = FMA(a6, m, c), a7 = FMA(a7, m, c);
                a8 = FMA(a8, m, c), a9 = FMA(a9, m, c), a10 = FMA(a10, m, c), a11 = FMA(a11, m, c);
            }
            vec s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));
            s = ADD(s, ADD(ADD(a8, a9), ADD(a10, a11)));
            sink += first(s);
        }
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double flops = double(omp_get_max_threads()) * iters * 12 * kLanes * 2;
        if (flops / secs > best) best = flops / secs;
        if (sink == 42) std::printf(" ");
    }
    std::printf("peak FP32 FMA (%d-lane vectors): %.1f GFLOP/s on %d thread(s)\n", kLanes, best / 1e9,
                omp_get_max_threads());
}

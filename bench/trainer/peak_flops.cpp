// FP32 FMA peak of this machine: 12 independent FMA chains in registers on every thread
// (enough to cover FMA latency x throughput), 16-lane AVX-512 where the compiler targets it,
// else 8-lane AVX2. Build one binary per ISA (bench only):
//   g++ -O2 -fopenmp -mavx2 -mfma        peak_flops.cpp -o /tmp/peak_avx2
//   g++ -O2 -fopenmp -mavx512f -mfma     peak_flops.cpp -o /tmp/peak_avx512
// Run with OMP_NUM_THREADS=T. Prints the best wall-clock rate of the repetitions and the rate
// per CPU-second (FLOPs / the threads' CPU time): on a machine shared with other work the wall
// rate drops with the share of the cores this process gets, the per-CPU-second rate does not,
// so the second is the peak that per-CPU-second figures of the trainer are compared with.
// Usage: peak_flops [ITERATIONS=100000000] [REPETITIONS=3]
#include <immintrin.h>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#if defined(__AVX512F__)
using vec = __m512;
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
static float first(vec v) { return _mm512_cvtss_f32(v); }
static const int kLanes = 16;
static const char* kIsa = "avx512";
#else
using vec = __m256;
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
static float first(vec v) { return _mm256_cvtss_f32(v); }
static const int kLanes = 8;
static const char* kIsa = "avx2";
#endif

static double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

int main(int argc, char** argv) {
    const long iters = argc > 1 ? std::atol(argv[1]) : 100000000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    double best = 0, bestPerCpu = 0;
    for (int rep = 0; rep < reps; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        float sink = 0;
        double cpu = 0;
#pragma omp parallel reduction(+ : sink, cpu)
        {
            const double c0 = threadCpuSeconds();
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
            cpu += threadCpuSeconds() - c0;
        }
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double flops = double(omp_get_max_threads()) * iters * 12 * kLanes * 2;
        if (flops / secs > best) best = flops / secs;
        // Per CPU-second of one thread, times the threads: what T threads deliver when they own T cores.
        const double perCpu = flops / cpu * omp_get_max_threads();
        if (perCpu > bestPerCpu) bestPerCpu = perCpu;
        if (sink == 42) std::printf(" ");
    }
    std::printf("peak FP32 FMA (%s, %d-lane vectors): %.1f GFLOP/s on %d thread(s); %.1f GFLOP/s on %d thread(s) "
                "per CPU-second\n",
                kIsa, kLanes, best / 1e9, omp_get_max_threads(), bestPerCpu / 1e9, omp_get_max_threads());
}

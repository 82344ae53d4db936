// The max-pool backward fused with the ReLU backward (trainer/src/model/pool_relu_bwd.cpp)
// against the two passes it replaces (oneDNN's pooling backward, then the trainer's
// reluBackward), on the tutorial CNN's two pooling layers at batch 32, in the activation layout
// oneDNN picks for the ISA. Per layer and round, the two passes then the fused one, interleaved
// over ROUNDS; each figure is the least of REPS executions in process CPU time. Checks the two
// agree bit for bit.
// Build (bench only), from the repository root:
//   g++ -O2 -fopenmp -fno-math-errno -Itrainer/src bench/trainer/pool_relu_ab.cpp trainer/src/model/pool.cpp \
//       trainer/src/model/pool_relu_bwd.cpp trainer/src/model/elementwise.cpp trainer/src/model/dnnl_util.cpp \
//       trainer/src/util/log.cpp -ldnnl -o /tmp/pool_relu_ab
// Run: ONEDNN_MAX_CPU_ISA=AVX2 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE /tmp/pool_relu_ab [REPS=20] [ROUNDS=3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

#include "model/elementwise.h"
#include "model/pool.h"

using namespace td;

namespace {

double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// A buffer as large as the L3, walked between executions: each one starts from memory, as in
// a training step where the other layers' data went through the caches in between.
std::vector<char> g_evict(64u << 20);
void evict() {
    for (size_t i = 0; i < g_evict.size(); i += 64) g_evict[i] = char(g_evict[i] + 1);
}

double minMs(const std::function<void()>& run, int reps) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        evict();
        const double t0 = cpuMs();
        run();
        best = std::min(best, cpuMs() - t0);
    }
    return best;
}

size_t floats(const memory& m) { return m.get_desc().get_size() / sizeof(float); }

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 20, rounds = argc > 2 ? std::atoi(argv[2]) : 3;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Ctx ctx;
    struct Shape {
        const char* name;
        int c, h;
    } shapes[] = {{"max_pooling2d_1 (conv2d_2 out 32x30x30)", 32, 30}, {"max_pooling2d_2 (conv2d_4 out 64x13x13)", 64, 13}};
    for (const Shape& sh : shapes) {
        // The layout oneDNN's convolution gives its output on this ISA: ask a forward conv.
        const memory::dims dims{32, sh.c, sh.h, sh.h};
        auto cd = dnnl::convolution_forward::desc(
            dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, anyDesc(dims),
            anyDesc({sh.c, sh.c, 3, 3}), anyDesc(dims), {1, 1}, {1, 1}, {1, 1});
        const memory::desc layout = dnnl::convolution_forward::primitive_desc(cd, ctx.eng).dst_desc();
        Act in;
        in.dims = dims;
        in.val = memory(layout, ctx.eng);
        in.grad = memory(layout, ctx.eng);
        float* x = ptr(in.val);
        for (size_t i = 0; i < floats(in.val); ++i) x[i] = float(std::max(0, int((i * 7919) % 13) - 4)) * 0.25f;
        MaxPool2D separate(ctx, "pool", in), fused(ctx, "pool", in);
        if (!fused.fuseInputReluBackward()) {
            std::printf("%s: the fused kernel does not run here\n", sh.name);
            continue;
        }
        separate.forward(ctx);
        fused.forward(ctx);
        float* dy = ptr(separate.out.grad);
        for (size_t i = 0; i < floats(separate.out.grad); ++i) dy[i] = float((i * 104729) % 1000) * 1e-3f - 0.5f;
        std::memcpy(ptr(fused.out.grad), dy, separate.out.grad.get_desc().get_size());
        auto runA = [&] {
            separate.backward(ctx);
            reluBackward(in.val, in.grad);
        };
        auto runB = [&] { fused.backward(ctx); };
        runA();
        std::vector<float> want(ptr(in.grad), ptr(in.grad) + floats(in.grad));
        runB();
        const bool same = std::memcmp(want.data(), ptr(in.grad), want.size() * sizeof(float)) == 0;
        double bestA = 1e30, bestB = 1e30;
        for (int r = 0; r < rounds; ++r) {
            const double a = minMs(runA, reps), b = minMs(runB, reps);
            bestA = std::min(bestA, a), bestB = std::min(bestB, b);
            std::printf("%s round %d: two passes %.3f ms, fused %.3f ms\n", sh.name, r + 1, a, b);
        }
        std::printf("%s best: two passes %.3f ms, fused %.3f ms (fused/two %.2f); %s; layout %s\n", sh.name, bestA,
                    bestB, bestB / bestA, same ? "bit-identical" : "DIFFERENT",
                    separate.timing.impl.c_str());
    }
}

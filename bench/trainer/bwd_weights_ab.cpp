// The trainer's hand-written AVX2 backward-weights (trainer/src/model/conv_bwd_weights.cpp)
// against oneDNN's backward-weights primitive, on the tutorial CNN's four convolutions at batch
// 32, with the activation layout oneDNN's forward picks (what the trainer feeds both). Per layer
// and round, oneDNN then the own kernel, interleaved over ROUNDS; each figure is the least of
// REPS executions in process CPU time (OMP_WAIT_POLICY=PASSIVE; with 1 thread the cost of the
// kernel however loaded the machine is). Also checks the two gradients agree.
// Build (bench only), from the repository root:
//   g++ -O2 -fopenmp -Itrainer/src bench/trainer/bwd_weights_ab.cpp trainer/src/model/conv_bwd_weights.cpp \
//       -ldnnl -o /tmp/bwd_weights_ab
// Run: ONEDNN_MAX_CPU_ISA=AVX2 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE /tmp/bwd_weights_ab [REPS=8] [ROUNDS=3]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <oneapi/dnnl/dnnl.hpp>
#include <vector>

#include "model/conv_bwd_weights.h"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

double processCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double minMs(const std::function<void()>& run, int reps) {
    run();
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        const double t0 = processCpuMs();
        run();
        best = std::min(best, processCpuMs() - t0);
    }
    return best;
}

void fill(const memory& m, unsigned seed) {
    float* p = static_cast<float*>(m.get_data_handle());
    for (size_t i = 0; i < m.get_desc().get_size() / sizeof(float); ++i)
        p[i] = float((i * 7919 + seed * 104729) % 1000) * 1e-3f - 0.5f;
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 8, rounds = argc > 2 ? std::atoi(argv[2]) : 3;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dim N = 32;
    struct Shape {
        const char* name;
        memory::dim c, o, h, pad;
    } shapes[] = {{"conv2d_1 3->32 same", 3, 32, 32, 1},
                  {"conv2d_2 32->32 valid", 32, 32, 32, 0},
                  {"conv2d_3 32->64 same", 32, 64, 15, 1},
                  {"conv2d_4 64->64 valid", 64, 64, 15, 0}};
    double totalA = 0, totalB = 0;
    for (const Shape& sh : shapes) {
        const memory::dim OH = sh.h + 2 * sh.pad - 2;
        const memory::dims src{N, sh.c, sh.h, sh.h}, wei{sh.o, sh.c, 3, 3}, bia{sh.o}, dst{N, sh.o, OH, OH};
        const memory::dims st{1, 1}, pd{sh.pad, sh.pad};
        const memory::desc any4(src, dt::f32, tag::any), weiAny(wei, dt::f32, tag::any), biaMd(bia, dt::f32, tag::x);
        // The first layer reads NHWC images in the trainer: same candidates as Conv2D.
        const memory::desc srcMd = sh.c == 3 ? memory::desc(src, dt::f32, tag::nhwc) : any4;
        primitive_attr attr;
        post_ops po;
        po.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
        auto fd = convolution_forward::desc(prop_kind::forward_training, algorithm::convolution_direct, srcMd, weiAny,
                                            biaMd, memory::desc(dst, dt::f32, tag::any), st, pd, pd);
        convolution_forward::primitive_desc fpd(fd, attr, eng);
        if (std::string(fpd.impl_info_str()).rfind("ref", 0) == 0) {
            auto fd2 = convolution_forward::desc(prop_kind::forward_training, algorithm::convolution_direct,
                                                 memory::desc(src, dt::f32, tag::nchw), weiAny, biaMd,
                                                 memory::desc(dst, dt::f32, tag::any), st, pd, pd);
            fpd = convolution_forward::primitive_desc(fd2, attr, eng);
        }
        auto bwd = convolution_backward_weights::desc(algorithm::convolution_direct, fpd.src_desc(), weiAny, biaMd,
                                                      fpd.dst_desc(), st, pd, pd);
        convolution_backward_weights::primitive_desc wpd(bwd, eng, fpd);
        memory a(fpd.src_desc(), eng), dd(fpd.dst_desc(), eng), dwK(wpd.diff_weights_desc(), eng),
            db(wpd.diff_bias_desc(), eng), dwHwio(memory::desc(wei, dt::f32, tag::hwio), eng);
        fill(a, 1), fill(dd, 2);
        convolution_backward_weights p(wpd);
        reorder toHwio(dwK, dwHwio);
        // oneDNN as the trainer ran it: the primitive, then its gradient reordered to HWIO.
        auto runA = [&] {
            p.execute(
                s,
                {{DNNL_ARG_SRC, a}, {DNNL_ARG_DIFF_DST, dd}, {DNNL_ARG_DIFF_WEIGHTS, dwK}, {DNNL_ARG_DIFF_BIAS, db}});
            toHwio.execute(s, dwK, dwHwio);
            s.wait();
        };
        td::ConvBwdWeightsAvx2 own;
        if (!own.init(fpd.src_desc(), fpd.dst_desc(), int(sh.pad))) {
            std::printf("%-22s own kernel: layouts not handled\n", sh.name);
            continue;
        }
        std::vector<float> dwB(size_t(wei[0] * wei[1] * 9)), dbB(size_t(sh.o));
        auto runB = [&] {
            own.run(static_cast<const float*>(a.get_data_handle()), static_cast<const float*>(dd.get_data_handle()),
                    dwB.data(), dbB.data());
        };
        runA(), runB();
        const float* ref = static_cast<const float*>(dwHwio.get_data_handle());
        const float* refB = static_cast<const float*>(db.get_data_handle());
        double err = 0, mag = 0;
        for (size_t i = 0; i < dwB.size(); ++i)
            err = std::max(err, double(std::fabs(dwB[i] - ref[i]))), mag = std::max(mag, double(std::fabs(ref[i])));
        for (size_t i = 0; i < dbB.size(); ++i) err = std::max(err, double(std::fabs(dbB[i] - refB[i])));
        const double flops = 2.0 * N * sh.c * sh.o * OH * OH * 9;
        double bestA = 1e30, bestB = 1e30;
        for (int r = 0; r < rounds; ++r) {
            const double ta = minMs(runA, reps), tb = minMs(runB, reps);
            bestA = std::min(bestA, ta), bestB = std::min(bestB, tb);
            std::printf("%-22s round %d  oneDNN %-10s %7.3f ms %6.1f GF/CPU-s   own %7.3f ms %6.1f GF/CPU-s\n", sh.name,
                        r + 1, wpd.impl_info_str(), ta, flops / ta / 1e6, tb, flops / tb / 1e6);
        }
        std::printf(
            "%-22s best      oneDNN %7.3f ms   own %7.3f ms   own/oneDNN time %.3f   max |diff| %.2e of max %.2e  (src "
            "%s)\n",
            sh.name, bestA, bestB, bestB / bestA, err, mag,
            fpd.src_desc() == memory::desc(src, dt::f32, tag::nChw8c)    ? "nChw8c"
            : fpd.src_desc() == memory::desc(src, dt::f32, tag::nChw16c) ? "nChw16c"
            : fpd.src_desc() == memory::desc(src, dt::f32, tag::nhwc)    ? "nhwc"
                                                                         : "other");
        totalA += bestA, totalB += bestB;
    }
    std::printf("all four layers: oneDNN %.3f ms, own %.3f ms (own/oneDNN %.3f)\n", totalA, totalB, totalB / totalA);
}

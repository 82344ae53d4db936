// Every oneDNN implementation of each convolution of the tutorial CNN (batch 32, 32x32x3), for
// each activation layout and pass, timed on this machine: the minimum of REPS executions (the
// estimate that survives a machine shared with other work). Shows what the trainer's layout
// choice costs per pass and which implementation oneDNN would pick first (the first listed).
// Times are process CPU time (run with OMP_NUM_THREADS=1 for per-kernel cost on a shared machine).
// Build (bench only): g++ -O2 -fopenmp conv_impls.cpp -ldnnl -o /tmp/conv_impls
// Run: ONEDNN_MAX_CPU_ISA=AVX2 OMP_NUM_THREADS=1 /tmp/conv_impls [REPS=15]
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

struct Shape {
    const char* name;
    memory::dim c, o, h, pad;
};

// Process CPU time: with OMP_NUM_THREADS=1 (and OMP_WAIT_POLICY=PASSIVE) the time the kernel
// computed, however much of the core other work took; with T threads the sum over them.
double processCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// Reference kernels are listed, not timed (they take seconds and are never the choice).
bool isRef(const char* impl) { return std::string(impl).rfind("ref", 0) == 0; }

double minMs(const char* impl, const std::function<void()>& run, int reps) {
    if (isRef(impl)) return 0;
    run();  // first execution: JIT and page faults
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        const double t0 = processCpuMs();
        run();
        best = std::min(best, processCpuMs() - t0);
    }
    return best;
}

std::unordered_map<std::string, memory> buffers;
memory mem(const memory::desc& d, engine& eng, const std::string& role) {
    memory m(d, eng);
    float* p = static_cast<float*>(m.get_data_handle());
    for (size_t i = 0; i < d.get_size() / sizeof(float); ++i) p[i] = float((i * 7919) % 1000) * 1e-3f - 0.5f;
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dim N = 32;
    const Shape shapes[] = {{"conv2d_1 3->32 same", 3, 32, 32, 1},
                            {"conv2d_2 32->32 valid", 32, 32, 32, 0},
                            {"conv2d_3 32->64 same", 32, 64, 15, 1},
                            {"conv2d_4 64->64 valid", 64, 64, 15, 0}};
    const std::pair<const char*, tag> layouts[] = {{"any", tag::any}, {"nhwc", tag::nhwc}, {"nchw", tag::nchw}};
    for (const Shape& sh : shapes) {
        const memory::dim OH = sh.h + 2 * sh.pad - 2;
        const memory::dims src{N, sh.c, sh.h, sh.h}, wei{sh.o, sh.c, 3, 3}, bia{sh.o}, dst{N, sh.o, OH, OH};
        const memory::dims st{1, 1}, pd{sh.pad, sh.pad};
        for (const auto& [lname, lt] : layouts) {
            const memory::desc srcMd(src, dt::f32, lt), dstMd(dst, dt::f32, lt);
            const memory::desc weiAny(wei, dt::f32, tag::any), biaMd(bia, dt::f32, tag::x);
            primitive_attr attr;
            post_ops po;
            po.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
            attr.set_post_ops(po);
            auto fd = convolution_forward::desc(prop_kind::forward_training, algorithm::convolution_direct, srcMd,
                                                weiAny, biaMd, dstMd, st, pd, pd);
            convolution_forward::primitive_desc fpd(fd, attr, eng);
            std::vector<std::string> seen;
            do {
                memory a = mem(fpd.src_desc(), eng, "src"), w = mem(fpd.weights_desc(), eng, "w"),
                       b = mem(fpd.bias_desc(), eng, "b"), d = mem(fpd.dst_desc(), eng, "d");
                convolution_forward p(fpd);
                double ms = minMs(fpd.impl_info_str(), [&] { p.execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_BIAS, b},
                                                      {DNNL_ARG_DST, d}}); s.wait(); }, reps);
                const double gf = ms <= 0 ? 0 : 2.0 * N * sh.c * sh.o * OH * OH * 9 / (ms * 1e-3) / 1e9;
                std::printf("%-22s %-5s fwd   %-28s %8.3f ms %7.1f GFLOP/s\n", sh.name, lname, fpd.impl_info_str(), ms, gf);
            } while (fpd.next_impl());
            convolution_forward::primitive_desc fpd0(fd, attr, eng);
            auto bwd = convolution_backward_weights::desc(algorithm::convolution_direct, fpd0.src_desc(), weiAny,
                                                          biaMd, fpd0.dst_desc(), st, pd, pd);
            convolution_backward_weights::primitive_desc wpd(bwd, eng, fpd0);
            do {
                memory a = mem(wpd.src_desc(), eng, "src"), dd = mem(wpd.diff_dst_desc(), eng, "dd"),
                       dw = mem(wpd.diff_weights_desc(), eng, "dw"), db = mem(wpd.diff_bias_desc(), eng, "db");
                convolution_backward_weights p(wpd);
                double ms = minMs(wpd.impl_info_str(), [&] { p.execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_DIFF_DST, dd},
                                                      {DNNL_ARG_DIFF_WEIGHTS, dw}, {DNNL_ARG_DIFF_BIAS, db}}); s.wait(); }, reps);
                const double gf = ms <= 0 ? 0 : 2.0 * N * sh.c * sh.o * OH * OH * 9 / (ms * 1e-3) / 1e9;
                std::printf("%-22s %-5s bwd-w %-28s %8.3f ms %7.1f GFLOP/s  (src %s)\n", sh.name, lname,
                            wpd.impl_info_str(), ms, gf,
                            wpd.src_desc() == fpd0.src_desc() ? "same as fwd" : "other layout");
            } while (wpd.next_impl());
            if (sh.c == 3) continue;
            auto bdd = convolution_backward_data::desc(algorithm::convolution_direct, fpd0.src_desc(), weiAny,
                                                       fpd0.dst_desc(), st, pd, pd);
            convolution_backward_data::primitive_desc dpd(bdd, eng, fpd0);
            do {
                memory ds = mem(dpd.diff_src_desc(), eng, "ds"), dd = mem(dpd.diff_dst_desc(), eng, "dd"),
                       w = mem(dpd.weights_desc(), eng, "w");
                convolution_backward_data p(dpd);
                double ms = minMs(dpd.impl_info_str(), [&] { p.execute(s, {{DNNL_ARG_DIFF_SRC, ds}, {DNNL_ARG_DIFF_DST, dd},
                                                      {DNNL_ARG_WEIGHTS, w}}); s.wait(); }, reps);
                const double gf = ms <= 0 ? 0 : 2.0 * N * sh.c * sh.o * OH * OH * 9 / (ms * 1e-3) / 1e9;
                std::printf("%-22s %-5s bwd-d %-28s %8.3f ms %7.1f GFLOP/s\n", sh.name, lname, dpd.impl_info_str(), ms, gf);
            } while (dpd.next_impl());
        }
    }
}

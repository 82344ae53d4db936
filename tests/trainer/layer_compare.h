#pragma once
// Shared by the tests that hold the GPU backend's layers against the CPU backend's
// (gpu_layers.cpp on a GPU, gpu_emulated.cpp with the kernels emulated on the host):
// the comparison with its printed line, and conversions between the CPU side's plain
// NHWC tensors / Keras HWIO kernels and the GPU's NHWC or NCHW tensors / OHWI or OIHW
// filters.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "model/dnnl_util.h"

namespace td::test {

struct Tally {
    int checks = 0, failures = 0;
};
inline Tally g_tally;

// Passes when max |got - ref| / max |ref| <= tol (tol 0: bit for bit) and every value of
// got is finite.
inline bool check(const std::string& what, const std::vector<float>& got, const std::vector<float>& ref, double tol) {
    ++g_tally.checks;
    double maxDiff = 0, maxRef = 0;
    const bool sizeOk = got.size() == ref.size();
    for (size_t i = 0; sizeOk && i < ref.size(); ++i) {
        maxDiff = std::max(maxDiff, double(std::fabs(got[i] - ref[i])));
        maxRef = std::max(maxRef, double(std::fabs(ref[i])));
        if (!std::isfinite(got[i])) maxDiff = INFINITY;
    }
    const double rel = maxDiff / std::max(maxRef, 1e-30);
    const bool ok = sizeOk && rel <= tol && (maxRef > 0 || maxDiff == 0);
    std::printf("  %-46s max|ref| %.3e  rel err %.2e  (tol %.0e)  %s\n", what.c_str(), maxRef, rel, tol,
                ok ? "ok" : "FAIL");
    if (!ok) ++g_tally.failures;
    return ok;
}

inline bool expect(bool cond, const std::string& what) {
    ++g_tally.checks;
    std::printf("  %-46s %s\n", what.c_str(), cond ? "ok" : "FAIL");
    if (!cond) ++g_tally.failures;
    return cond;
}

// Plain NHWC (the CPU side) <-> NHWC or NCHW.
inline std::vector<float> toLayout(const std::vector<float>& nhwc, int n, int c, int h, int w, bool toNhwc) {
    if (toNhwc) return nhwc;
    std::vector<float> out(nhwc.size());
    for (int i = 0; i < n; ++i)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int k = 0; k < c; ++k)
                    out[((size_t(i) * c + k) * h + y) * w + x] = nhwc[((size_t(i) * h + y) * w + x) * c + k];
    return out;
}
inline std::vector<float> fromLayout(const std::vector<float>& v, int n, int c, int h, int w, bool isNhwc) {
    if (isNhwc) return v;
    std::vector<float> out(v.size());
    for (int i = 0; i < n; ++i)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int k = 0; k < c; ++k)
                    out[((size_t(i) * h + y) * w + x) * c + k] = v[((size_t(i) * c + k) * h + y) * w + x];
    return out;
}

// HWIO (Keras) 3x3 kernels <-> the GPU filter layout (OHWI for NHWC, OIHW for NCHW).
inline std::vector<float> filterToGpu(const std::vector<float>& hwio, int I, int O, bool nhwc) {
    std::vector<float> out(hwio.size());
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            for (int i = 0; i < I; ++i)
                for (int o = 0; o < O; ++o) {
                    const size_t src = ((size_t(y) * 3 + x) * I + i) * O + o;
                    const size_t dst = nhwc ? ((size_t(o) * 3 + y) * 3 + x) * I + i : ((size_t(o) * I + i) * 3 + y) * 3 + x;
                    out[dst] = hwio[src];
                }
    return out;
}
inline std::vector<float> filterFromGpu(const std::vector<float>& g, int I, int O, bool nhwc) {
    std::vector<float> out(g.size());
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            for (int i = 0; i < I; ++i)
                for (int o = 0; o < O; ++o) {
                    const size_t dst = ((size_t(y) * 3 + x) * I + i) * O + o;
                    const size_t src = nhwc ? ((size_t(o) * 3 + y) * 3 + x) * I + i : ((size_t(o) * I + i) * 3 + y) * 3 + x;
                    out[dst] = g[src];
                }
    return out;
}

// A oneDNN memory (any layout) as plain NHWC / NC floats, and back.
inline std::vector<float> plainOf(Ctx& ctx, const memory& m, const memory::dims& dims) {
    memory plainMem(plain(dims, dims.size() == 4 ? tag::nhwc : tag::nc), ctx.eng);
    Reorder r;
    r.init(ctx, m, plainMem);
    r.run(ctx);
    if (!r.active()) return std::vector<float>(ptr(m), ptr(m) + plainMem.get_desc().get_size() / sizeof(float));
    return std::vector<float>(ptr(plainMem), ptr(plainMem) + plainMem.get_desc().get_size() / sizeof(float));
}
inline void setFromPlain(Ctx& ctx, const memory& m, const memory::dims& dims, const std::vector<float>& v) {
    memory plainMem(plain(dims, dims.size() == 4 ? tag::nhwc : tag::nc), ctx.eng);
    std::copy(v.begin(), v.end(), ptr(plainMem));
    Reorder r;
    r.init(ctx, plainMem, m);
    r.run(ctx);
}

}  // namespace td::test

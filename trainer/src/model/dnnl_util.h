#pragma once
// oneDNN plumbing shared by the layers: one engine and stream, memory helpers, and
// reorders that are built once and skipped when the layouts already agree.
#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "util/check.h"

namespace td {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

struct Ctx {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{eng};
};

// A reorder between two memories, or nothing when their descriptors are equal (then
// `to` simply aliases `from`'s buffer).
class Reorder {
public:
    Reorder() = default;
    // Makes `to` (descriptor `want`) from `from`: aliases when equal, else allocates.
    static memory prepare(Ctx& ctx, const memory& from, const memory::desc& want, Reorder* r);
    // Reorder into an existing memory.
    void init(Ctx& ctx, const memory& from, const memory& to);
    void run(Ctx& ctx) const;
    bool active() const { return m_active; }

private:
    bool m_active = false;
    dnnl::reorder m_prim;
    memory m_from, m_to;
};

// Plain desc helpers.
inline memory::desc plain(const memory::dims& d, tag t) { return memory::desc(d, dt::f32, t); }
inline memory::desc anyDesc(const memory::dims& d) { return memory::desc(d, dt::f32, tag::any); }

float* ptr(const memory& m);

// Where element (n, c, h, w) of a 4-D f32 buffer lies: plain, or one inner block of channels
// (nChw8c, nChw16c). For the hand-written kernels that read oneDNN's layouts.
struct ChannelStrides {
    ptrdiff_t n = 0, c = 0, h = 0, w = 0;
    int block = 0;  // channels in the innermost block (0: plain)
    ptrdiff_t offset(ptrdiff_t ch) const { return block ? (ch / block) * c + ch % block : ch * c; }
    // True when channels [ch, ch + 8) are contiguous for every ch that is a multiple of 8.
    bool eightContiguous(ptrdiff_t channels) const {
        return block ? block % 8 == 0 : c == 1 && channels % 8 == 0;
    }
};
// False for other layouts (offsets, several blocks, other data types).
bool channelStrides(const memory::desc& md, ChannelStrides* s);

}  // namespace td

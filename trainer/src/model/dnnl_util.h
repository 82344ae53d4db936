#pragma once
// oneDNN plumbing shared by the layers: one engine and stream, memory helpers, and
// reorders that are built once and skipped when the layouts already agree.
#include <oneapi/dnnl/dnnl.hpp>

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

}  // namespace td

#include "model/dnnl_util.h"

namespace td {

memory Reorder::prepare(Ctx& ctx, const memory& from, const memory::desc& want, Reorder* r) {
    if (from.get_desc() == want) {
        r->m_active = false;
        return memory(want, ctx.eng, from.get_data_handle());
    }
    memory to;
    DNNL_CHECK(to = memory(want, ctx.eng));
    r->init(ctx, from, to);
    return to;
}

void Reorder::init(Ctx& ctx, const memory& from, const memory& to) {
    (void)ctx;
    m_from = from;
    m_to = to;
    m_active = !(from.get_desc() == to.get_desc()) || from.get_data_handle() != to.get_data_handle();
    if (m_active) DNNL_CHECK(m_prim = dnnl::reorder(from, to));
}

void Reorder::run(Ctx& ctx) const {
    if (!m_active) return;
    DNNL_CHECK(m_prim.execute(ctx.stream, const_cast<memory&>(m_from), const_cast<memory&>(m_to)));
}


float* ptr(const memory& m) { return static_cast<float*>(m.get_data_handle()); }

bool channelStrides(const memory::desc& md, ChannelStrides* s) {
    const dnnl_memory_desc_t& d = md.data;
    if (d.ndims != 4 || d.data_type != dnnl_f32 || d.format_kind != dnnl_blocked || d.offset0 != 0) return false;
    const auto& b = d.format_desc.blocking;
    if (b.inner_nblks == 0)
        s->block = 0;
    else if (b.inner_nblks == 1 && b.inner_idxs[0] == 1)
        s->block = int(b.inner_blks[0]);
    else
        return false;
    s->n = b.strides[0], s->c = b.strides[1], s->h = b.strides[2], s->w = b.strides[3];
    return true;
}

}  // namespace td

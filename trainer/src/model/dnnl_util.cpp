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

}  // namespace td

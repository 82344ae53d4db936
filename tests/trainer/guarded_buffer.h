#pragma once
// "Device memory" of the CUDA host emulation for the emulated-kernel tests (gpu_emulated.cpp,
// gpu_emulated_fused.cpp): host memory between guard zones of 0xFF bytes (NaN as floats),
// filled with them at the start. A write outside a buffer shows in intact(); a read outside
// it or an element left unwritten brings a NaN that fails the comparison.
#include <cstring>
#include <vector>

#include "util/check.h"

#include "layer_compare.h"

namespace td::test {

constexpr size_t kGuardBytes = 256;  // a multiple of 16: float4 loads stay aligned
template <typename T>
class Guarded {
public:
    explicit Guarded(size_t n) : m_n(n), m_bytes(2 * kGuardBytes + n * sizeof(T), 0xFF) {}
    explicit Guarded(const std::vector<T>& v) : Guarded(v.size()) { upload(v); }
    void upload(const std::vector<T>& v) {
        TD_CHECK(v.size() == m_n, "Guarded::upload: ", v.size(), " values for ", m_n);
        std::memcpy(get(), v.data(), m_n * sizeof(T));
    }
    T* get() { return reinterpret_cast<T*>(m_bytes.data() + kGuardBytes); }
    std::vector<T> host() const {
        std::vector<T> v(m_n);
        std::memcpy(v.data(), m_bytes.data() + kGuardBytes, m_n * sizeof(T));
        return v;
    }
    bool intact() const {
        for (size_t i = 0; i < kGuardBytes; ++i)
            if (m_bytes[i] != 0xFF || m_bytes[m_bytes.size() - 1 - i] != 0xFF) return false;
        return true;
    }

private:
    size_t m_n;
    std::vector<unsigned char> m_bytes;
};

// One check: every buffer's guard zones are untouched.
template <typename... B>
void expectInside(const B&... buffers) {
    expect((buffers.intact() && ...), "writes stay inside their buffers");
}

}  // namespace td::test

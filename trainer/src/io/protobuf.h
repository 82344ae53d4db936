#pragma once
// Minimal protobuf wire-format encoder: just what an ONNX ModelProto needs
// (varints, length-delimited fields, packed int64s, raw bytes).
#include <cstdint>
#include <string>
#include <vector>

namespace td::pb {

class Writer {
public:
    void varintField(int field, uint64_t v) {
        tag(field, 0);
        varint(v);
    }
    void bytesField(int field, const std::string& bytes) {
        tag(field, 2);
        varint(bytes.size());
        m_buf += bytes;
    }
    void bytesField(int field, const void* data, size_t n) {
        tag(field, 2);
        varint(n);
        m_buf.append(static_cast<const char*>(data), n);
    }
    void messageField(int field, const Writer& sub) { bytesField(field, sub.m_buf); }
    void packedInt64(int field, const std::vector<int64_t>& values) {
        Writer inner;
        for (int64_t v : values) inner.varint(uint64_t(v));
        bytesField(field, inner.m_buf);
    }
    const std::string& data() const { return m_buf; }

private:
    void tag(int field, int wireType) { varint((uint64_t(field) << 3) | uint64_t(wireType)); }
    void varint(uint64_t v) {
        while (v >= 0x80) {
            m_buf += char((v & 0x7f) | 0x80);
            v >>= 7;
        }
        m_buf += char(v);
    }
    std::string m_buf;
};

}  // namespace td::pb

#pragma once

// Builds TensorBoard event files byte by byte, to the format (TFRecord framing with masked
// CRC-32C, Event protobufs), for the tests that read them.
#include "metrics/Crc32c.h"

#include <QByteArray>
#include <QList>

#include <cstring>
#include <utility>

namespace TfEventsWriter {

using namespace TrainDesk;

// A minimal protobuf writer: just what an Event with scalars needs.
inline QByteArray varint(quint64 v)
{
    QByteArray out;
    do {
        char byte = char(v & 0x7F);
        v >>= 7;
        if (v)
            byte = char(byte | 0x80);
        out.append(byte);
    } while (v);
    return out;
}
inline QByteArray key(int field, int wireType) { return varint(quint64(field) << 3 | quint64(wireType)); }
inline QByteArray bytesField(int field, const QByteArray &data) { return key(field, 2) + varint(quint64(data.size())) + data; }
inline QByteArray littleEndian(quint64 v, int size)
{
    QByteArray out;
    for (int i = 0; i < size; ++i)
        out.append(char((v >> (8 * i)) & 0xFF));
    return out;
}
inline QByteArray floatBits(float f)
{
    quint32 b;
    std::memcpy(&b, &f, 4);
    return littleEndian(b, 4);
}
inline QByteArray doubleBits(double d)
{
    quint64 b;
    std::memcpy(&b, &d, 8);
    return littleEndian(b, 8);
}

inline QByteArray simpleValue(const QByteArray &tag, float value)
{
    return bytesField(1, tag) + key(2, 5) + floatBits(value);
}
// TensorFlow 2's tf.summary.scalar: a rank-0 float tensor, the "scalars" plugin named.
inline QByteArray tensorValue(const QByteArray &tag, float value, const QByteArray &plugin = "scalars")
{
    const QByteArray tensor = key(1, 0) + varint(1) + bytesField(2, {}) + bytesField(5, floatBits(value));
    const QByteArray metadata = bytesField(1, bytesField(1, plugin));
    return bytesField(1, tag) + bytesField(8, tensor) + bytesField(9, metadata);
}
// A double in tensor_content, no metadata (later events of a tag carry none).
inline QByteArray tensorContentValue(const QByteArray &tag, double value)
{
    const QByteArray tensor = key(1, 0) + varint(2) + bytesField(2, {}) + bytesField(4, doubleBits(value));
    return bytesField(1, tag) + bytesField(8, tensor);
}
// A histogram-like tensor of 3 elements: not a scalar.
inline QByteArray vectorValue(const QByteArray &tag)
{
    const QByteArray shape = bytesField(2, key(1, 0) + varint(3));
    const QByteArray tensor = key(1, 0) + varint(1) + bytesField(2, shape) + bytesField(5, floatBits(1) + floatBits(2) + floatBits(3));
    return bytesField(1, tag) + bytesField(8, tensor);
}

// The hparams plugin's data as PyTorch's add_hparams writes it: a value with the tag and the
// plugin's metadata only (tensorboard/plugins/hparams/plugin_data.proto); `which` 3 is
// session_start_info, whose hparams map each name to a google.protobuf.Value (its bytes); 2
// is the experiment, which names no values of a run.
inline QByteArray numberValue(double v) { return key(2, 1) + doubleBits(v); }
inline QByteArray stringValue(const QByteArray &s) { return bytesField(3, s); }
inline QByteArray boolValue(bool b) { return key(4, 0) + varint(b ? 1 : 0); }
inline QByteArray nullValue() { return key(1, 0) + varint(0); }
inline QByteArray hparamsValue(const QList<std::pair<QByteArray, QByteArray>> &hparams, int which = 3)
{
    QByteArray start;
    for (const auto &[name, value] : hparams)
        start += bytesField(1, bytesField(1, name) + bytesField(2, value));
    const QByteArray content = key(1, 0) + varint(0) + bytesField(which, start);
    const QByteArray metadata = bytesField(1, bytesField(1, "hparams") + bytesField(2, content));
    return bytesField(1, which == 3 ? "_hparams_/session_start_info" : "_hparams_/experiment") + bytesField(9, metadata);
}

inline QByteArray event(double wallTime, qint64 step, const QList<QByteArray> &values)
{
    QByteArray summary;
    for (const QByteArray &v : values)
        summary += bytesField(1, v);
    return key(1, 1) + doubleBits(wallTime) + key(2, 0) + varint(quint64(step)) + bytesField(5, summary);
}

inline QByteArray record(const QByteArray &data)
{
    const QByteArray length = littleEndian(quint64(data.size()), 8);
    return length + littleEndian(Crc32c::masked(Crc32c::of(length)), 4) + data
        + littleEndian(Crc32c::masked(Crc32c::of(data)), 4);
}

} // namespace TfEventsWriter

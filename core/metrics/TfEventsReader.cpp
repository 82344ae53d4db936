#include "TfEventsReader.h"

#include "Crc32c.h"

#include <QDateTime>
#include <QLocale>

#include <cstring>
#include <optional>

namespace TrainDesk {

namespace {

// A protobuf message's fields, one at a time.
class ProtoFields
{
public:
    explicit ProtoFields(QByteArrayView data) : m_data(data) {}

    struct Field
    {
        int number = 0;
        int wireType = 0;
        quint64 varint = 0;        // wire type 0, and the raw bits of types 1 and 5
        QByteArrayView bytes;      // wire type 2
    };

    bool failed() const { return m_failed; }

    // The next field, or nothing at the end (or on bad data: failed() says).
    std::optional<Field> next()
    {
        if (m_pos >= m_data.size())
            return std::nullopt;
        const auto key = varint();
        if (!key)
            return fail();
        Field f;
        f.number = int(*key >> 3);
        f.wireType = int(*key & 7);
        switch (f.wireType) {
        case 0: {
            const auto v = varint();
            if (!v)
                return fail();
            f.varint = *v;
            return f;
        }
        case 1:
        case 5: {
            const qsizetype size = f.wireType == 1 ? 8 : 4;
            if (m_data.size() - m_pos < size)
                return fail();
            quint64 bits = 0;
            for (qsizetype i = size - 1; i >= 0; --i)  // little endian
                bits = (bits << 8) | static_cast<unsigned char>(m_data[m_pos + i]);
            m_pos += size;
            f.varint = bits;
            return f;
        }
        case 2: {
            const auto length = varint();
            if (!length || *length > quint64(m_data.size() - m_pos))
                return fail();
            f.bytes = m_data.sliced(m_pos, qsizetype(*length));
            m_pos += qsizetype(*length);
            return f;
        }
        default:
            return fail();  // groups (3, 4) are not in these messages
        }
    }

    std::optional<quint64> varint()
    {
        quint64 value = 0;
        for (int shift = 0; shift < 64 && m_pos < m_data.size(); shift += 7) {
            const auto byte = static_cast<unsigned char>(m_data[m_pos++]);
            value |= quint64(byte & 0x7F) << shift;
            if (!(byte & 0x80))
                return value;
        }
        return std::nullopt;
    }

private:
    std::optional<Field> fail()
    {
        m_failed = true;
        return std::nullopt;
    }

    QByteArrayView m_data;
    qsizetype m_pos = 0;
    bool m_failed = false;
};

float floatOf(quint64 bits)
{
    const auto b = quint32(bits);
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

double doubleOf(quint64 bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

// IEEE half precision (DT_HALF keeps its bits in half_val).
double halfOf(quint32 bits)
{
    const int sign = (bits >> 15) & 1;
    const int exponent = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    double v;
    if (exponent == 0)
        v = std::ldexp(mantissa, -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = std::ldexp(mantissa + 1024, exponent - 25);
    return sign ? -v : v;
}

// TensorProto's dtype values of the numbers a scalar can be.
enum DataType { DtFloat = 1, DtDouble = 2, DtInt32 = 3, DtUint8 = 4, DtInt16 = 5, DtInt8 = 6, DtInt64 = 9, DtBool = 10,
                DtHalf = 19 };

// A rank-0 (or one-element) numeric TensorProto's value.
std::optional<double> tensorScalar(QByteArrayView data)
{
    ProtoFields fields(data);
    int dtype = 0;
    qint64 elements = 1;
    QList<double> values;
    QByteArrayView content;
    while (const auto f = fields.next()) {
        if (f->number == 1 && f->wireType == 0) {
            dtype = int(f->varint);
        } else if (f->number == 2 && f->wireType == 2) {
            // TensorShapeProto: dim (2) { size (1) }
            ProtoFields shape(f->bytes);
            while (const auto d = shape.next()) {
                if (d->number != 2 || d->wireType != 2)
                    continue;
                ProtoFields dim(d->bytes);
                while (const auto s = dim.next()) {
                    if (s->number == 1 && s->wireType == 0)
                        elements *= qint64(s->varint);
                }
            }
        } else if (f->number == 4 && f->wireType == 2) {
            content = f->bytes;
        } else if (f->number >= 5 && f->number <= 13 && f->number != 8 && f->number != 9 && f->number != 12) {
            // float_val 5, double_val 6, int_val 7, int64_val 10, bool_val 11, half_val 13:
            // packed (wire type 2) or one by one.
            auto add = [&](quint64 raw) {
                switch (f->number) {
                case 5: values << floatOf(raw); break;
                case 6: values << doubleOf(raw); break;
                case 7: values << double(qint32(raw)); break;
                case 10: values << double(qint64(raw)); break;
                case 11: values << double(raw != 0); break;
                case 13: values << halfOf(quint32(raw)); break;
                }
            };
            if (f->wireType != 2) {
                add(f->varint);
                continue;
            }
            const int width = f->number == 5 ? 4 : f->number == 6 ? 8 : 0;
            if (width) {
                for (qsizetype i = 0; i + width <= f->bytes.size(); i += width) {
                    quint64 bits = 0;
                    for (int k = width - 1; k >= 0; --k)
                        bits = (bits << 8) | static_cast<unsigned char>(f->bytes[i + k]);
                    add(bits);
                }
            } else {
                ProtoFields packed(f->bytes);
                while (const auto v = packed.varint())
                    add(*v);
            }
        }
    }
    if (fields.failed() || elements != 1)
        return std::nullopt;
    if (!values.isEmpty())
        return values.first();
    auto raw = [&](int size) -> std::optional<quint64> {
        if (content.size() != size)
            return std::nullopt;
        quint64 bits = 0;
        for (int k = size - 1; k >= 0; --k)
            bits = (bits << 8) | static_cast<unsigned char>(content[k]);
        return bits;
    };
    switch (dtype) {
    case DtFloat: if (const auto b = raw(4)) return floatOf(*b); break;
    case DtDouble: if (const auto b = raw(8)) return doubleOf(*b); break;
    case DtInt32: if (const auto b = raw(4)) return double(qint32(*b)); break;
    case DtInt64: if (const auto b = raw(8)) return double(qint64(*b)); break;
    case DtInt16: if (const auto b = raw(2)) return double(qint16(*b)); break;
    case DtInt8: if (const auto b = raw(1)) return double(qint8(*b)); break;
    case DtUint8:
    case DtBool: if (const auto b = raw(1)) return double(*b); break;
    case DtHalf: if (const auto b = raw(2)) return halfOf(quint32(*b)); break;
    default: break;
    }
    return std::nullopt;
}

// SummaryMetadata.plugin_data: plugin_name (empty when not given) and content.
struct PluginData
{
    QString name;
    QByteArrayView content;
};
PluginData pluginData(QByteArrayView metadata)
{
    PluginData data;
    ProtoFields fields(metadata);
    while (const auto f = fields.next()) {
        if (f->number != 1 || f->wireType != 2)
            continue;
        ProtoFields plugin(f->bytes);
        while (const auto p = plugin.next()) {
            if (p->number == 1 && p->wireType == 2)
                data.name = QString::fromUtf8(p->bytes);
            else if (p->number == 2 && p->wireType == 2)
                data.content = p->bytes;
        }
    }
    return data;
}

// A google.protobuf.Value as text: number_value (2), string_value (3), bool_value (4); a
// null, struct or list is no setting.
std::optional<QString> valueText(QByteArrayView value)
{
    ProtoFields fields(value);
    std::optional<QString> text;
    while (const auto f = fields.next()) {
        if (f->number == 2 && f->wireType == 1)
            text = QString::number(doubleOf(f->varint), 'g', QLocale::FloatingPointShortest);
        else if (f->number == 3 && f->wireType == 2)
            text = QString::fromUtf8(f->bytes);
        else if (f->number == 4 && f->wireType == 0)
            text = f->varint ? QStringLiteral("true") : QStringLiteral("false");
    }
    return fields.failed() ? std::nullopt : text;
}

// HParamsPluginData (tensorboard/plugins/hparams/plugin_data.proto): session_start_info (3)
// holds hparams (1), a map<string, Value> (entries: key 1, value 2). The experiment (2) and
// session_end_info (4) say nothing of this run's settings.
void readHparams(QByteArrayView content, QList<std::pair<QString, QString>> &settings)
{
    ProtoFields data(content);
    while (const auto f = data.next()) {
        if (f->number != 3 || f->wireType != 2)
            continue;
        ProtoFields start(f->bytes);
        while (const auto e = start.next()) {
            if (e->number != 1 || e->wireType != 2)
                continue;
            ProtoFields entry(e->bytes);
            QString name;
            std::optional<QString> value;
            while (const auto kv = entry.next()) {
                if (kv->number == 1 && kv->wireType == 2)
                    name = QString::fromUtf8(kv->bytes);
                else if (kv->number == 2 && kv->wireType == 2)
                    value = valueText(kv->bytes);
            }
            if (!name.isEmpty() && value)
                settings.append({name, *value});
        }
    }
}

// An Event's scalars and settings; false when it cannot be decoded.
bool readEvent(QByteArrayView data, const QString &file, QList<ScalarPoint> &points,
               QList<std::pair<QString, QString>> &settings)
{
    QList<std::pair<QString, QString>> met;  // kept only when the whole event decodes
    ProtoFields event(data);
    double wallTime = 0;
    qint64 step = 0;
    QList<ScalarPoint> found;
    while (const auto f = event.next()) {
        if (f->number == 1 && f->wireType == 1) {
            wallTime = doubleOf(f->varint);
        } else if (f->number == 2 && f->wireType == 0) {
            step = qint64(f->varint);
        } else if (f->number == 5 && f->wireType == 2) {  // summary
            ProtoFields summary(f->bytes);
            while (const auto v = summary.next()) {
                if (v->number != 1 || v->wireType != 2)
                    continue;
                ProtoFields value(v->bytes);
                QString tag;
                std::optional<double> number;
                PluginData plugin;
                while (const auto field = value.next()) {
                    if (field->number == 1 && field->wireType == 2)
                        tag = QString::fromUtf8(field->bytes);
                    else if (field->number == 2 && field->wireType == 5)
                        number = floatOf(field->varint);
                    else if (field->number == 8 && field->wireType == 2)
                        number = tensorScalar(field->bytes);
                    else if (field->number == 9 && field->wireType == 2)
                        plugin = pluginData(field->bytes);
                }
                if (value.failed())
                    return false;
                if (plugin.name == QLatin1String("hparams"))
                    readHparams(plugin.content, met);
                // A text or other plugin's one-element tensor is not a scalar.
                if (!number || tag.isEmpty() || (!plugin.name.isEmpty() && plugin.name != QLatin1String("scalars")))
                    continue;
                ScalarPoint p;
                p.name = tag;
                p.tag = tag;
                p.value = *number;
                p.source = QStringLiteral("tensorboard");
                p.file = file;
                found << p;
            }
            if (summary.failed())
                return false;
        }
    }
    if (event.failed())
        return false;
    // A wall time that is no time (NaN, negative, past the year 5000) would be stored as 1970
    // or printed with 300 digits: the time of reading stands in for it.
    if (!(wallTime >= 0 && wallTime < 1e11))
        wallTime = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    for (ScalarPoint &p : found) {
        p.time = wallTime;
        p.step = step;
        points << p;
    }
    settings += met;
    return true;
}

quint64 littleEndian(const char *p, int size)
{
    quint64 v = 0;
    for (int k = size - 1; k >= 0; --k)
        v = (v << 8) | static_cast<unsigned char>(p[k]);
    return v;
}

} // namespace

TfEventsReader::Chunk TfEventsReader::read(const QByteArray &data, qint64 offset, const QString &file)
{
    Chunk chunk;
    constexpr qsizetype header = 12;  // length (8) and its CRC (4)
    qsizetype pos = 0;
    while (data.size() - pos >= header) {
        const char *p = data.constData() + pos;
        const quint64 length = littleEndian(p, 8);
        if (quint32(littleEndian(p + 8, 4)) != Crc32c::masked(Crc32c::of(p, 8))) {
            chunk.error = QStringLiteral("%1: the length of the record at offset %2 fails its CRC: not a TFRecord "
                                         "file, or a damaged one").arg(file).arg(offset + pos);
            chunk.errorOffset = offset + pos;
            return chunk;
        }
        if (length > maxRecordBytes) {
            chunk.error = QStringLiteral("%1: the record at offset %2 says it is %3 bytes long, over the %4 MiB a record "
                                         "may have: a damaged file, not read further")
                              .arg(file).arg(offset + pos).arg(length).arg(maxRecordBytes >> 20);
            chunk.errorOffset = offset + pos;
            return chunk;
        }
        if (quint64(data.size() - pos - header) < length + 4) {
            chunk.nextRecordSize = qsizetype(length + header + 4);
            break;
        }  // the writer is still at it: the rest comes with the next read
        const char *payload = p + header;
        if (quint32(littleEndian(payload + length, 4)) != Crc32c::masked(Crc32c::of(payload, qsizetype(length)))) {
            chunk.error = QStringLiteral("%1: the record at offset %2 fails its CRC (its %3 bytes are damaged)")
                              .arg(file).arg(offset + pos).arg(length);
            chunk.errorOffset = offset + pos;
            return chunk;
        }
        if (!readEvent(QByteArrayView(payload, qsizetype(length)), file, chunk.points, chunk.settings)) {
            chunk.error = QStringLiteral("%1: the record at offset %2 is not an Event protobuf").arg(file).arg(offset + pos);
            chunk.errorOffset = offset + pos;
            return chunk;
        }
        pos += header + qsizetype(length) + 4;
        chunk.consumed = pos;
    }
    return chunk;
}

} // namespace TrainDesk

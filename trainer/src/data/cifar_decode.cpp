#include "data/cifar_decode.h"

#include "data/pickle_reader.h"
#include "util/check.h"

namespace td {

namespace {

constexpr int kSide = 32;
constexpr int kPlane = kSide * kSide;
constexpr int kImageBytes = 3 * kPlane;  // R, G and B planes of 32x32

Dataset emptySet(int classes) {
    Dataset d;
    d.h = d.w = kSide;
    d.c = 3;
    d.numClasses = classes;
    return d;
}

// One planar CHW image (as in both forms) -> HWC.
void toHwc(const uint8_t* chw, uint8_t* hwc) {
    for (int p = 0; p < kPlane; ++p)
        for (int ch = 0; ch < 3; ++ch) hwc[p * 3 + ch] = chw[ch * kPlane + p];
}

// Records of label byte(s) then the image; CIFAR-100 has the coarse label, then the fine one.
Dataset decodeBinary(const std::vector<uint8_t>& bytes, const std::string& origin, const CifarLayout& layout,
                     bool coarse) {
    const size_t labelBytes = layout.set == CifarSet::Cifar10 ? 1 : 2;
    const size_t labelAt = layout.set == CifarSet::Cifar100 && !coarse ? 1 : 0;
    const size_t record = labelBytes + kImageBytes;
    if (bytes.empty()) TD_FAIL(origin, ": empty file (a ", layout.title, " file holds ", record, "-byte records)");
    if (bytes.size() % record != 0) {
        size_t last = bytes.size() - bytes.size() % record;
        TD_FAIL(origin, ": truncated at offset ", bytes.size(), ": the record from offset ", last, " has ",
                bytes.size() - last, " of ", record, " bytes");
    }
    Dataset d = emptySet(layout.classes(coarse));
    d.n = int64_t(bytes.size() / record);
    d.pixels.resize(size_t(d.n) * kImageBytes);
    d.labels.resize(size_t(d.n));
    for (int64_t i = 0; i < d.n; ++i) {
        const uint8_t* rec = bytes.data() + size_t(i) * record;
        const uint8_t label = rec[labelAt];
        if (label >= d.numClasses)
            TD_FAIL(origin, ": ", layout.set == CifarSet::Cifar10 ? "" : coarse ? "coarse " : "fine ", "label ",
                    int(label), " at offset ", size_t(i) * record + labelAt, " is not in [0, ", d.numClasses, ")");
        d.labels[size_t(i)] = label;
        toHwc(rec + labelBytes, d.pixels.data() + size_t(i) * kImageBytes);
    }
    return d;
}

std::string keyList(const PickleValue& dict) {
    std::string keys;
    for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
        const PickleValue& k = *dict.items[i];
        std::string name = k.kind == PickleValue::Kind::Bytes ? "b'" + *k.data + "'"
                           : k.kind == PickleValue::Kind::Text ? "'" + k.text + "'"
                                                                : pickleKindName(k.kind);
        keys += (keys.empty() ? "" : ", ") + name;
    }
    return keys.empty() ? "none" : keys;
}

// A dict {b'data': uint8 array (N, 3072), b'labels' (or b'fine_labels'/b'coarse_labels'): [N ints], ...}.
Dataset decodePickle(const std::vector<uint8_t>& bytes, const std::string& origin, const CifarLayout& layout,
                     bool coarse) {
    PickleRef top = readPickle(bytes, origin);
    if (top->kind != PickleValue::Kind::Dict)
        TD_FAIL(origin, ": the pickle holds a ", pickleKindName(top->kind), ", not a dict");
    const std::string labelKey = layout.set == CifarSet::Cifar10 ? "labels" : coarse ? "coarse_labels" : "fine_labels";
    const PickleValue* data = top->find("data");
    const PickleValue* labels = top->find(labelKey);
    if (!data || !labels)
        TD_FAIL(origin, ": the pickle's dict has no b'", data ? labelKey : "data", "' (its keys: ", keyList(*top), ")");
    if (data->kind != PickleValue::Kind::Array || data->shape.size() != 2 || data->shape[1] != kImageBytes ||
        data->shape[0] < 1)
        TD_FAIL(origin, ": b'data' (made at offset ", data->offset, ") is not a uint8 array of shape (N, 3072)");
    if (labels->kind != PickleValue::Kind::List || int64_t(labels->items.size()) != data->shape[0])
        TD_FAIL(origin, ": b'", labelKey, "' (made at offset ", labels->offset, ") is not a list of ", data->shape[0],
                " labels, one per image");

    Dataset d = emptySet(layout.classes(coarse));
    d.n = data->shape[0];
    d.pixels.resize(size_t(d.n) * kImageBytes);
    d.labels.resize(size_t(d.n));
    const auto* src = reinterpret_cast<const uint8_t*>(data->data->data());
    for (int64_t i = 0; i < d.n; ++i) {
        const PickleValue& l = *labels->items[size_t(i)];
        if (l.kind != PickleValue::Kind::Int || l.number < 0 || l.number >= d.numClasses)
            TD_FAIL(origin, ": b'", labelKey, "'[", i, "] (at offset ", l.offset, ") is ",
                    l.kind == PickleValue::Kind::Int ? std::to_string(l.number) : pickleKindName(l.kind),
                    ", not a label in [0, ", d.numClasses, ")");
        d.labels[size_t(i)] = uint8_t(l.number);
        toHwc(src + size_t(i) * kImageBytes, d.pixels.data() + size_t(i) * kImageBytes);
    }
    return d;
}

}  // namespace

Dataset decodeCifarBatch(const std::vector<uint8_t>& bytes, const std::string& origin, const CifarLayout& layout,
                         bool coarse) {
    return layout.python ? decodePickle(bytes, origin, layout, coarse) : decodeBinary(bytes, origin, layout, coarse);
}

void appendImages(Dataset& into, const Dataset& part) {
    into.pixels.insert(into.pixels.end(), part.pixels.begin(), part.pixels.end());
    into.labels.insert(into.labels.end(), part.labels.begin(), part.labels.end());
    into.n += part.n;
}

}  // namespace td

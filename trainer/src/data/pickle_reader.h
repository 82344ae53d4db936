#pragma once
// A strict reader of the Python pickles in CIFAR's "python version": protocol 2 (as written
// by Python 2's cPickle, and by Python 3 with protocol=2), holding a dict of bytes keys to
// lists of ints, byte strings and one uint8 numpy array. It knows only the opcodes those
// files use and builds only numpy arrays, numpy dtypes and bytes (Python 3's
// _codecs.encode(text, 'latin1')); anything else is an error naming the file, the opcode
// and its offset. It runs no Python and calls nothing named in the file.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace td {

struct PickleValue;
using PickleRef = std::shared_ptr<PickleValue>;

struct PickleValue {
    enum class Kind { None, Bool, Int, Bytes, Text, Tuple, List, Dict, Global, Array, Dtype };
    Kind kind = Kind::None;
    int64_t number = 0;             // Int, Bool (0/1)
    std::string text;               // Text (UTF-8), Global ("module name")
    std::vector<PickleRef> items;   // Tuple, List; Dict: key, value, key, value, ...
    // Bytes: the bytes; Array (numpy uint8, C order): its bytes, shared with the Bytes value
    // it was built from, and its shape.
    std::shared_ptr<const std::string> data;
    std::vector<int64_t> shape;
    uint64_t offset = 0;            // where it was made in the pickle (for messages)

    // Dict lookup by a bytes or text key; null when absent.
    const PickleValue* find(const std::string& key) const;
};

const char* pickleKindName(PickleValue::Kind k);

// Parses a whole pickle; `origin` names it in errors (a path, or archive:member).
PickleRef readPickle(const std::vector<uint8_t>& bytes, const std::string& origin);

}  // namespace td

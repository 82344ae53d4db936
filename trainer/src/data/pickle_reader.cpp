#include "data/pickle_reader.h"

#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "util/check.h"

namespace td {

namespace {

// Every opcode of pickle protocols 0-5, for naming the ones this reader refuses.
const char* opcodeName(uint8_t op) {
    switch (op) {
        case '(': return "MARK";            case '.': return "STOP";           case '0': return "POP";
        case '1': return "POP_MARK";        case '2': return "DUP";            case 'F': return "FLOAT";
        case 'I': return "INT";             case 'J': return "BININT";         case 'K': return "BININT1";
        case 'L': return "LONG";            case 'M': return "BININT2";        case 'N': return "NONE";
        case 'P': return "PERSID";          case 'Q': return "BINPERSID";      case 'R': return "REDUCE";
        case 'S': return "STRING";          case 'T': return "BINSTRING";      case 'U': return "SHORT_BINSTRING";
        case 'V': return "UNICODE";         case 'X': return "BINUNICODE";     case 'a': return "APPEND";
        case 'b': return "BUILD";           case 'c': return "GLOBAL";         case 'd': return "DICT";
        case '}': return "EMPTY_DICT";      case 'e': return "APPENDS";        case 'g': return "GET";
        case 'h': return "BINGET";          case 'i': return "INST";           case 'j': return "LONG_BINGET";
        case 'l': return "LIST";            case ']': return "EMPTY_LIST";     case 'o': return "OBJ";
        case 'p': return "PUT";             case 'q': return "BINPUT";         case 'r': return "LONG_BINPUT";
        case 's': return "SETITEM";         case 't': return "TUPLE";          case ')': return "EMPTY_TUPLE";
        case 'u': return "SETITEMS";        case 'G': return "BINFLOAT";       case 0x80: return "PROTO";
        case 0x81: return "NEWOBJ";         case 0x82: return "EXT1";          case 0x83: return "EXT2";
        case 0x84: return "EXT4";           case 0x85: return "TUPLE1";        case 0x86: return "TUPLE2";
        case 0x87: return "TUPLE3";         case 0x88: return "NEWTRUE";       case 0x89: return "NEWFALSE";
        case 0x8a: return "LONG1";          case 0x8b: return "LONG4";         case 'B': return "BINBYTES";
        case 'C': return "SHORT_BINBYTES";  case 0x8c: return "SHORT_BINUNICODE"; case 0x8d: return "BINUNICODE8";
        case 0x8e: return "BINBYTES8";      case 0x8f: return "EMPTY_SET";     case 0x90: return "ADDITEMS";
        case 0x91: return "FROZENSET";      case 0x92: return "NEWOBJ_EX";     case 0x93: return "STACK_GLOBAL";
        case 0x94: return "MEMOIZE";        case 0x95: return "FRAME";         case 0x96: return "BYTEARRAY8";
        case 0x97: return "NEXT_BUFFER";    case 0x98: return "READONLY_BUFFER";
        default: return nullptr;
    }
}

std::string hexByte(uint8_t b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", b);
    return buf;
}

PickleRef make(PickleValue::Kind kind, uint64_t at) {
    auto v = std::make_shared<PickleValue>();
    v->kind = kind;
    v->offset = at;
    return v;
}

bool isIntLike(const PickleValue& v, int64_t want) {
    return (v.kind == PickleValue::Kind::Int || v.kind == PickleValue::Kind::Bool) && v.number == want;
}

// Bytes or text holding exactly `s` (Python 2 wrote str, Python 3 writes bytes or str).
bool isString(const PickleValue& v, const char* s) {
    if (v.kind == PickleValue::Kind::Text) return v.text == s;
    return v.kind == PickleValue::Kind::Bytes && *v.data == s;
}

class Unpickler {
public:
    Unpickler(const std::vector<uint8_t>& bytes, const std::string& origin) : m_b(bytes), m_origin(origin) {}

    PickleRef run() {
        for (;;) {
            m_op = m_pos;
            if (m_pos >= m_b.size()) fail("the pickle ends before its STOP opcode");
            const uint8_t op = m_b[m_pos++];
            switch (op) {
                case 0x80: {
                    uint8_t version = u8();
                    if (m_op != 0) fail("PROTO opcode not at the start");
                    if (version > 2)
                        fail(cat("pickle protocol ", int(version), "; CIFAR's batches are protocol 2 (Python 2's "
                                 "cPickle, or Python 3 with protocol=2)"));
                    break;
                }
                case '.': return stop();
                case '(': m_marks.push_back(m_stack.size()); break;
                case 'N': push(make(PickleValue::Kind::None, m_op)); break;
                case 0x88: case 0x89: {
                    PickleRef v = make(PickleValue::Kind::Bool, m_op);
                    v->number = op == 0x88;
                    push(v);
                    break;
                }
                case 'K': pushInt(u8()); break;
                case 'M': pushInt(u16()); break;
                case 'J': pushInt(int32_t(u32())); break;
                case 'U': pushBytes(u8()); break;
                case 'T': {
                    int32_t n = int32_t(u32());
                    if (n < 0) fail(cat("BINSTRING of negative length ", n));
                    pushBytes(size_t(n));
                    break;
                }
                case 'X': {
                    PickleRef v = make(PickleValue::Kind::Text, m_op);
                    size_t n = u32();
                    v->text = std::string(reinterpret_cast<const char*>(take(n)), n);
                    push(v);
                    break;
                }
                case ')': push(make(PickleValue::Kind::Tuple, m_op)); break;
                case 0x85: case 0x86: case 0x87: {
                    size_t n = size_t(op - 0x84);
                    PickleRef t = make(PickleValue::Kind::Tuple, m_op);
                    if (m_stack.size() < n + base()) fail(cat(opcodeName(op), " needs ", n, " items on the stack"));
                    t->items.assign(m_stack.end() - long(n), m_stack.end());
                    m_stack.resize(m_stack.size() - n);
                    push(t);
                    break;
                }
                case 't': {
                    PickleRef t = make(PickleValue::Kind::Tuple, m_op);
                    t->items = popToMark();
                    push(t);
                    break;
                }
                case ']': push(make(PickleValue::Kind::List, m_op)); break;
                case '}': push(make(PickleValue::Kind::Dict, m_op)); break;
                case 'a': {
                    PickleRef item = pop();
                    container(PickleValue::Kind::List).items.push_back(item);
                    break;
                }
                case 'e': {
                    std::vector<PickleRef> items = popToMark();
                    std::vector<PickleRef>& into = container(PickleValue::Kind::List).items;
                    into.insert(into.end(), items.begin(), items.end());
                    break;
                }
                case 's': {
                    PickleRef value = pop(), key = pop();
                    PickleValue& d = container(PickleValue::Kind::Dict);
                    d.items.push_back(key);
                    d.items.push_back(value);
                    break;
                }
                case 'u': {
                    std::vector<PickleRef> kv = popToMark();
                    if (kv.size() % 2) fail("SETITEMS with an odd number of items");
                    std::vector<PickleRef>& into = container(PickleValue::Kind::Dict).items;
                    into.insert(into.end(), kv.begin(), kv.end());
                    break;
                }
                case 'q': m_memo[u8()] = top(); break;
                case 'r': m_memo[u32()] = top(); break;
                case 'h': push(memo(u8())); break;
                case 'j': push(memo(u32())); break;
                case 'c': {
                    PickleRef g = make(PickleValue::Kind::Global, m_op);
                    std::string module = line(), name = line();
                    g->text = module + " " + name;
                    push(g);
                    break;
                }
                case 'R': reduce(); break;
                case 'b': build(); break;
                default: {
                    const char* name = opcodeName(op);
                    fail(cat("pickle opcode ", hexByte(op), name ? cat(" (", name, ")") : std::string(" (not an opcode)"),
                             " is not one this reader takes (it reads the protocol-2 pickles of CIFAR's python "
                             "version)"));
                }
            }
        }
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw RuntimeError(cat(m_origin, ": ", why, " at offset ", m_op));
    }

    const uint8_t* take(size_t n) {
        if (n > m_b.size() - m_pos)
            fail(cat("the pickle is truncated: ", opcodeName(m_b[m_op]), " needs ", n, " bytes, ", m_b.size() - m_pos,
                     " are left"));
        const uint8_t* p = m_b.data() + m_pos;
        m_pos += n;
        return p;
    }
    uint8_t u8() { return *take(1); }
    uint16_t u16() {
        const uint8_t* p = take(2);
        return uint16_t(p[0] | (p[1] << 8));
    }
    uint32_t u32() {
        const uint8_t* p = take(4);
        return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
    }
    std::string line() {
        size_t end = m_pos;
        while (end < m_b.size() && end - m_pos < 256 && m_b[end] != '\n') ++end;
        if (end >= m_b.size() || m_b[end] != '\n') fail("GLOBAL without a newline-terminated name");
        std::string s(reinterpret_cast<const char*>(m_b.data() + m_pos), end - m_pos);
        m_pos = end + 1;
        return s;
    }

    size_t base() const { return m_marks.empty() ? 0 : m_marks.back(); }
    void push(PickleRef v) { m_stack.push_back(std::move(v)); }
    void pushInt(int64_t x) {
        PickleRef v = make(PickleValue::Kind::Int, m_op);
        v->number = x;
        push(v);
    }
    void pushBytes(size_t n) {
        PickleRef v = make(PickleValue::Kind::Bytes, m_op);
        v->data = std::make_shared<const std::string>(reinterpret_cast<const char*>(take(n)), n);
        push(v);
    }
    PickleRef top() {
        if (m_stack.size() <= base()) fail(cat(opcodeName(m_b[m_op]), " with an empty stack"));
        return m_stack.back();
    }
    PickleRef pop() {
        PickleRef v = top();
        m_stack.pop_back();
        return v;
    }
    std::vector<PickleRef> popToMark() {
        if (m_marks.empty()) fail(cat(opcodeName(m_b[m_op]), " without a MARK"));
        std::vector<PickleRef> items(m_stack.begin() + long(m_marks.back()), m_stack.end());
        m_stack.resize(m_marks.back());
        m_marks.pop_back();
        return items;
    }
    PickleValue& container(PickleValue::Kind kind) {
        PickleRef c = top();
        if (c->kind != kind)
            fail(cat(opcodeName(m_b[m_op]), " on a ", pickleKindName(c->kind), ", not a ", pickleKindName(kind)));
        return *c;
    }
    PickleRef memo(uint32_t id) {
        auto it = m_memo.find(id);
        if (it == m_memo.end()) fail(cat(opcodeName(m_b[m_op]), " of memo entry ", id, ", which was never stored"));
        return it->second;
    }

    PickleRef stop() {
        if (!m_marks.empty() || m_stack.size() != 1) fail("STOP with a MARK open or more than one item on the stack");
        if (m_pos != m_b.size()) fail(cat(m_b.size() - m_pos, " bytes of trailing data after STOP"));
        return m_stack.back();
    }

    // Only three callables are known, and they are built here, not called.
    void reduce() {
        PickleRef args = pop(), fn = pop();
        if (fn->kind != PickleValue::Kind::Global || args->kind != PickleValue::Kind::Tuple)
            fail("REDUCE without a GLOBAL and a tuple of arguments");
        const std::vector<PickleRef>& a = args->items;
        if (fn->text == "_codecs encode") {
            // Python 3 writes bytes at protocol 2 as _codecs.encode(text, 'latin1').
            if (a.size() != 2 || a[0]->kind != PickleValue::Kind::Text || !isString(*a[1], "latin1"))
                fail("_codecs.encode with arguments other than (text, 'latin1')");
            PickleRef v = make(PickleValue::Kind::Bytes, m_op);
            v->data = std::make_shared<const std::string>(latin1(a[0]->text));
            push(v);
        } else if (fn->text == "numpy.core.multiarray _reconstruct" || fn->text == "numpy._core.multiarray _reconstruct") {
            if (a.size() != 3 || a[0]->kind != PickleValue::Kind::Global || a[0]->text != "numpy ndarray")
                fail("numpy _reconstruct of something other than a numpy.ndarray");
            push(make(PickleValue::Kind::Array, m_op));
        } else if (fn->text == "numpy dtype") {
            if (a.size() != 3 || !isString(*a[0], "u1") || !isIntLike(*a[1], 0) || !isIntLike(*a[2], 1))
                fail("a numpy dtype other than uint8 ('u1'); CIFAR's pixels are uint8");
            push(make(PickleValue::Kind::Dtype, m_op));
        } else {
            fail(cat("REDUCE of ", fn->text, "; the reader builds only numpy arrays, numpy dtypes and "
                     "_codecs.encode bytes"));
        }
    }

    void build() {
        PickleRef state = pop();
        PickleRef obj = top();
        if (state->kind != PickleValue::Kind::Tuple) fail("BUILD with a state that is not a tuple");
        const std::vector<PickleRef>& s = state->items;
        if (obj->kind == PickleValue::Kind::Dtype) {
            // (version, byte order, subarray, names, fields, elsize, alignment, flags)
            if (s.size() < 2 || !isString(*s[1], "|")) fail("numpy dtype state of an unexpected form");
            return;
        }
        if (obj->kind != PickleValue::Kind::Array) fail(cat("BUILD on a ", pickleKindName(obj->kind)));
        // numpy's ndarray state: ([version,] shape, dtype, is_fortran, raw data)
        size_t k = s.size() == 5 ? 1 : 0;
        if (s.size() != 4 + k || s[k]->kind != PickleValue::Kind::Tuple || s[k + 1]->kind != PickleValue::Kind::Dtype ||
            s[k + 3]->kind != PickleValue::Kind::Bytes)
            fail("numpy array state other than (version, shape, uint8 dtype, fortran flag, bytes)");
        if (!isIntLike(*s[k + 2], 0)) fail("a Fortran-ordered numpy array");
        int64_t count = 1;
        for (const PickleRef& d : s[k]->items) {
            if (d->kind != PickleValue::Kind::Int || d->number < 0 || d->number > (int64_t(1) << 40))
                fail("numpy array shape with a non-integer or implausible dimension");
            obj->shape.push_back(d->number);
            count *= d->number;
            if (count > (int64_t(1) << 40)) fail("numpy array of implausible size");
        }
        if (uint64_t(count) != s[k + 3]->data->size())
            fail(cat("numpy array of ", count, " elements holds ", s[k + 3]->data->size(), " bytes"));
        obj->data = s[k + 3]->data;
    }

    // UTF-8 text whose code points are all < 256 -> those bytes.
    std::string latin1(const std::string& utf8) {
        std::string out;
        out.reserve(utf8.size());
        for (size_t i = 0; i < utf8.size(); ++i) {
            uint8_t c = uint8_t(utf8[i]);
            if (c < 0x80) {
                out.push_back(char(c));
            } else if ((c == 0xc2 || c == 0xc3) && i + 1 < utf8.size() && (uint8_t(utf8[i + 1]) & 0xc0) == 0x80) {
                out.push_back(char(((c & 0x03) << 6) | (uint8_t(utf8[++i]) & 0x3f)));
            } else {
                fail(cat("_codecs.encode(..., 'latin1') of text that is not Latin-1 (byte ", hexByte(c), " at ", i,
                         ")"));
            }
        }
        return out;
    }

    const std::vector<uint8_t>& m_b;
    const std::string& m_origin;
    size_t m_pos = 0;
    size_t m_op = 0;  // offset of the opcode being run
    std::vector<PickleRef> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint32_t, PickleRef> m_memo;
};

}  // namespace

const char* pickleKindName(PickleValue::Kind k) {
    switch (k) {
        case PickleValue::Kind::None: return "None";
        case PickleValue::Kind::Bool: return "bool";
        case PickleValue::Kind::Int: return "int";
        case PickleValue::Kind::Bytes: return "bytes";
        case PickleValue::Kind::Text: return "str";
        case PickleValue::Kind::Tuple: return "tuple";
        case PickleValue::Kind::List: return "list";
        case PickleValue::Kind::Dict: return "dict";
        case PickleValue::Kind::Global: return "global";
        case PickleValue::Kind::Array: return "numpy array";
        case PickleValue::Kind::Dtype: return "numpy dtype";
    }
    return "?";
}

const PickleValue* PickleValue::find(const std::string& key) const {
    for (size_t i = 0; i + 1 < items.size(); i += 2)
        if (isString(*items[i], key.c_str())) return items[i + 1].get();
    return nullptr;
}

PickleRef readPickle(const std::vector<uint8_t>& bytes, const std::string& origin) {
    return Unpickler(bytes, origin).run();
}

}  // namespace td

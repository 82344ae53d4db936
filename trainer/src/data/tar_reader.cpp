#include "data/tar_reader.h"

#include <algorithm>
#include <cstring>

#include "util/check.h"

namespace td {

namespace {

constexpr size_t kBlock = 512;
// Checked against a header's size before anything is allocated for a member.
constexpr uint64_t kMaxMember = uint64_t(1) << 36;

// An octal header field (NUL or space terminated, maybe space padded in front).
bool parseOctal(const unsigned char* field, size_t len, uint64_t& out) {
    size_t i = 0;
    while (i < len && field[i] == ' ') ++i;
    uint64_t v = 0;
    size_t digits = 0;
    for (; i < len && field[i] >= '0' && field[i] <= '7'; ++i, ++digits) {
        if (v >> 60) return false;
        v = v * 8 + (field[i] - '0');
    }
    for (; i < len; ++i)
        if (field[i] != ' ' && field[i] != '\0') return false;
    out = v;
    return digits > 0;
}

std::string field(const unsigned char* p, size_t len) {
    return std::string(reinterpret_cast<const char*>(p), strnlen(reinterpret_cast<const char*>(p), len));
}

// Pax records: "LENGTH key=value\n" each; only path and size matter here.
void parsePax(const std::string& archive, uint64_t at, const std::vector<uint8_t>& data, std::string& path,
              uint64_t& size, bool& haveSize) {
    size_t i = 0;
    while (i < data.size()) {
        size_t sp = i;
        size_t len = 0;
        while (sp < data.size() && data[sp] >= '0' && data[sp] <= '9' && len < (1u << 30))
            len = len * 10 + (data[sp++] - '0');
        if (sp >= data.size() || data[sp] != ' ' || len == 0 || i + len > data.size() || data[i + len - 1] != '\n')
            TD_FAIL(archive, ": malformed pax extended header at offset ", at);
        std::string rec(reinterpret_cast<const char*>(&data[sp + 1]), i + len - 1 - (sp + 1));
        size_t eq = rec.find('=');
        if (eq == std::string::npos) TD_FAIL(archive, ": malformed pax record '", rec, "' at offset ", at);
        std::string key = rec.substr(0, eq), value = rec.substr(eq + 1);
        if (key == "path") path = value;
        if (key == "size") {
            uint64_t v = 0;
            for (char ch : value) {
                if (ch < '0' || ch > '9' || (v >> 59)) TD_FAIL(archive, ": bad pax size '", value, "' at offset ", at);
                v = v * 10 + uint64_t(ch - '0');
            }
            size = v;
            haveSize = true;
        }
        i += len;
    }
}

}  // namespace

TarReader::TarReader(const std::string& path) : m_in(path) {}

void TarReader::skipRest() {
    m_in.skip(m_contentLeft + m_paddingLeft, "the rest of a tar member");
    m_contentLeft = m_paddingLeft = 0;
}

void TarReader::readEnd() {
    // The end marker is two zero blocks; the rest of the stream is padding. Reading it to
    // the end makes zlib check the gzip trailer (CRC-32 and length).
    unsigned char block[kBlock];
    m_in.read(block, kBlock, "the second zero block of the end-of-archive marker");
    if (std::any_of(block, block + kBlock, [](unsigned char b) { return b != 0; }))
        TD_FAIL(path(), ": a zero block followed by a non-zero one at offset ", m_in.offset() - kBlock,
                " (not a tar archive, or a damaged one)");
    std::vector<unsigned char> rest(1 << 16);
    while (m_in.readSome(rest.data(), rest.size(), "the padding after the end of the archive") > 0) {
    }
}

bool TarReader::next(TarMember& member) {
    skipRest();
    std::string longName;  // from a GNU 'L' or pax header, for the header that follows
    uint64_t paxSize = 0;
    bool havePaxSize = false;
    for (;;) {
        const uint64_t at = m_in.offset();
        unsigned char h[kBlock];
        m_in.read(h, kBlock, "a tar header");
        if (std::all_of(h, h + kBlock, [](unsigned char b) { return b == 0; })) {
            readEnd();
            return false;
        }
        uint64_t sum = 0, want = 0;
        for (size_t i = 0; i < kBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : h[i];
        if (!parseOctal(h + 148, 8, want) || sum != want)
            TD_FAIL(path(), ": bad tar header checksum at offset ", at, " (not a tar archive, or a damaged one)");
        uint64_t size = 0;
        if (!parseOctal(h + 124, 12, size))
            TD_FAIL(path(), ": unreadable size field in the tar header at offset ", at);
        const char type = char(h[156]);
        if (havePaxSize && type != 'x' && type != 'g' && type != 'L') size = paxSize;
        if (size > kMaxMember) TD_FAIL(path(), ": tar member of ", size, " bytes at offset ", at, " is implausible");
        m_contentLeft = size;
        m_paddingLeft = (kBlock - size % kBlock) % kBlock;

        std::string name = field(h, 100);
        if (std::memcmp(h + 257, "ustar", 5) == 0 && h[345] != 0) name = field(h + 345, 155) + "/" + name;
        if (!longName.empty()) name = longName;

        if (type == 'L' || type == 'x') {  // the next header's long name, size
            TarMember meta{name, size, at};
            m_current = meta;
            std::vector<uint8_t> data = readContent();
            skipRest();
            if (type == 'L') {
                longName = field(data.data(), data.size());
            } else {
                parsePax(path(), at, data, longName, paxSize, havePaxSize);
            }
            continue;
        }
        if (type == '0' || type == '\0' || type == '7') {
            member = TarMember{name, size, at};
            m_current = member;
            return true;
        }
        // Directories, links, global pax headers, devices: nothing to read.
        skipRest();
        longName.clear();
        havePaxSize = false;
    }
}

std::vector<uint8_t> TarReader::readContent() {
    // Grown as it is read, so a damaged size field fails on the short read, not on allocation.
    std::vector<uint8_t> out;
    const std::string what = "tar member " + m_current.name;
    while (m_contentLeft > 0) {
        size_t chunk = size_t(std::min<uint64_t>(m_contentLeft, 64u << 20));
        size_t used = out.size();
        out.resize(used + chunk);
        m_in.read(out.data() + used, chunk, what.c_str());
        m_contentLeft -= chunk;
    }
    return out;
}

}  // namespace td

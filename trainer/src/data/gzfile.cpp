#include "data/gzfile.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/check.h"

namespace td {

GzReader::GzReader(const std::string& path) : m_path(path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) TD_FAIL(path, ": cannot open: ", std::strerror(errno));
    gzbuffer(f, 1 << 20);
    m_gz = f;
}

GzReader::~GzReader() {
    if (m_gz) gzclose(static_cast<gzFile>(m_gz));
}

void GzReader::read(void* dst, size_t n, const char* what) {
    auto* out = static_cast<unsigned char*>(dst);
    size_t done = 0;
    while (done < n) {
        unsigned chunk = unsigned(std::min<size_t>(n - done, 1u << 30));
        int got = gzread(static_cast<gzFile>(m_gz), out + done, chunk);
        if (got < 0) {
            int zerr = 0;
            const char* msg = gzerror(static_cast<gzFile>(m_gz), &zerr);
            TD_FAIL(m_path, ": corrupt or truncated data at offset ", m_offset + done, " while reading ",
                    what, ": ", msg);
        }
        if (got == 0) {
            int zerr = 0;
            const char* msg = gzerror(static_cast<gzFile>(m_gz), &zerr);
            TD_FAIL(m_path, ": truncated at offset ", m_offset + done, " while reading ", what, " (needed ",
                    n, " bytes from offset ", m_offset, ")", zerr != Z_OK ? std::string(": ") + msg : "");
        }
        done += size_t(got);
    }
    m_offset += n;
}

uint32_t GzReader::readBigEndian32(const char* what) {
    unsigned char b[4];
    read(b, 4, what);
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | uint32_t(b[3]);
}

size_t GzReader::readSome(void* dst, size_t n, const char* what) {
    int got = gzread(static_cast<gzFile>(m_gz), dst, unsigned(std::min<size_t>(n, 1u << 30)));
    if (got < 0) {
        int zerr = 0;
        const char* msg = gzerror(static_cast<gzFile>(m_gz), &zerr);
        TD_FAIL(m_path, ": corrupt or truncated data at offset ", m_offset, " while reading ", what, ": ", msg);
    }
    if (got == 0) {
        // zlib reports a stream cut short (no gzip trailer) as an error, not as the end.
        int zerr = 0;
        const char* msg = gzerror(static_cast<gzFile>(m_gz), &zerr);
        if (zerr != Z_OK) TD_FAIL(m_path, ": truncated at offset ", m_offset, " while reading ", what, ": ", msg);
    }
    m_offset += uint64_t(got);
    return size_t(got);
}

void GzReader::skip(uint64_t n, const char* what) {
    std::vector<unsigned char> scratch(size_t(std::min<uint64_t>(n, 1u << 20)));
    while (n > 0) {
        size_t chunk = size_t(std::min<uint64_t>(n, scratch.size()));
        read(scratch.data(), chunk, what);
        n -= chunk;
    }
}

bool GzReader::atEnd() {
    unsigned char b;
    int got = gzread(static_cast<gzFile>(m_gz), &b, 1);
    return got == 0;
}

bool fileExists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool dirExists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<uint8_t> readWholeFile(const std::string& path) {
    GzReader r(path);
    std::vector<uint8_t> out;
    size_t used = 0;
    for (;;) {
        if (out.size() - used < (1u << 20)) out.resize(std::max<size_t>(out.size() * 2, used + (4u << 20)));
        size_t got = r.readSome(out.data() + used, out.size() - used, "the file");
        if (got == 0) break;
        used += got;
    }
    out.resize(used);
    return out;
}

}  // namespace td

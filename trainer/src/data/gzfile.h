#pragma once
// Whole-file reads through zlib, which reads gzip and plain files alike. Short reads
// report the file and the (uncompressed) offset where the data ended.
#include <cstdint>
#include <string>
#include <vector>

namespace td {

class GzReader {
public:
    explicit GzReader(const std::string& path);
    ~GzReader();
    GzReader(const GzReader&) = delete;
    GzReader& operator=(const GzReader&) = delete;

    // Reads exactly n bytes or throws naming the file, offset and what was being read.
    void read(void* dst, size_t n, const char* what);
    uint32_t readBigEndian32(const char* what);
    // Reads up to n bytes; returns how many (0 at the end). Corrupt data throws.
    size_t readSome(void* dst, size_t n, const char* what);
    // Reads and drops n bytes (throws like read()).
    void skip(uint64_t n, const char* what);
    // True when no byte is left (used to reject trailing garbage).
    bool atEnd();
    uint64_t offset() const { return m_offset; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    void* m_gz = nullptr;
    uint64_t m_offset = 0;
};

bool fileExists(const std::string& path);
bool dirExists(const std::string& path);

// The whole (uncompressed) content of a plain or gzipped file.
std::vector<uint8_t> readWholeFile(const std::string& path);

}  // namespace td

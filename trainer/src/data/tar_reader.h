#pragma once
// Sequential reader of a tar archive, gzipped (.tar.gz, .tgz) or not, over GzReader: the
// data set archives are read member by member without unpacking them to disk. Knows ustar
// and GNU headers (long names) and pax extended headers (path, size); each header's checksum
// is checked, and the gzip trailer (CRC) is read at the end of the archive.
#include <cstdint>
#include <string>
#include <vector>

#include "data/gzfile.h"

namespace td {

struct TarMember {
    std::string name;         // path inside the archive, e.g. "cifar-10-batches-py/data_batch_1"
    uint64_t size = 0;        // bytes of content
    uint64_t headerOffset = 0;  // offset of its header in the (uncompressed) tar stream
};

class TarReader {
public:
    explicit TarReader(const std::string& path);

    // Moves to the next regular file (directories and links are passed over), skipping what
    // is left of the current one. False at the end-of-archive marker.
    bool next(TarMember& member);
    // The current member's whole content (once per member).
    std::vector<uint8_t> readContent();
    const std::string& path() const { return m_in.path(); }

private:
    void skipRest();
    void readEnd();

    GzReader m_in;
    TarMember m_current;
    uint64_t m_contentLeft = 0;  // unread content bytes of the current member
    uint64_t m_paddingLeft = 0;  // then zero bytes up to the next 512-byte block
};

}  // namespace td

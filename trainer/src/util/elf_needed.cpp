#include "util/elf_needed.h"

#include <elf.h>

#include <cstring>
#include <fstream>

namespace td {

namespace {

// Reads n bytes at offset; false past the end (the file is read piecewise: libcublas is
// hundreds of MB, its headers a few KB).
bool readAt(std::ifstream& in, uint64_t offset, void* to, size_t n) {
    in.clear();
    in.seekg(std::streamoff(offset));
    return bool(in.read(static_cast<char*>(to), std::streamsize(n)));
}

}  // namespace

std::vector<std::string> elfNeeded(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = "cannot read " + path;
        return {};
    }
    Elf64_Ehdr eh;
    if (!readAt(in, 0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        *error = path + " is not an ELF file";
        return {};
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr)) {
        *error = path + " is not a 64-bit little-endian ELF file with section headers";
        return {};
    }
    auto section = [&](size_t i, Elf64_Shdr* s) { return readAt(in, eh.e_shoff + i * sizeof *s, s, sizeof *s); };
    std::vector<std::string> needed;
    for (size_t i = 0; i < eh.e_shnum; ++i) {
        Elf64_Shdr dyn, str;
        if (!section(i, &dyn)) break;
        if (dyn.sh_type != SHT_DYNAMIC || dyn.sh_link >= eh.e_shnum || !section(dyn.sh_link, &str)) continue;
        if (dyn.sh_size > (64u << 20) || str.sh_size > (64u << 20)) break;  // not a sane dynamic section
        std::string strings(str.sh_size, '\0');
        std::string entries(dyn.sh_size, '\0');
        if (!readAt(in, str.sh_offset, strings.data(), strings.size()) ||
            !readAt(in, dyn.sh_offset, entries.data(), entries.size()))
            break;
        for (size_t off = 0; off + sizeof(Elf64_Dyn) <= entries.size(); off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn d;
            std::memcpy(&d, entries.data() + off, sizeof d);
            if (d.d_tag == DT_NULL) break;
            if (d.d_tag == DT_NEEDED && d.d_un.d_val < strings.size()) needed.emplace_back(strings.c_str() + d.d_un.d_val);
        }
    }
    return needed;
}

}  // namespace td

#pragma once
// The DT_NEEDED entries (sonames) of a 64-bit little-endian ELF shared object or executable,
// read from its section headers: what the loader will look for when it is loaded. Used to
// find the CUDA libraries the CUDA plugin needs before it is loaded (train/cuda_libraries.h).
#include <string>
#include <vector>

namespace td {

// Empty with `error` set when the file cannot be read or is not such an ELF file.
std::vector<std::string> elfNeeded(const std::string& path, std::string* error);

}  // namespace td

#include <cstdio>

#include "data/loaders.h"
#include "util/check.h"

namespace td {

// Per set (train, then test): int64 n, int32 h, w, c, classes (little endian, as the host
// writes them), n*h*w*c pixel bytes, n label bytes.
void dumpDataSplit(const DataSplit& s, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) TD_FAIL(path, ": cannot create the data dump");
    bool ok = true;
    for (const Dataset* d : {&s.train, &s.test}) {
        const int32_t dims[4] = {d->h, d->w, d->c, d->numClasses};
        ok = ok && std::fwrite(&d->n, sizeof d->n, 1, f) == 1 && std::fwrite(dims, sizeof dims, 1, f) == 1;
        ok = ok && std::fwrite(d->pixels.data(), 1, d->pixels.size(), f) == d->pixels.size();
        ok = ok && std::fwrite(d->labels.data(), 1, d->labels.size(), f) == d->labels.size();
    }
    if (std::fclose(f) != 0 || !ok) TD_FAIL(path, ": cannot write the data dump");
}

}  // namespace td

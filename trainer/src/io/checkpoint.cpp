#include "io/checkpoint.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/metrics.h"
#include "util/check.h"

namespace td {

namespace {

constexpr char kMagic[8] = {'T', 'D', 'C', 'K', 'P', 'T', '0', '1'};

struct Header {
    char magic[8];
    int32_t h, w, c, classes;
    int32_t epochsDone, batch, workers, reserved;
    int64_t iterations;
    uint64_t seed;
    double lr, decay;
    uint64_t floats;  // per buffer
};

void writeAll(int fd, const void* data, size_t n, const std::string& path) {
    auto* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) TD_FAIL(path, ": write failed: ", std::strerror(errno));
        p += w;
        n -= size_t(w);
    }
}

int epochOf(const std::string& name) {
    int e = -1;
    char tail = 0;
    if (std::sscanf(name.c_str(), "epoch-%d.ckp%c", &e, &tail) == 2 && tail == 't' &&
        name.size() > 5 && name.substr(name.size() - 5) == ".ckpt")
        return e;
    return -1;
}

std::vector<std::pair<int, std::string>> listCheckpoints(const std::string& dir) {
    std::vector<std::pair<int, std::string>> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = ::readdir(d)) {
        int ep = epochOf(e->d_name);
        struct stat st {};
        const std::string path = dir + "/" + e->d_name;
        // Regular files only: a link named like a checkpoint is neither read nor removed.
        if (ep >= 0 && ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) out.emplace_back(ep, path);
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::string writeCheckpoint(const std::string& dir, const CheckpointState& s, int keep) {
    makeDirs(dir);
    struct stat dirStat {};
    if (::lstat(dir.c_str(), &dirStat) == 0 && S_ISLNK(dirStat.st_mode))
        TD_FAIL(dir, ": is a symbolic link: checkpoints are written only into a folder of their own (the link could "
                "lead them, and the removal of older ones, anywhere)");
    TD_CHECK(s.weights.size() == s.accumulators.size(), "checkpoint: weights and accumulators differ in size");
    Header h{};
    std::memcpy(h.magic, kMagic, 8);
    h.h = s.h, h.w = s.w, h.c = s.c, h.classes = s.classes;
    h.epochsDone = s.epochsDone, h.batch = s.batch, h.workers = s.workers;
    h.iterations = s.iterations, h.seed = s.seed, h.lr = s.lr, h.decay = s.decay;
    h.floats = s.weights.size();

    char name[64];
    std::snprintf(name, sizeof name, "epoch-%04d.ckpt", s.epochsDone);
    const std::string finalPath = dir + "/" + name;
    const std::string tmpPath = finalPath + ".tmp." + std::to_string(::getpid());
    int fd = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) TD_FAIL(tmpPath, ": cannot create checkpoint: ", std::strerror(errno));
    uLong crc = crc32(0L, Z_NULL, 0);
    auto put = [&](const void* p, size_t n) {
        writeAll(fd, p, n, tmpPath);
        crc = crc32(crc, static_cast<const Bytef*>(p), uInt(n));
    };
    put(&h, sizeof h);
    put(s.weights.data(), s.weights.size() * sizeof(float));
    put(s.accumulators.data(), s.accumulators.size() * sizeof(float));
    uint32_t c32 = uint32_t(crc);
    writeAll(fd, &c32, sizeof c32, tmpPath);
    if (::fsync(fd) != 0) TD_FAIL(tmpPath, ": fsync failed: ", std::strerror(errno));
    ::close(fd);
    if (::rename(tmpPath.c_str(), finalPath.c_str()) != 0)
        TD_FAIL(tmpPath, ": rename to ", finalPath, " failed: ", std::strerror(errno));
    if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {  // persist the rename
        ::fsync(dfd);
        ::close(dfd);
    }
    auto all = listCheckpoints(dir);
    for (size_t i = 0; i + size_t(keep) < all.size(); ++i) ::unlink(all[i].second.c_str());
    return finalPath;
}

CheckpointState readCheckpoint(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) TD_FAIL(path, ": cannot open checkpoint: ", std::strerror(errno));
    Header h{};
    CheckpointState s;
    auto fail = [&](const std::string& what) {
        std::fclose(f);
        TD_FAIL(path, ": ", what);
    };
    if (std::fread(&h, sizeof h, 1, f) != 1) fail("truncated header at offset 0");
    if (std::memcmp(h.magic, kMagic, 8) != 0) fail("not a traindesk checkpoint (bad magic at offset 0)");
    if (h.floats == 0 || h.floats > (1ull << 32)) fail("implausible parameter count in header");
    // The count comes from the file: it sizes nothing until the file's length agrees with it
    // (a damaged header once asked for 16 GiB).
    if (std::fseek(f, 0, SEEK_END) != 0) fail("cannot measure the file");
    const long length = std::ftell(f);
    const uint64_t expected = sizeof h + 2 * h.floats * sizeof(float) + sizeof(uint32_t);
    if (length < 0 || uint64_t(length) != expected)
        fail("its header counts " + std::to_string(h.floats) + " parameters (" + std::to_string(expected) +
             " bytes), the file has " + std::to_string(length) + " bytes: truncated or damaged");
    if (std::fseek(f, long(sizeof h), SEEK_SET) != 0) fail("cannot read past the header");
    s.h = h.h, s.w = h.w, s.c = h.c, s.classes = h.classes;
    s.epochsDone = h.epochsDone, s.batch = h.batch, s.workers = h.workers;
    s.iterations = h.iterations, s.seed = h.seed, s.lr = h.lr, s.decay = h.decay;
    s.weights.resize(h.floats);
    s.accumulators.resize(h.floats);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(&h), sizeof h);
    if (std::fread(s.weights.data(), sizeof(float), h.floats, f) != h.floats)
        fail("truncated weights at offset " + std::to_string(sizeof h));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(s.weights.data()), uInt(h.floats * sizeof(float)));
    if (std::fread(s.accumulators.data(), sizeof(float), h.floats, f) != h.floats)
        fail("truncated optimizer state at offset " + std::to_string(sizeof h + h.floats * sizeof(float)));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(s.accumulators.data()), uInt(h.floats * sizeof(float)));
    uint32_t stored = 0;
    if (std::fread(&stored, sizeof stored, 1, f) != 1) fail("missing CRC trailer");
    if (stored != uint32_t(crc)) fail("CRC mismatch: the file is corrupt");
    std::fclose(f);
    return s;
}

std::optional<IntactCheckpoint> newestIntactCheckpoint(const std::string& dir, std::vector<std::string>* skipped) {
    auto all = listCheckpoints(dir);
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        try {
            return IntactCheckpoint{it->second, readCheckpoint(it->second)};
        } catch (const RuntimeError& e) {
            if (skipped) skipped->push_back(e.what());
        }
    }
    return std::nullopt;
}

std::optional<std::string> latestCheckpoint(const std::string& dir) {
    auto all = listCheckpoints(dir);
    if (all.empty()) return std::nullopt;
    return all.back().second;
}

}  // namespace td

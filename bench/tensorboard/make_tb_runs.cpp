// Writes a TensorBoard log folder for the import benchmark: RUNS runs (lr_<i>/seed_<j>
// folders, as a sweep writes them), each one event file of POINTS scalars (4 tags in turn,
// one scalar per event, as PyTorch's SummaryWriter.add_scalar writes them), real TFRecord
// framing with masked CRC-32C. Standalone (no TrainDesk code), so it builds with one g++ call:
//   g++ -O2 -o make_tb_runs make_tb_runs.cpp && ./make_tb_runs DIR RUNS POINTS
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

static uint32_t table[256];

static void makeTable()
{
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32c(const std::string &data)
{
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : data)
        c = table[(c ^ b) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t masked(uint32_t c) { return ((c >> 15) | (c << 17)) + 0xA282EAD8u; }

static void varint(std::string &out, uint64_t v)
{
    while (v >= 0x80) {
        out += char((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out += char(v);
}

static void bytesField(std::string &out, int number, const std::string &payload)
{
    varint(out, uint64_t(number) << 3 | 2);
    varint(out, payload.size());
    out += payload;
}

template<typename T>
static void fixed(std::string &out, int number, int wire, T value)
{
    varint(out, uint64_t(number) << 3 | wire);
    out.append(reinterpret_cast<const char *>(&value), sizeof value);
}

static void record(std::string &out, const std::string &payload)
{
    std::string length(8, '\0');
    const uint64_t n = payload.size();
    std::memcpy(length.data(), &n, 8);
    out += length;
    uint32_t c = masked(crc32c(length));
    out.append(reinterpret_cast<const char *>(&c), 4);
    out += payload;
    c = masked(crc32c(payload));
    out.append(reinterpret_cast<const char *>(&c), 4);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: make_tb_runs DIR RUNS POINTS\n");
        return 2;
    }
    makeTable();
    const std::string dir = argv[1];
    const int runs = std::atoi(argv[2]);
    const int points = std::atoi(argv[3]);
    const char *tags[] = {"train/loss", "train/acc", "val/loss", "val/acc"};
    ::mkdir(dir.c_str(), 0755);
    for (int r = 0; r < runs; ++r) {
        const std::string lr = dir + "/lr_" + std::to_string(r / 10);
        ::mkdir(lr.c_str(), 0755);
        const std::string run = lr + "/seed_" + std::to_string(r % 10);
        ::mkdir(run.c_str(), 0755);
        std::string data;
        std::string version;
        fixed(version, 1, 1, 1700000000.0);
        bytesField(version, 3, "brain.Event:2");
        record(data, version);
        for (int i = 0; i < points; ++i) {
            const int step = i / 4;
            std::string value;
            bytesField(value, 1, tags[i % 4]);
            fixed(value, 2, 5, float(1.0 / (step + 1) + r * 1e-4));
            std::string summary;
            bytesField(summary, 1, value);
            std::string event;
            fixed(event, 1, 1, 1700000000.0 + step * 0.1);
            varint(event, 2 << 3 | 0);
            varint(event, uint64_t(step));
            bytesField(event, 5, summary);
            record(data, event);
        }
        const std::string file = run + "/events.out.tfevents.1700000000.benchhost." + std::to_string(r) + ".0";
        FILE *f = std::fopen(file.c_str(), "wb");
        if (!f || std::fwrite(data.data(), 1, data.size(), f) != data.size() || std::fclose(f) != 0) {
            std::perror(file.c_str());
            return 1;
        }
    }
    return 0;
}

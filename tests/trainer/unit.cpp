// Unit checks of the trainer's non-numeric pieces: augmentation, shuffling and sharding,
// checkpoints, protobuf encoding, RMSprop formula, option parsing, the dense layers' weight layout.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli/options.h"
#include "data/batcher.h"
#include "io/checkpoint.h"
#include "io/metrics.h"
#include "io/protobuf.h"
#include "model/net.h"
#include "optim/rmsprop.h"
#include "util/check.h"

using namespace td;

static int g_failures = 0;
#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
            ++g_failures;                                                        \
        }                                                                        \
    } while (0)

static void testAugment() {
    // 4x5 single-channel ramp: pixel (r, q) = 10 r + q.
    const int h = 4, w = 5;
    uint8_t src[h * w];
    for (int r = 0; r < h; ++r)
        for (int q = 0; q < w; ++q) src[r * w + q] = uint8_t(10 * r + q);
    float out[h * w];
    augmentImage(src, h, w, 1, 0.0f, 0.0f, false, out);  // identity
    for (int i = 0; i < h * w; ++i) EXPECT(std::fabs(out[i] - src[i] / 255.0f) < 1e-7f);
    augmentImage(src, h, w, 1, 0.0f, 1.0f, false, out);  // sample one column to the right, edge repeated
    EXPECT(std::fabs(out[0] * 255 - 1) < 1e-4 && std::fabs(out[3] * 255 - 4) < 1e-4 && std::fabs(out[4] * 255 - 4) < 1e-4);
    augmentImage(src, h, w, 1, -1.0f, 0.0f, false, out);  // one row up: first row repeats
    EXPECT(std::fabs(out[0] * 255 - 0) < 1e-4 && std::fabs(out[w] * 255 - 0) < 1e-4 && std::fabs(out[2 * w] * 255 - 10) < 1e-4);
    augmentImage(src, h, w, 1, 0.5f, 0.0f, false, out);  // half a row: bilinear
    EXPECT(std::fabs(out[0] * 255 - 5) < 1e-4);
    augmentImage(src, h, w, 1, 0.0f, 0.0f, true, out);  // horizontal flip
    EXPECT(std::fabs(out[0] * 255 - 4) < 1e-4 && std::fabs(out[4] * 255 - 0) < 1e-4 && std::fabs(out[w + 1] * 255 - 13) < 1e-4);
}

// The GPU kernel rounds a + f*(b-a) as multiply then add; the CPU batcher must too (built
// with -ffp-contract=off), or batches stop being bit-identical. volatile forces each rounding
// here; many random fractions make at least one FMA-vs-separate difference near-certain.
static float separate(float a, float f, float b) {
    volatile float d = b - a;
    volatile float m = f * d;
    volatile float s = a + m;
    return s;
}

static void testAugmentNoContraction() {
    uint8_t src[4];
    float out[4];
    uint32_t x = 12345;
    auto next = [&x] { x = x * 1664525u + 1013904223u; return x >> 8; };
    int mismatches = 0;
    for (int i = 0; i < 20000; ++i) {
        for (uint8_t& v : src) v = uint8_t(next());
        const float dy = float(next() % 100000) / 100000.0f, dx = float(next() % 100000) / 100000.0f;
        augmentImage(src, 2, 2, 1, dy, dx, false, out);
        const float fy = dy, fx = dx;  // sample (0,0) at (dy, dx): y0 = x0 = 0
        const float top = separate(src[0], fx, src[1]), bot = separate(src[2], fx, src[3]);
        volatile float want = separate(top, fy, bot);
        const float ref = want * (1.0f / 255.0f);
        if (std::memcmp(&ref, &out[0], sizeof ref) != 0) ++mismatches;
    }
    EXPECT(mismatches == 0);
}

static void testSharding() {
    Dataset d;
    d.n = 100, d.h = 2, d.w = 2, d.c = 1;
    d.pixels.resize(400);
    d.labels.resize(100);
    for (int i = 0; i < 100; ++i) {
        d.labels[i] = uint8_t(i % 10);
        for (int k = 0; k < 4; ++k) d.pixels[i * 4 + k] = uint8_t(i);
    }
    AugmentParams aug;  // augmentation on: keyed by position, so it must agree too
    Batcher one(d, 8, 0, 1, 5, aug), r0(d, 4, 0, 2, 5, aug), r1(d, 4, 1, 2, 5, aug);
    EXPECT(one.stepsPerEpoch() == 12 && r0.stepsPerEpoch() == 12);
    for (int epoch = 0; epoch < 2; ++epoch) {
        one.startEpoch(epoch), r0.startEpoch(epoch), r1.startEpoch(epoch);
        std::vector<float> x1(32), xa(16), xb(16);
        std::vector<int32_t> y1(8), ya(4), yb(4);
        std::vector<uint64_t> p1(8), pa(4), pb(4);
        std::vector<int> seen(100, 0);
        for (int s = 0; s < 12; ++s) {
            one.trainBatch(s, x1.data(), y1.data(), p1.data());
            r0.trainBatch(s, xa.data(), ya.data(), pa.data());
            r1.trainBatch(s, xb.data(), yb.data(), pb.data());
            EXPECT(std::memcmp(x1.data(), xa.data(), 64) == 0 && std::memcmp(x1.data() + 16, xb.data(), 64) == 0);
            EXPECT(std::memcmp(y1.data(), ya.data(), 16) == 0 && std::memcmp(y1.data() + 4, yb.data(), 16) == 0);
            EXPECT(p1[0] == uint64_t(8 * s) && pb[0] == uint64_t(8 * s + 4));
        }
        // Within an epoch every image appears at most once across ranks (no augmentation here).
        AugmentParams none;
        none.enabled = false;
        Batcher q0(d, 4, 0, 2, 5, none), q1(d, 4, 1, 2, 5, none);
        q0.startEpoch(epoch), q1.startEpoch(epoch);
        for (int s = 0; s < 12; ++s) {
            q0.trainBatch(s, xa.data(), ya.data(), pa.data());
            q1.trainBatch(s, xb.data(), yb.data(), pb.data());
            for (int i = 0; i < 4; ++i) {
                seen[int(std::lround(xa[i * 4] * 255))]++;
                seen[int(std::lround(xb[i * 4] * 255))]++;
            }
        }
        int dup = 0, total = 0;
        for (int v : seen) dup += v > 1, total += v;
        EXPECT(dup == 0 && total == 96);
    }
    // Different epochs shuffle differently.
    Batcher e(d, 8, 0, 1, 5, aug);
    std::vector<float> xe0(32), xe1(32);
    std::vector<int32_t> y(8);
    std::vector<uint64_t> p(8);
    e.startEpoch(0);
    e.trainBatch(0, xe0.data(), y.data(), p.data());
    e.startEpoch(1);
    e.trainBatch(0, xe1.data(), y.data(), p.data());
    EXPECT(std::memcmp(xe0.data(), xe1.data(), 128) != 0);
}

static void testCheckpoint() {
    char tmpl[] = "/tmp/td-unit-XXXXXX";
    const std::string dir = std::string(mkdtemp(tmpl)) + "/checkpoints";
    CheckpointState s;
    s.h = 32, s.w = 32, s.c = 3, s.classes = 10, s.batch = 32, s.workers = 2, s.seed = 77, s.lr = 2e-4, s.decay = 1e-6;
    s.weights = {1.5f, -2.0f, 3.25f};
    s.accumulators = {0.1f, 0.2f, 0.3f};
    for (int e = 1; e <= 3; ++e) {
        s.epochsDone = e;
        s.iterations = 100 * e;
        writeCheckpoint(dir, s, 2);
    }
    auto latest = latestCheckpoint(dir);
    EXPECT(latest && latest->find("epoch-0003.ckpt") != std::string::npos);
    EXPECT(access((dir + "/epoch-0001.ckpt").c_str(), F_OK) != 0);  // only the 2 newest kept
    CheckpointState r = readCheckpoint(*latest);
    EXPECT(r.epochsDone == 3 && r.iterations == 300 && r.seed == 77 && r.weights == s.weights &&
           r.accumulators == s.accumulators && r.workers == 2);
    // A leftover temporary file never counts as a checkpoint.
    std::ofstream(dir + "/epoch-0009.ckpt.tmp.123") << "partial";
    EXPECT(latestCheckpoint(dir)->find("epoch-0003.ckpt") != std::string::npos);
    // Truncation is reported with the file name.
    truncate(latest->c_str(), 40);
    bool threw = false;
    try {
        readCheckpoint(*latest);
    } catch (const RuntimeError& e) {
        threw = std::string(e.what()).find("epoch-0003.ckpt") != std::string::npos;
    }
    EXPECT(threw);
    // A header whose parameter count the file's length does not back is refused before
    // anything is allocated (it asked for 16 GiB). Mutation caught: the length check removed
    // (the resize of 2^32 floats throws std::bad_alloc, not RuntimeError).
    {
        std::vector<char> bytes(200, 0);
        std::ifstream good(dir + "/epoch-0002.ckpt", std::ios::binary);
        good.read(bytes.data(), 80);
        const uint64_t huge = 1ull << 32;
        std::memcpy(bytes.data() + 80 - sizeof huge, &huge, sizeof huge);  // Header::floats, its last field
        const std::string hostile = dir + "/hostile.ckpt";
        std::ofstream(hostile, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
        bool named = false;
        try {
            readCheckpoint(hostile);
        } catch (const RuntimeError& e) {
            named = std::string(e.what()).find("4294967296 parameters") != std::string::npos;
        }
        EXPECT(named);
        ::unlink(hostile.c_str());
    }
    // Issue #38: a truncated newest checkpoint is passed over for the intact one before it
    // (the run stopped instead). Mutation caught: newestIntactCheckpoint returning on the
    // first file it tries.
    std::vector<std::string> skipped;
    const auto intact = newestIntactCheckpoint(dir, &skipped);
    EXPECT(intact && intact->path.find("epoch-0002.ckpt") != std::string::npos && intact->state.epochsDone == 2);
    EXPECT(skipped.size() == 1 && skipped[0].find("epoch-0003.ckpt") != std::string::npos);
    // A checkpoints folder that is a link is refused: it wrote into the target and removed an
    // older checkpoint there. Mutation caught: the lstat check removed.
    const std::string elsewhere = std::string(tmpl) + "/elsewhere";
    const std::string linked = std::string(tmpl) + "/linked";
    makeDirs(elsewhere);
    std::ofstream(elsewhere + "/epoch-0001.ckpt") << "not ours";
    EXPECT(symlink(elsewhere.c_str(), linked.c_str()) == 0);
    bool refused = false;
    try {
        writeCheckpoint(linked, s, 1);
    } catch (const RuntimeError& e) {
        refused = std::string(e.what()).find("symbolic link") != std::string::npos;
    }
    EXPECT(refused);
    EXPECT(access((elsewhere + "/epoch-0001.ckpt").c_str(), F_OK) == 0);
    EXPECT(access((elsewhere + "/epoch-0003.ckpt").c_str(), F_OK) != 0);
}

static void testProtobuf() {
    pb::Writer w;
    w.varintField(1, 300);  // 08 AC 02
    w.bytesField(2, "hi");  // 12 02 68 69
    w.packedInt64(3, {1, 2});  // 1A 02 01 02
    const std::string expect("\x08\xac\x02\x12\x02hi\x1a\x02\x01\x02", 11);
    EXPECT(w.data() == expect);
}

static void testRmsProp() {
    RmsPropConfig c;
    c.lr = 0.01, c.decay = 0.5;
    RmsProp opt(c, 1);
    float p = 1.0f, g = 2.0f;
    opt.step(&p, &g);  // lr_t = 0.01; a = 0.1*4 = 0.4
    EXPECT(std::fabs(p - (1.0f - 0.01f * 2.0f / (std::sqrt(0.4f) + 1e-7f))) < 1e-7f);
    const float p1 = p;
    opt.step(&p, &g, 0.5f);  // lr_t = 0.01/1.5; g = 1; a = 0.36 + 0.1
    EXPECT(std::fabs(p - (p1 - (0.01f / 1.5f) * 1.0f / (std::sqrt(0.46f) + 1e-7f))) < 1e-7f);
    EXPECT(opt.iterations() == 2);
}

static void testOptions() {
    Options o = parseOptions({"--epochs", "3", "--lr=0.5", "--synthetic-shape", "28x20x1", "--no-augment"});
    EXPECT(o.epochs == 3 && o.lr && *o.lr == 0.5 && o.synthH == 28 && o.synthW == 20 && o.synthC == 1 && !o.augment);
    o.resolveDefaults(3);
    EXPECT(o.resolvedEpochs == 3 && o.resolvedLr == 0.5);
    Options d = parseOptions({});
    setenv("AZ_BATCHAI_STDOUTERR_DIR", "/x/stdouterr", 1);
    d.resolveDefaults(3);
    EXPECT(d.resolvedEpochs == 34 && std::fabs(d.resolvedLr - 3e-4) < 1e-15);
    EXPECT(d.resolvedMetricsFile == "/x/stdouterr/metrics.jsonl");
    unsetenv("AZ_BATCHAI_STDOUTERR_DIR");
    d.resolveDefaults(4);
    EXPECT(d.resolvedEpochs == 25 && d.resolvedMetricsFile == "./metrics.jsonl");
}

// The dense layers run their three passes on the canonical (Keras) weight layout: no weight
// reorder after each update and no gradient reorder after each backward pass (issue #45: for
// dense_1 that was two or three 4.7 MB reorders a step). Run as trainer_unit and, with oneDNN
// limited to AVX2, as trainer_unit_avx2: the kernels and their layout choices differ per ISA.
static void testDensePlainWeights() {
    Net net(NetConfig{});
    int dense = 0;
    for (const LayerTiming* t : net.timings()) {
        if (t->name.rfind("dense_", 0) != 0) continue;
        ++dense;
        std::printf("  %s: %s\n", t->name.c_str(), t->impl.c_str());
        EXPECT(t->impl.find("(plain weights)") != std::string::npos);
        EXPECT(t->impl.rfind("ref", 0) != 0);
    }
    EXPECT(dense == 2);
}

int main() {
    testAugment();
    testAugmentNoContraction();
    testSharding();
    testCheckpoint();
    testProtobuf();
    testRmsProp();
    testOptions();
    testDensePlainWeights();
    std::printf(g_failures == 0 ? "all unit checks passed\n" : "%d unit check(s) FAILED\n", g_failures);
    return g_failures == 0 ? 0 : 1;
}

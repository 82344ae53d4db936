// libFuzzer target for the trainer's checkpoints (issue #38). Each input is written as the
// newest checkpoint of a folder whose older one is intact: the reader must come back with
// one of them (the input when it reads whole, else the older one, the input named as
// passed over), throw nothing but its own errors, and allocate nothing a header alone asks
// for (run_fuzz.sh caps one allocation at 512 MB; a header once asked for 16 GiB).
#include "io/checkpoint.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace td;

namespace {

[[noreturn]] void failWith(const char *what, const std::string &detail = {})
{
    std::fprintf(stderr, "fuzz_checkpoint: %s\n%s\n", what, detail.c_str());
    std::abort();
}

const std::string &folder()
{
    static const std::string dir = [] {
        char pattern[] = "/tmp/fuzz-checkpoint-XXXXXX";
        const std::string made = std::string(mkdtemp(pattern)) + "/checkpoints";
        CheckpointState s;
        s.h = 28, s.w = 28, s.c = 1, s.classes = 10, s.batch = 32, s.workers = 1, s.seed = 7;
        s.epochsDone = 1;
        s.weights = {1.0f, 2.0f, 3.0f};
        s.accumulators = {0.5f, 0.25f, 0.125f};
        writeCheckpoint(made, s, 2);
        return made;
    }();
    return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string newest = folder() + "/epoch-0002.ckpt";
    std::ofstream(newest, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char *>(data), std::streamsize(size));
    std::vector<std::string> skipped;
    const auto intact = newestIntactCheckpoint(folder(), &skipped);
    if (!intact)
        failWith("the intact older checkpoint was not found");
    if (intact->path == newest) {
        if (!skipped.empty())
            failWith("the newest read whole yet something was passed over", skipped.front());
        if (intact->state.weights.size() != intact->state.accumulators.size())
            failWith("weights and optimizer state differ in size");
    } else if (skipped.size() != 1 || skipped.front().find("epoch-0002.ckpt") == std::string::npos) {
        failWith("the damaged newest was not named", skipped.empty() ? std::string() : skipped.front());
    }
    return 0;
}

#include "train/resume.h"

#include <algorithm>

#include "io/checkpoint.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

ResumeState resumeFromCheckpoint(const std::string& dir, Backend& backend, const Dist& dist) {
    const NetConfig& nc = backend.config();
    const size_t P = backend.paramFloats();
    ResumeState r;
    CheckpointState st;
    int found = 0;
    if (dist.root()) {
        std::vector<std::string> skipped;
        const auto intact = newestIntactCheckpoint(dir, &skipped);
        for (const std::string& why : skipped) log::info("--resume: passed over a damaged checkpoint: %s\n", why.c_str());
        if (intact) {
            const std::string* path = &intact->path;
            st = intact->state;
            if (st.h != nc.h || st.w != nc.w || st.c != nc.c || st.classes != nc.classes || st.weights.size() != P)
                TD_FAIL(*path, ": checkpoint is for ", st.h, "x", st.w, "x", st.c, " images, this data set has ", nc.h,
                        "x", nc.w, "x", nc.c);
            found = 1;
            log::info("resuming from %s (epoch %d done, %lld steps)\n", path->c_str(), st.epochsDone,
                      (long long)st.iterations);
            std::copy(st.weights.begin(), st.weights.end(), backend.weights());
            std::copy(st.accumulators.begin(), st.accumulators.end(), backend.accumulators());
        } else {
            log::info("--resume: no %scheckpoint in %s, starting from scratch\n", skipped.empty() ? "" : "intact ",
                      dir.c_str());
        }
    }
    dist.broadcast(&found, sizeof found);
    if (!found) return r;
    int64_t hdr[3] = {st.epochsDone, st.iterations, int64_t(st.seed)};
    dist.broadcast(hdr, sizeof hdr);
    dist.broadcastFloats(backend.weights(), P);
    dist.broadcastFloats(backend.accumulators(), P);
    backend.setIterations(hdr[1]);
    backend.pushState();
    r.found = true;
    r.epochsDone = int(hdr[0]);
    r.iterations = hdr[1];
    r.seed = uint64_t(hdr[2]);
    return r;
}

void saveCheckpoint(const std::string& dir, Backend& backend, int epochsDone, uint64_t seed, int batch, int workers,
                    const RmsPropConfig& opt) {
    backend.pullState();
    const NetConfig& nc = backend.config();
    const size_t P = backend.paramFloats();
    CheckpointState st;
    st.h = nc.h, st.w = nc.w, st.c = nc.c, st.classes = nc.classes;
    st.epochsDone = epochsDone;
    st.iterations = backend.iterations();
    st.seed = seed, st.batch = batch, st.workers = workers;
    st.lr = opt.lr, st.decay = opt.decay;
    st.weights.assign(backend.weights(), backend.weights() + P);
    st.accumulators.assign(backend.accumulators(), backend.accumulators() + P);
    writeCheckpoint(dir, st);
}

}  // namespace td

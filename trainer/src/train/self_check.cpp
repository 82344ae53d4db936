#include "train/self_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "train/decision_flips.h"
#include "util/check.h"
#include "util/rng.h"
#include "util/timer.h"

namespace td {

namespace {

constexpr uint64_t kDataSeed = 0x5e1fc4ecull, kWeightSeed = 2018, kStepSeed = 4321;

// Empty when got matches ref within the tolerance, else what differed.
std::string difference(const float* got, const float* ref, size_t n, size_t gotN) {
    if (gotN != n) return cat(gotN, " values where the CPU backend has ", n);
    double maxDiff = 0, maxRef = 0;
    size_t worst = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = std::isfinite(got[i]) ? std::fabs(double(got[i]) - double(ref[i])) : INFINITY;
        if (d > maxDiff || (std::isinf(d) && !std::isinf(maxDiff))) maxDiff = d, worst = i;
        maxRef = std::max(maxRef, std::fabs(double(ref[i])));
    }
    if (maxDiff <= kSelfCheckTolerance * maxRef) return {};
    char buf[256];
    std::snprintf(buf, sizeof buf, "max |gpu - cpu| %.3g at element %zu (gpu %.6g, cpu %.6g), %.2g of max |cpu| %.3g; tolerance %.0e",
                  maxDiff, worst, double(got[worst]), double(ref[worst]), maxDiff / std::max(maxRef, 1e-30), maxRef,
                  kSelfCheckTolerance);
    return buf;
}

SelfCheckResult failure(const std::string& layer, const std::string& error) {
    SelfCheckResult r;
    r.ok = false;
    r.layer = layer;
    r.error = error;
    return r;
}

}  // namespace

Dataset selfCheckData(const NetConfig& run, int attempt) {
    Dataset d;
    d.n = int64_t(kSelfCheckBatch) * kSelfCheckSteps;
    d.h = run.h, d.w = run.w, d.c = run.c;
    d.numClasses = run.classes;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    rng::Stream s(kDataSeed + uint64_t(attempt));
    for (uint8_t& v : d.pixels) v = uint8_t(s.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(s.below(uint64_t(run.classes)));
    return d;
}

BackendSetup selfCheckSetup(const BackendSetup& run, const Dataset& data, Dist& local) {
    BackendSetup s = run;
    s.net.batch = kSelfCheckBatch;
    s.net.dropout = false;
    // Larger steps than a real run's, so that a wrong update shows; epsilon 1e-3 keeps the
    // first RMSprop steps well-conditioned (with 1e-7 they are lr * sign(g) and tiny
    // rounding differences of near-zero gradients flip signs).
    s.opt.lr = 1e-3;
    s.opt.decay = 1e-2;
    s.opt.epsilon = 1e-3f;
    s.train = &data;
    s.test = &data;
    s.dist = &local;
    s.deterministic = true;
    s.profile = false;
    s.tf32 = false;
    s.forceNccl = false;
    s.overlapAllreduce = false;
    s.useGraph = false;
    return s;
}

SelfCheckResult compareBackends(Backend& gpu, Backend& cpu) {
    const ParamTable& table = cpu.params();
    const size_t P = table.totalFloats();
    if (gpu.paramFloats() != P) return failure("set-up", cat("the GPU backend has ", gpu.paramFloats(), " parameters, the CPU backend ", P));
    glorotInit(table, cpu.weights(), kWeightSeed);
    // Non-zero biases: glorotInit zeroes them, which would hide a wrong bias index.
    rng::Stream s(kWeightSeed + 1);
    for (const ParamInfo& p : table.all())
        if (p.name == "bias")
            for (size_t i = 0; i < p.size; ++i) cpu.weights()[p.offset + i] = 0.2f * s.uniform() - 0.1f;
    std::copy(cpu.weights(), cpu.weights() + P, gpu.weights());
    std::fill(cpu.accumulators(), cpu.accumulators() + P, 0.0f);
    std::fill(gpu.accumulators(), gpu.accumulators() + P, 0.0f);
    for (Backend* b : {&gpu, &cpu}) {
        b->pushState();
        b->setIterations(0);
        b->beginTraining(kStepSeed, AugmentParams{});  // augmentation on: the batch assembly is checked too
        b->startEpoch(0);
    }
    for (int step = 0; step < kSelfCheckSteps; ++step) {
        const std::string at = cat(" at step ", step + 1);
        gpu.trainStep(step);
        cpu.trainStep(step);
        const std::vector<LayerOutput> outGpu = gpu.layerOutputs(), outCpu = cpu.layerOutputs();
        for (size_t l = 0; l < outCpu.size(); ++l) {
            if (l >= outGpu.size() || outGpu[l].layer != outCpu[l].layer)
                return failure(outCpu[l].layer, "the GPU backend does not report this layer's output");
            const std::vector<float>& g = outGpu[l].values;
            const std::vector<float>& c = outCpu[l].values;
            if (const std::string d = difference(g.data(), c.data(), c.size(), g.size()); !d.empty())
                return failure(outCpu[l].layer, "forward output" + at + ": " + d);
        }
        if (const DecisionFlips f = decisionFlips(cpu.config(), kSelfCheckBatch, outGpu, outCpu); f.count > 0) {
            SelfCheckResult r = failure("decision", cat(f.count, " decision(s) within rounding of a tie", at,
                                                        ", the first: ", f.first));
            r.ambiguous = true;
            return r;
        }
        const StepSums sg = gpu.takeSums(), sc = cpu.takeSums();
        if (sg.count != sc.count)
            return failure("dense_2", cat("softmax loss", at, ": ", sg.count, " images counted, the CPU backend ", sc.count));
        const float lg = float(sg.loss), lc = float(sc.loss);
        if (const std::string d = difference(&lg, &lc, 1, 1); !d.empty())
            return failure("dense_2", "loss sum (dense_2 + softmax)" + at + ": " + d);
        const std::vector<float> gg = gpu.averagedGradients(), gc = cpu.averagedGradients();
        if (gg.size() != gc.size()) return failure("set-up", "gradient buffers differ in size");
        for (auto p = table.all().rbegin(); p != table.all().rend(); ++p)
            if (const std::string d = difference(gg.data() + p->offset, gc.data() + p->offset, p->size, p->size); !d.empty())
                return failure(p->layer, "gradient of " + p->layer + "/" + p->name + at + ": " + d);
    }
    gpu.pullState();
    cpu.pullState();
    for (const ParamInfo& p : table.all()) {
        if (const std::string d = difference(gpu.weights() + p.offset, cpu.weights() + p.offset, p.size, p.size); !d.empty())
            return failure("RMSprop", cat("updated ", p.layer, "/", p.name, " after ", kSelfCheckSteps, " steps: ", d));
        if (const std::string d = difference(gpu.accumulators() + p.offset, cpu.accumulators() + p.offset, p.size, p.size); !d.empty())
            return failure("RMSprop", cat("accumulator of ", p.layer, "/", p.name, " after ", kSelfCheckSteps, " steps: ", d));
    }
    if (gpu.iterations() != cpu.iterations())
        return failure("RMSprop", cat("iteration count ", gpu.iterations(), ", the CPU backend's ", cpu.iterations()));
    return {};
}

SelfCheckResult runSelfCheck(const BackendSetup& run, Dist& local, const BackendFactory& candidate) {
    Timer timer;
    SelfCheckResult r;
    std::string skipped;
    for (int attempt = 0; attempt < kSelfCheckAttempts; ++attempt) {
        const Dataset data = selfCheckData(run.net, attempt);
        const BackendSetup setup = selfCheckSetup(run, data, local);
        r = SelfCheckResult{};
        std::unique_ptr<Backend> gpu;
        try {
            gpu = candidate(setup);
        } catch (const std::exception& e) {
            r = failure("set-up", e.what());
        }
        if (gpu) {
            const std::unique_ptr<Backend> cpu = makeCpuBackend(setup);
            try {
                r = compareBackends(*gpu, *cpu);
            } catch (const RuntimeError& e) {  // a GPU call failed during the steps
                r = failure("step", e.what());
            }
        }
        r.attempts = attempt + 1;
        if (!r.ambiguous) break;
        if (skipped.empty()) skipped = r.error;
    }
    if (r.ambiguous)
        r.error = cat("every one of the ", kSelfCheckAttempts, " batches had a decision within rounding of a tie (the "
                      "first batch: ", skipped, ")");
    r.skipped = skipped;
    r.seconds = timer.seconds();
    return r;
}

}  // namespace td

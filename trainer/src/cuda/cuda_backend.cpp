#include "cuda/cuda_backend.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <tuple>
#include <utility>

#include "cuda/context.h"
#include "cuda/cuda_check.h"
#include "cuda/device.h"
#include "cuda/gpu_net.h"
#include "cuda/kernels.h"
#include "cuda/layout.h"
#include "cuda/memory.h"
#include "cuda/nccl_comm.h"
#include "cuda/step_graph.h"
#include "dist/gpu_decisions.h"
#include "dist/wait_for_peers.h"
#include "data/shuffle.h"
#include "util/log.h"

namespace td::cuda {

namespace {

// Evaluation runs forward only, in larger batches than training (fewer launches).
int evalBatch(const NetConfig& cfg, int trainBatch, int64_t testImages) {
    const int64_t bySize = std::max<int64_t>(1, (int64_t(1) << 25) / (int64_t(cfg.h) * cfg.w * 32));
    int64_t b = std::min<int64_t>(512, bySize);
    b = std::min<int64_t>(b, std::max<int64_t>(testImages, 1));
    return int(std::max<int64_t>(b, trainBatch));
}

// FP32 lanes per SM: 64 on sm_80 (A100), 128 on sm_86 and later (incl. Hopper).
double fp32PeakTflops(const DeviceInfo& d) {
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d.id) != cudaSuccess) return 0.0;
    const int lanes = (d.major == 8 && d.minor == 0) ? 64 : 128;
    return double(d.sms) * lanes * 2.0 * khz * 1e3 / 1e12;
}

const char* const kSectionNames[kProfSections] = {
    "assemble batch (augment)", "conv2d_1 (+bias,relu)", "conv2d_2 (+bias,relu)", "max_pooling2d_1 (+dropout)",
    "conv2d_3 (+bias,relu)", "conv2d_4 (+bias,relu)", "max_pooling2d_2 (+dropout)", "dense_1 (+bias,relu,dropout)",
    "dense_2", "softmax + loss", "bwd dense_2", "bwd dense_1", "bwd max_pooling2d_2", "bwd conv2d_4",
    "bwd conv2d_3", "bwd max_pooling2d_1", "bwd conv2d_2", "bwd conv2d_1", "all-reduce (NCCL)", "RMSprop"};
// --gpu-kernels fused: the sections it marks (the others are inside these).
const char* const kFusedSectionNames[kProfSections] = {
    "assemble batch (augment)", "conv2d_1 (+assemble,bias,relu)", "conv2d_2 (+bias,relu,pool,dropout)", "-",
    "conv2d_3 (+bias,relu)", "conv2d_4 (+bias,relu,pool,dropout)", "-", "dense_1 GEMM", "-",
    "head: dense_1 act, dense_2, loss, bwd", "-", "bwd dense_1 (+pool2 bwd)", "-", "bwd conv2d_4 (+relu mask)",
    "bwd conv2d_3 (+pool1 bwd)", "-", "bwd conv2d_2", "bwd conv2d_1 (+relu,bias)", "all-reduce (NCCL)", "RMSprop"};

class CudaBackend final : public Backend {
public:
    explicit CudaBackend(const BackendSetup& s)
        : m_setup(s), m_dist(*s.dist), m_table(makeParamTable(s.net)), m_P(m_table.totalFloats()) {
        m_useNccl = m_dist.size() > 1 || s.forceNccl;
        m_overlap = m_useNccl && s.overlapAllreduce && !s.profile;
        m_dev = selectDevice(m_dist.localRank(), m_dist.localSize(), m_useNccl);
        m_ctx = std::make_unique<GpuContext>(/*concurrent=*/!s.profile);

        // Every rank reports how its set-up went, and all take the same course before the
        // NCCL communicator exists (dist/gpu_decisions.h): cuDNN builds differ in which FP32
        // NHWC algorithms they have, so NHWC may be unsupported (then all ranks use NCHW,
        // which always works); any other error (out of memory...) ends every rank with it.
        const auto attempt = [&](bool allocate) -> std::pair<SetupOutcome, std::string> {
            try {
                if (allocate) allocateState();
                buildNets();
                return {SetupOutcome::Ok, {}};
            } catch (const CudnnNotSupported& e) {
                return {m_setup.nhwc ? SetupOutcome::NotSupported : SetupOutcome::Failed, e.what()};
            } catch (const std::exception& e) {
                return {SetupOutcome::Failed, e.what()};
            }
        };
        auto [outcome, error] = attempt(true);
        if (!agreeOnSetup(m_dist, outcome, error, m_setup.nhwc ? "NHWC" : "NCHW")) {
            m_setup.nhwc = false;
            std::tie(outcome, error) = attempt(false);
            agreeOnSetup(m_dist, outcome, error, "NCHW");
        }
        if (m_useNccl) m_nccl = std::make_unique<NcclComm>(m_dist);
        if (s.profile) m_prof = std::make_unique<ProfileTimeline>();
        CUDA_CHECK(cudaDeviceSynchronize());
    }

    ~CudaBackend() override {
        // While unwinding, a stream may hold an all-reduce waiting for peers that will never
        // join: do not synchronise (cudaFreeHost synchronises too); leak, main() aborts.
        if (std::uncaught_exceptions() > 0) return;
        if (m_ctx) cudaStreamSynchronize(m_ctx->main());
        if (m_pinned) cudaFreeHost(m_pinned);
    }

    std::string device() const override { return "cuda"; }
    std::string description() const override {
        return cat("GPU ", m_dev.id, ": ", m_dev.describe(), ", ", m_setup.tf32 ? "TF32" : "FP32", ", ",
                   m_setup.nhwc ? "NHWC" : "NCHW", m_setup.fusedKernels ? ", fused kernels" : ", library kernels",
                   m_useNccl ? cat(", NCCL all-reduce over ", m_dist.size(),
                                                                   " rank(s)", m_overlap ? " (overlapped)" : "")
                                                             : std::string(", no all-reduce"),
                   m_setup.useGraph && !m_setup.profile ? ", CUDA graph" : ", no CUDA graph");
    }
    void addInfo(JsonObject& j) const override {
        j.add("gpu", m_dev.name)
            .add("gpu_id", m_dev.id)
            .add("tf32", m_setup.tf32)
            .add("gpu_layout", m_setup.nhwc ? "nhwc" : "nchw")
            .add("gpu_kernels", m_setup.fusedKernels ? "fused" : "library")
            .add("allreduce", m_useNccl ? "nccl" : "none")
            .add("cuda_graph", m_setup.useGraph && !m_setup.profile)
            .add("libraries", libraryVersions());
    }

    const NetConfig& config() const override { return m_setup.net; }
    const ParamTable& params() const override { return m_table; }
    float* weights() override { return m_hostWeights.get(); }
    float* accumulators() override { return m_hostAccum.get(); }

    void pushState() override {
        sync();
        canonicalToDevice(m_table, m_setup.net, m_setup.nhwc, m_hostWeights.get(), m_staging.data());
        m_weights.upload(m_staging.data(), m_P);
        canonicalToDevice(m_table, m_setup.net, m_setup.nhwc, m_hostAccum.get(), m_staging.data());
        m_accum.upload(m_staging.data(), m_P);
    }
    void pullState() override {
        sync();
        m_weights.download(m_staging.data(), m_P);
        deviceToCanonical(m_table, m_setup.net, m_setup.nhwc, m_staging.data(), m_hostWeights.get());
        m_accum.download(m_staging.data(), m_P);
        deviceToCanonical(m_table, m_setup.net, m_setup.nhwc, m_staging.data(), m_hostAccum.get());
    }

    int64_t iterations() const override { return m_iter; }
    void setIterations(int64_t it) override {
        m_iter = it;
        setIteration(m_counters.get(), it, m_ctx->main());
        sync();
    }
    double currentLr() const override { return m_setup.opt.lr / (1.0 + m_setup.opt.decay * double(m_iter)); }

    void beginTraining(uint64_t seed, const AugmentParams& aug) override {
        m_seed = seed;
        m_aug = aug;
        m_perm.allocate(size_t(m_train.n));
        const NetConfig& cfg = m_setup.net;
        const float rates[3] = {0.25f, 0.25f, 0.5f};
        for (int l = 0; l < 3; ++l)
            m_drop[l] = DropoutArgs::make(cfg.dropout ? rates[l] : 0.0f, unsigned(l + 1), seed, cfg.batch,
                                          m_dist.rank(), m_dist.size(), m_counters.get());
    }

    void startEpoch(int epoch) override {
        TD_CHECK(m_perm.size() == size_t(m_train.n), "startEpoch before beginTraining");
        epochPermutation(m_train.n, m_seed, epoch, m_hostPerm);  // the CPU batcher's order
        // Queued behind the previous epoch's steps (pageable copy: staged before returning).
        CUDA_CHECK(cudaMemcpyAsync(m_perm.get(), m_hostPerm.data(), m_hostPerm.size() * sizeof(int32_t),
                                   cudaMemcpyHostToDevice, m_ctx->main()));
        setEpoch(m_counters.get(), epoch, m_ctx->main());
        m_stepInEpoch = 0;
    }

    void trainStep(int64_t step) override {
        TD_CHECK(step == m_stepInEpoch, "GPU steps must run in order (step ", step, ", expected ", m_stepInEpoch, ")");
        const cudaStream_t main = m_ctx->main();
        // The first step runs eagerly: libraries initialise lazily, NCCL connects. Then the
        // step is captured once and replayed.
        if (m_setup.useGraph && !m_setup.profile && !m_graphTried && m_stepsRun >= 1) {
            m_graphTried = true;
            sync();
            const bool captured = m_graph.capture(main, {m_ctx->side(), m_ctx->comm()}, [&] { enqueueStep(nullptr); });
            // Capture may succeed on one rank and fail on another (other cuDNN algorithms):
            // NCCL needs it uniform, so every rank uses its graph or none does, agreed
            // before any rank launches one.
            if (agreeOnGraph(m_dist, captured, m_graph.error()))
                log::info("CUDA graph: %zu nodes, %zu kernels per step\n", m_graph.nodes(), m_graph.kernels());
            else
                m_graph.clear();
        }
        if (m_graph.ready()) {
            m_graph.launch(main);
        } else {
            enqueueStep(m_prof.get());
            if (m_prof) {
                sync();
                m_prof->accumulate();
            }
        }
        ++m_iter;
        ++m_stepInEpoch;
        ++m_stepsRun;
        m_localImages += m_setup.net.batch;
    }

    StepSums takeSums() override {
        const cudaStream_t main = m_ctx->main();
        StepCounters* c = m_counters.get();
        CUDA_CHECK(cudaMemcpyAsync(m_pinned, &c->window, 3 * sizeof(double), cudaMemcpyDeviceToHost, main));
        CUDA_CHECK(cudaMemsetAsync(&c->window, 0, 3 * sizeof(double), main));
        sync();
        StepSums s;
        s.loss = m_pinned[0], s.correct = m_pinned[1], s.count = m_pinned[2];
        return s;
    }

    StepSums takeLocalSums() override {
        const cudaStream_t main = m_ctx->main();
        StepCounters* c = m_counters.get();
        CUDA_CHECK(cudaMemcpyAsync(m_pinned, &c->localWindow, 2 * sizeof(double), cudaMemcpyDeviceToHost, main));
        CUDA_CHECK(cudaMemsetAsync(&c->localWindow, 0, 2 * sizeof(double), main));
        sync();
        StepSums s;
        s.loss = m_pinned[0], s.correct = m_pinned[1], s.count = double(m_localImages);
        m_localImages = 0;
        return s;
    }

    std::vector<float> averagedGradients() override {
        sync();
        m_grads.download(m_staging.data(), m_P);
        std::vector<float> out(m_P);
        deviceToCanonical(m_table, m_setup.net, m_setup.nhwc, m_staging.data(), out.data());
        const float scale = 1.0f / float(m_dist.size());  // ncclSum: the sum over ranks
        for (float& g : out) g *= scale;
        return out;
    }

    std::vector<LayerOutput> layerOutputs() override {
        sync();
        std::vector<LayerOutput> out;
        for (auto& [layer, values] : m_net->layerOutputs()) out.push_back({layer, std::move(values)});
        return out;
    }

    EvalResult evaluate() override {
        const int64_t n = m_test.n;
        const int64_t begin = n * m_dist.rank() / m_dist.size(), end = n * (m_dist.rank() + 1) / m_dist.size();
        m_evalSums.zeroAsync(m_ctx->main());
        for (int64_t i = begin; i < end; i += m_evalB) {
            const int count = int(std::min<int64_t>(m_evalB, end - i));
            evalForward(i, count, nullptr, m_evalSums.get());
        }
        sync();
        double sums[3] = {0, 0, double(end - begin)};
        m_evalSums.download(sums, 2);
        m_dist.allreduceSum(sums, 3);
        EvalResult e;
        e.count = int64_t(sums[2]);
        if (e.count > 0) {
            e.loss = sums[0] / sums[2];
            e.acc = sums[1] / sums[2];
        }
        return e;
    }

    std::vector<float> predictAll() override {
        const int K = m_setup.net.classes;
        std::vector<float> out(size_t(m_test.n) * K);
        for (int64_t i = 0; i < m_test.n; i += m_evalB) {
            const int count = int(std::min<int64_t>(m_evalB, m_test.n - i));
            evalForward(i, count, m_probs.get(), nullptr);
            sync();
            m_probs.download(out.data() + size_t(i) * K, size_t(count) * K);
        }
        return out;
    }

    double flopsPerImage() const override { return m_net->trainFlopsPerImage(); }

    void printProfile(int64_t steps) override {
        log::info("Per-layer GPU time per training step (batch %d, %s kernels, averaged over %lld eager steps; CUDA "
                  "events, no graph, no stream overlap):\n",
                  m_setup.net.batch, m_setup.fusedKernels ? "fused" : "library", (long long)steps);
        log::info("  %-30s %10s\n", "section", "us");
        double total = 0;
        const char* const* names = m_setup.fusedKernels ? kFusedSectionNames : kSectionNames;
        for (int k = 0; k < kProfSections; ++k) {
            if (!m_prof->used(k)) continue;  // inside another section (fused)
            const double us = m_prof->milliseconds(k) * 1e3 / double(steps);
            total += us;
            log::info("  %-30s %10.1f\n", names[k], us);
        }
        log::info("  %-30s %10.1f\n", "total", total);
        log::info("cuDNN algorithms: %s\n", m_net->describeLayers().c_str());
    }

    std::string summary(int64_t steps, double trainSeconds) const override {
        if (steps <= 0) return {};
        const double us = trainSeconds / double(steps) * 1e6;
        const double tflops = m_net->trainFlopsPerImage() * m_setup.net.batch / (us * 1e-6) / 1e12;
        const double peak = fp32PeakTflops(m_dev);
        // Training time only (evaluation and checkpoints excluded), as the epoch records.
        std::string s = cat("GPU: ", fmt("%.1f", us), " us/step over ", steps, " steps; ");
        s += m_graph.ready() ? cat(m_graph.kernels(), " kernels/step in one CUDA graph; ") : std::string("no CUDA graph; ");
        s += cat(fmt("%.2f", tflops), " TFLOP/s per GPU");
        if (peak > 0) s += cat(" (FP32 peak estimate ", fmt("%.1f", peak), " TFLOP/s: ", fmt("%.1f", 100.0 * tflops / peak), "%)");
        return s;
    }

private:
    static std::string fmt(const char* f, double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, f, v);
        return buf;
    }

    // Waits for the main stream. With NCCL it may hold an all-reduce that needs every rank:
    // poll it and NCCL's asynchronous errors, and name the silent ranks after a time-out.
    void sync() const {
        const cudaStream_t main = m_ctx->main();
        if (!m_nccl) {
            CUDA_CHECK(cudaStreamSynchronize(main));
            return;
        }
        waitForPeers(m_dist, [&] {
            const cudaError_t e = cudaStreamQuery(main);
            if (e == cudaSuccess) return true;
            if (e != cudaErrorNotReady) CUDA_CHECK(e);
            m_nccl->checkAsyncError();
            return false;
        }, m_peerTimeout, "waiting for the GPU step (NCCL all-reduce)");
    }

    // Host and device state, the data sets uploaded (set-up time only).
    void allocateState() {
        const NetConfig& cfg = m_setup.net;
        m_hostWeights = allocFloats(m_P);
        m_hostAccum = allocFloats(m_P);
        m_staging.resize(m_P);
        m_weights.allocate(m_P);
        m_accum.allocate(m_P);
        m_grads.allocate(m_P + 4);  // gradients, then [loss sum, correct, images] (+1: float4 alignment)
        m_counters.allocate(1);
        CUDA_CHECK(cudaMemset(m_counters.get(), 0, sizeof(StepCounters)));  // cudaMalloc does not zero
        m_evalSums.allocate(2);
        CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&m_pinned), 4 * sizeof(double)));

        m_train.upload(*m_setup.train);
        m_test.upload(*m_setup.test);
        m_evalB = evalBatch(cfg, cfg.batch, m_setup.test->n);
        m_probs.allocate(size_t(m_evalB) * cfg.classes);
    }

    void buildNets() {
        const NetConfig& cfg = m_setup.net;
        m_evalNet.reset();
        m_net.reset();
        m_net = std::make_unique<GpuNet>(*m_ctx, cfg, cfg.batch, true, m_setup.nhwc, m_setup.tf32,
                                         m_setup.deterministic, m_table, m_weights.get(), m_grads.get(),
                                         m_setup.fusedKernels);
        m_evalNet = std::make_unique<GpuNet>(*m_ctx, cfg, m_evalB, false, m_setup.nhwc, m_setup.tf32,
                                             m_setup.deterministic, m_table, m_weights.get(), nullptr,
                                             m_setup.fusedKernels);
        m_net->selectAlgorithms();
        m_evalNet->selectAlgorithms();
    }

    void evalForward(int64_t first, int count, float* probs, double* accum) {
        AssembleArgs a;
        a.pixels = m_test.pixels.get();
        a.labels = m_test.labels.get();
        a.h = m_test.h, a.w = m_test.w, a.c = m_test.c;
        a.batch = m_evalB;
        a.first = first;
        a.valid = count;
        a.augment = false;
        a.out = m_evalNet->input();
        a.shape = m_evalNet->inputShape();
        a.outLabels = m_evalNet->labels();
        assembleBatch(a, m_ctx->main());
        GpuNet::ForwardArgs f;
        f.train = false;
        f.valid = count;
        f.probs = probs;
        f.accum = accum;
        m_evalNet->forward(f);
    }

    // One whole training step on the streams (eagerly, or recorded into the graph).
    void enqueueStep(ProfileTimeline* prof) {
        const cudaStream_t main = m_ctx->main();
        const NetConfig& cfg = m_setup.net;
        AssembleArgs a;
        a.pixels = m_train.pixels.get();
        a.labels = m_train.labels.get();
        a.h = m_train.h, a.w = m_train.w, a.c = m_train.c;
        a.batch = cfg.batch;
        a.perm = m_perm.get();
        a.counters = m_counters.get();
        a.rank = m_dist.rank(), a.workers = m_dist.size();
        a.augment = m_aug.enabled;
        a.widthShift = m_aug.widthShift, a.heightShift = m_aug.heightShift, a.flip = m_aug.horizontalFlip;
        a.seed = m_seed;
        a.out = m_net->input();
        a.shape = m_net->inputShape();
        a.outLabels = m_net->labels();
        // The fused path assembles the batch inside conv2d_1's kernel.
        const bool assembleInFirstLayer = m_net->firstLayerFused();
        if (!assembleInFirstLayer) {
            if (prof) prof->mark(kProfAssemble, main);
            assembleBatch(a, main);
        }

        GpuNet::ForwardArgs f;
        f.train = true;
        f.valid = cfg.batch;
        f.accum = m_counters.get()->localWindow;  // this rank's sums, before the all-reduce averages them
        for (int l = 0; l < 3; ++l) f.drop[l] = m_drop[l];
        if (assembleInFirstLayer) f.assemble = &a;
        m_net->forward(f, prof);

        const size_t tail = m_net->denseOffset();
        const size_t total = m_P + kExtras;
        std::function<void()> denseReady;
        if (m_overlap)
            denseReady = [&] {  // dense gradients and the step's sums: all-reduce during the conv backward
                m_ctx->dependOn(m_ctx->comm(), main);
                m_ctx->dependOn(m_ctx->comm(), m_ctx->side());
                m_nccl->allreduceSum(m_grads.get() + tail, total - tail, m_ctx->comm());
            };
        m_net->backward(m_drop, denseReady, prof);
        if (prof) prof->mark(kProfAllreduce, main);
        if (m_nccl) {
            if (m_overlap) {
                m_ctx->dependOn(m_ctx->comm(), main);
                m_nccl->allreduceSum(m_grads.get(), tail, m_ctx->comm());
                m_ctx->dependOn(main, m_ctx->comm());
            } else {
                m_nccl->allreduceSum(m_grads.get(), total, main);
            }
        }
        if (prof) prof->mark(kProfRmsprop, main);
        RmspropArgs r;
        r.params = m_weights.get();
        r.accum = m_accum.get();
        r.grads = m_grads.get();
        r.n = m_P;
        // ncclSum, then an explicit scale: the Horovod average of the gradients, and the
        // step's sums (loss, correct, images) stay exact sums (ncclAvg divides them too,
        // inexactly when the rank count is not a power of two).
        r.gradScale = 1.0f / float(m_dist.size());
        r.lr = m_setup.opt.lr;
        r.decay = m_setup.opt.decay;
        r.rho = m_setup.opt.rho;
        r.epsilon = m_setup.opt.epsilon;
        r.counters = m_counters.get();
        r.extrasScale = 1.0;
        rmspropStep(r, main);
        if (prof) prof->end(main);
    }

    static constexpr size_t kExtras = 3;  // [loss sum, correct, images] after the gradients

    BackendSetup m_setup;
    const Dist& m_dist;
    ParamTable m_table;
    size_t m_P;
    DeviceInfo m_dev;
    bool m_useNccl = false, m_overlap = false;
    std::unique_ptr<GpuContext> m_ctx;  // first: destroyed last
    FloatBuffer m_hostWeights, m_hostAccum;
    std::vector<float> m_staging;
    DeviceBuffer<float> m_weights, m_accum, m_grads;
    DeviceBuffer<StepCounters> m_counters;
    DeviceBuffer<double> m_evalSums;
    DeviceBuffer<float> m_probs;
    double* m_pinned = nullptr;
    int64_t m_localImages = 0;  // this rank's images since takeLocalSums()
    DeviceDataset m_train, m_test;
    DeviceBuffer<int32_t> m_perm;
    std::vector<int32_t> m_hostPerm;
    int m_evalB = 0;
    std::unique_ptr<GpuNet> m_net, m_evalNet;
    std::unique_ptr<NcclComm> m_nccl;
    double m_peerTimeout = peerTimeoutSeconds();
    StepGraph m_graph;
    bool m_graphTried = false;
    std::unique_ptr<ProfileTimeline> m_prof;
    uint64_t m_seed = 0;
    AugmentParams m_aug;
    DropoutArgs m_drop[3];
    int64_t m_iter = 0, m_stepInEpoch = 0, m_stepsRun = 0;
};

}  // namespace

std::unique_ptr<Backend> makeCudaBackend(const BackendSetup& setup) { return std::make_unique<CudaBackend>(setup); }

}  // namespace td::cuda

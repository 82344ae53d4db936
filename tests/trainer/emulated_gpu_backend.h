#pragma once
// The emulated GPU training step (emulated_gpu_step.h) behind the Backend interface, as
// CudaBackend offers it: host copies of the canonical state, pushed to and pulled from the
// device layout; step sums read from the step counters. What the GPU self-check
// (train/self_check.h) runs, so the tests run that check against the CPU backend with
// the GPU code path emulated. One rank, no all-reduce; training steps only (evaluation
// is not part of the emulated step).
#include <memory>
#include <string>
#include <vector>

#include "emulated_gpu_step.h"
#include "util/check.h"

namespace td::test {

class EmulatedGpuBackend final : public Backend {
public:
    // roundingNoise: EmulatedGpuStep::setRoundingNoise (0: oneDNN's rounding, bit for bit).
    explicit EmulatedGpuBackend(const BackendSetup& s, bool nhwc = true, double roundingNoise = 0.0)
        : m_setup(s), m_nhwc(nhwc), m_step(s.net, nhwc, *s.train, s.fusedKernels), m_P(m_step.table().totalFloats()),
          m_hostWeights(m_P, 0.0f), m_hostAccum(m_P, 0.0f) {
        TD_CHECK(s.dist->size() == 1, "the emulated GPU backend runs one rank");
        m_step.setRoundingNoise(roundingNoise);
    }

    std::string device() const override { return "cuda"; }
    std::string description() const override {
        return cat("emulated GPU code path, ", m_nhwc ? "NHWC" : "NCHW", m_setup.fusedKernels ? ", fused kernels" : "");
    }
    const NetConfig& config() const override { return m_setup.net; }
    const ParamTable& params() const override { return m_step.table(); }
    float* weights() override { return m_hostWeights.data(); }
    float* accumulators() override { return m_hostAccum.data(); }
    void pushState() override { m_step.setState(m_hostWeights.data(), m_hostAccum.data()); }
    void pullState() override {
        m_hostWeights = m_step.canonical(m_step.weights());
        m_hostAccum = m_step.canonical(m_step.accumulators());
    }

    int64_t iterations() const override { return m_iter; }
    void setIterations(int64_t it) override {
        m_iter = it;
        m_step.setIterations(it);
    }
    double currentLr() const override { return m_setup.opt.lr / (1.0 + m_setup.opt.decay * double(m_iter)); }

    void beginTraining(uint64_t seed, const AugmentParams& aug) override { m_step.begin(seed, aug); }
    void startEpoch(int epoch) override {
        m_step.startEpoch(epoch);
        m_stepInEpoch = 0;
    }
    void trainStep(int64_t step) override {
        TD_CHECK(step == m_stepInEpoch, "GPU steps must run in order (step ", step, ", expected ", m_stepInEpoch, ")");
        m_step.step(m_setup.opt);
        ++m_iter, ++m_stepInEpoch;
        m_localImages += m_setup.net.batch;
    }
    StepSums takeSums() override {
        tc::StepCounters& c = m_step.counters();
        StepSums s{c.window[0], c.window[1], c.window[2]};
        c.window[0] = c.window[1] = c.window[2] = 0;
        return s;
    }
    StepSums takeLocalSums() override {
        tc::StepCounters& c = m_step.counters();
        StepSums s{c.localWindow[0], c.localWindow[1], double(m_localImages)};
        c.localWindow[0] = c.localWindow[1] = 0;
        m_localImages = 0;
        return s;
    }
    std::vector<float> averagedGradients() override { return m_step.canonical(m_step.gradients()); }
    std::vector<LayerOutput> layerOutputs() override { return m_step.layerOutputs(); }

    EvalResult evaluate() override { TD_FAIL("the emulated GPU backend runs training steps only, no evaluation"); }
    std::vector<float> predictAll() override { TD_FAIL("the emulated GPU backend runs training steps only, no prediction"); }
    double flopsPerImage() const override { return 0.0; }
    void printProfile(int64_t) override {}

private:
    BackendSetup m_setup;
    bool m_nhwc;
    EmulatedGpuStep m_step;
    size_t m_P;
    std::vector<float> m_hostWeights, m_hostAccum;
    int64_t m_iter = 0, m_stepInEpoch = 0, m_localImages = 0;
};

}  // namespace td::test

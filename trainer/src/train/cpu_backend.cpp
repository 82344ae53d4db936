// The CPU backend: oneDNN layers (model/), the Keras RMSprop (optim/), and one in-place
// MPI_Allreduce per step over the flat gradient buffer plus the step's metric sums.
#include <algorithm>
#include <memory>
#include <optional>

#include "data/batcher.h"
#include "model/net.h"
#include "optim/rmsprop.h"
#include "train/backend.h"
#include "train/evaluate.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/timer.h"

namespace td {

namespace {

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(const BackendSetup& s)
        : m_setup(s), m_net(s.net), m_opt(s.opt, m_net.paramFloats()), m_dist(*s.dist) {}

    std::string device() const override { return "cpu"; }
    std::string description() const override { return cat(m_setup.threads, " thread(s) on cpu"); }

    const NetConfig& config() const override { return m_net.config(); }
    const ParamTable& params() const override { return m_net.params(); }
    float* weights() override { return m_net.weights(); }
    float* accumulators() override { return m_opt.accumulators(); }
    void pushState() override { m_net.syncWeights(); }
    void pullState() override {}

    int64_t iterations() const override { return m_opt.iterations(); }
    void setIterations(int64_t it) override { m_opt.setIterations(it); }
    double currentLr() const override { return m_opt.currentLr(); }

    void beginTraining(uint64_t seed, const AugmentParams& aug) override {
        m_seed = seed;
        m_batcher.emplace(*m_setup.train, m_setup.net.batch, m_dist.rank(), m_dist.size(), seed, aug);
        m_positions.resize(size_t(m_setup.net.batch));
    }

    void startEpoch(int epoch) override {
        m_batcher->startEpoch(epoch);
        m_dropKey = rng::key(m_seed, rng::kDropout, uint64_t(epoch));
    }

    void trainStep(int64_t step) override {
        const int B = m_setup.net.batch;
        const size_t P = m_net.paramFloats();
        float* grads = m_net.grads();
        Timer phase;
        StepClock whole;
        m_batcher->trainBatch(step, m_net.input(), m_net.labels(), m_positions.data());
        m_phases.add(m_phases.data, phase.seconds());
        phase.reset();
        m_net.beginStepTiming();
        LossResult r = m_net.forward(true, B, m_dropKey, m_positions.data());
        m_net.backward();
        m_net.endStepTiming();
        m_phases.add(m_phases.compute, phase.seconds());
        phase.reset();
        grads[P] = float(r.lossSum);
        grads[P + 1] = float(r.correct);
        grads[P + 2] = float(B);
        m_localWindow.loss += r.lossSum;
        m_localWindow.correct += r.correct;
        m_localWindow.count += B;
        // One all-reduce per step: gradients plus this step's metric sums.
        m_dist.allreduceSum(grads, P + Net::kExtra);
        m_phases.add(m_phases.allreduce, phase.seconds());
        phase.reset();
        m_opt.step(m_net.weights(), grads, 1.0f / float(m_dist.size()));  // the average: sum / workers
        m_phases.add(m_phases.optimizer, phase.seconds());
        phase.reset();
        m_net.syncWeights();
        m_phases.add(m_phases.sync, phase.seconds());
        m_phases.add(m_phases.step, whole.seconds());
        m_phases.stepCpu += whole.cpuSeconds();
        m_phases.endStep();
        m_window.loss += grads[P];
        m_window.correct += grads[P + 1];
        m_window.count += grads[P + 2];
    }

    StepSums takeSums() override {
        StepSums s = m_window;
        m_window = StepSums{};
        return s;
    }

    StepSums takeLocalSums() override {
        StepSums s = m_localWindow;
        m_localWindow = StepSums{};
        return s;
    }

    std::vector<float> averagedGradients() override {
        const size_t P = m_net.paramFloats();
        std::vector<float> avg(m_net.grads(), m_net.grads() + P);
        scaleBuffer(avg.data(), P, 1.0f / float(m_dist.size()));
        return avg;
    }

    std::vector<LayerOutput> layerOutputs() override {
        std::vector<LayerOutput> out;
        for (auto& [layer, values] : m_net.layerOutputs()) out.push_back({layer, std::move(values)});
        return out;
    }

    EvalResult evaluate() override { return td::evaluate(m_net, *m_setup.test, m_dist); }
    std::vector<float> predictAll() override { return td::predictAll(m_net, *m_setup.test); }

    double flopsPerImage() const override { return m_net.flopsPerTrainStep() / m_setup.net.batch; }

    void printProfile(int64_t steps) override {
        td::printProfile(m_net, steps, m_setup.net.batch);
        const double n = double(steps) / 1e3;
        const auto& p = m_phases;
        log::info("Per step outside the layers (ms): batch assembly+augment %.3f, forward+backward %.3f, all-reduce %.3f, "
                  "RMSprop %.3f, weight reorders %.3f; whole step %.3f\n",
                  p.data.sum / n, p.compute.sum / n, p.allreduce.sum / n, p.optimizer.sum / n, p.sync.sum / n,
                  p.step.sum / n);
        log::info("Least per step (ms): batch assembly+augment %.3f, forward+backward %.3f, all-reduce %.3f, "
                  "RMSprop %.3f, weight reorders %.3f; whole step %.3f\n",
                  p.data.min * 1e3, p.compute.min * 1e3, p.allreduce.min * 1e3, p.optimizer.min * 1e3,
                  p.sync.min * 1e3, p.step.min * 1e3);
        log::info("Whole step: %.3f CPU-ms (all threads) = %.1f GFLOP per CPU-second\n", p.stepCpu / n,
                  p.stepCpu > 0 ? m_net.flopsPerTrainStep() * double(steps) / p.stepCpu / 1e9 : 0.0);
    }

private:
    BackendSetup m_setup;
    Net m_net;
    RmsProp m_opt;
    Dist& m_dist;
    uint64_t m_seed = 0;
    uint64_t m_dropKey = 0;
    std::optional<Batcher> m_batcher;
    std::vector<uint64_t> m_positions;
    StepSums m_window;       // all ranks, after the all-reduce
    StepSums m_localWindow;  // this rank's batches
    // Seconds per phase: the sum over the steps and the least of one step (see LayerTiming).
    struct Phase {
        double sum = 0, min = 0, cur = 0;
    };
    struct {
        Phase data, compute, allreduce, optimizer, sync, step;
        double stepCpu = 0;
        bool first = true;
        void add(Phase& p, double s) { p.sum += s, p.cur = s; }
        void endStep() {
            for (Phase* p : {&data, &compute, &allreduce, &optimizer, &sync, &step})
                p->min = first ? p->cur : std::min(p->min, p->cur);
            first = false;
        }
    } m_phases;
};

}  // namespace

std::unique_ptr<Backend> makeCpuBackend(const BackendSetup& setup) { return std::make_unique<CpuBackend>(setup); }

}  // namespace td

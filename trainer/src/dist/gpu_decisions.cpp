#include "dist/gpu_decisions.h"

#include "dist/agree.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

namespace {

std::string onRank(const Dist& dist, const Agreement& a) {
    if (dist.size() == 1) return {};
    std::string s = cat(" on rank ", a.rank, " of ", dist.size());
    if (a.failed > 1) s += cat(" (and ", a.failed - 1, " other rank(s))");
    return s;
}

}  // namespace

bool agreeOnSetup(const Dist& dist, SetupOutcome mine, const std::string& error, const std::string& layout) {
    const Agreement failed = agree(dist, mine != SetupOutcome::Failed, error);
    if (!failed.ok) throw AgreedError(cat("GPU set-up failed", onRank(dist, failed), ": ", failed.message));
    const Agreement layoutOk = agree(dist, mine == SetupOutcome::Ok, error);
    if (layoutOk.ok) return true;
    log::info("%s convolutions unsupported%s (%s): all ranks use the fallback layout\n", layout.c_str(),
              onRank(dist, layoutOk).c_str(), layoutOk.message.c_str());
    return false;
}

bool agreeOnGraph(const Dist& dist, bool captured, const std::string& error) {
    const Agreement a = agree(dist, captured, error);
    if (a.ok) return true;
    log::info("CUDA graph capture failed%s (%s): all ranks run the step without a graph\n", onRank(dist, a).c_str(),
              a.message.c_str());
    return false;
}

}  // namespace td

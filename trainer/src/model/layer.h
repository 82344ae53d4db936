#pragma once
// Common pieces of the layers: an activation travels with its gradient (same oneDNN
// descriptor), and each layer records its own forward/backward time when profiling.
#include <algorithm>
#include <string>

#include "model/dnnl_util.h"
#include "util/timer.h"

namespace td {

struct Act {
    memory val;   // activation
    memory grad;  // d loss / d activation, same descriptor
    memory::dims dims;  // logical N, C, H, W (or N, C)
};

struct LayerTiming {
    std::string name;
    std::string impl;  // oneDNN implementation of the forward primitive
    double fwdSeconds = 0, bwdSeconds = 0;  // sums over all calls
    double fwdFlops = 0, bwdFlops = 0;  // per call
    // The least time of one training step (forward, backward): on a machine shared with other
    // work the sums grow with the load, the minimum over many steps stays near the cost.
    double fwdMin = 0, bwdMin = 0;
    double fwdStep = 0, bwdStep = 0;  // this step so far
    double fwdCpu = 0, bwdCpu = 0;    // process CPU seconds, sums over all calls (see StepClock)

    void addFwd(const StepClock& c) { fwdSeconds += c.seconds(), fwdStep += c.seconds(), fwdCpu += c.cpuSeconds(); }
    void addBwd(const StepClock& c) { bwdSeconds += c.seconds(), bwdStep += c.seconds(), bwdCpu += c.cpuSeconds(); }
    void beginStep() { fwdStep = bwdStep = 0; }
    void endStep(bool first) {
        fwdMin = first ? fwdStep : std::min(fwdMin, fwdStep);
        bwdMin = first ? bwdStep : std::min(bwdMin, bwdStep);
    }
};

}  // namespace td

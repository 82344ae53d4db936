#pragma once
// Common pieces of the layers: an activation travels with its gradient (same oneDNN
// descriptor), and each layer records its own forward/backward time when profiling.
#include <string>

#include "model/dnnl_util.h"

namespace td {

struct Act {
    memory val;   // activation
    memory grad;  // d loss / d activation, same descriptor
    memory::dims dims;  // logical N, C, H, W (or N, C)
};

struct LayerTiming {
    std::string name;
    std::string impl;  // oneDNN implementation of the forward primitive
    double fwdSeconds = 0, bwdSeconds = 0;
    double fwdFlops = 0, bwdFlops = 0;  // per call
};

}  // namespace td

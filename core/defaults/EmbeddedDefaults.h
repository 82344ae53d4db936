#pragma once

#include "common/Result.h"

namespace TrainDesk {

class Store;

// What a new user finds without configuring anything: workspace `default`, experiment
// `demo`, cluster `local` (this machine, as many slots as cores), share `local` (a
// folder in the data directory) and a draft demo job that trains the tutorial's CNN on
// Fashion-MNIST with 2 ranks. Each piece is created only when missing.
namespace EmbeddedDefaults {

inline constexpr char workspaceName[] = "default";
inline constexpr char experimentName[] = "demo";
inline constexpr char clusterName[] = "local";
inline constexpr char shareName[] = "local";
inline constexpr char demoJobName[] = "fashion-mnist-demo";

VoidResult ensure(Store &store);
QByteArray demoJobSpec();

} // namespace EmbeddedDefaults
} // namespace TrainDesk

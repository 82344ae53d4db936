#pragma once

#include "Sweep.h"

namespace TrainDesk {

// The trials of a sweep, drawn once when it is made.
namespace SweepSampler {

constexpr qint64 maxTrials = SweepParams::maxTrials;

// How many trials a grid of `params` has (every combination); fails naming a range that
// has no grid (a NumParam without step or numValues), or the parameter at which the
// product passes maxTrials: counted first (SweepParam::gridCount), so nothing large is made.
Result<qint64> gridSize(const QList<SweepParam> &params);
// grid: every combination, the last parameter changing fastest (as itertools.product);
// random: `trials` draws, each parameter in turn from one generator seeded with `seed`.
Result<QList<QJsonObject>> trials(const QList<SweepParam> &params, SweepSampling sampling, int trials, qint64 seed);

} // namespace SweepSampler
} // namespace TrainDesk

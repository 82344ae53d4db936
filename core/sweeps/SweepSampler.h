#pragma once

#include "Sweep.h"

namespace TrainDesk {

// The trials of a sweep, drawn once when it is made.
namespace SweepSampler {

// The most trials one sweep may have (a grid multiplies quickly).
constexpr qint64 maxTrials = 10000;

// How many trials a grid of `params` has (every combination); fails naming a range that
// has no grid (a NumParam without step or numValues).
Result<qint64> gridSize(const QList<SweepParam> &params);
// grid: every combination, the last parameter changing fastest (as itertools.product);
// random: `trials` draws, each parameter in turn from one generator seeded with `seed`.
Result<QList<QJsonObject>> trials(const QList<SweepParam> &params, SweepSampling sampling, int trials, qint64 seed);

} // namespace SweepSampler
} // namespace TrainDesk

#pragma once

#include <QList>
#include <QString>

namespace TrainDesk::Ui::ChartTicks {

// Seconds as h:mm:ss ("0:01:05", "12:00:00"); tenths under ten seconds of range.
QString elapsedText(double seconds, bool tenths = false);
// Round times in [min, max] for at most `maxTicks` labels: 1, 2, 5, 10, 15, 30 s, 1, 2, 5,
// 10, 15, 30 min, 1, 2, 3, 6, 12, 24 h apart.
QList<double> timeTicks(double min, double max, int maxTicks);
// The powers of 10 a log axis labels so that [min, max] (both > 0) lies between two of
// them: (10^floor(log10 min), 10^ceil(log10 max)), a decade at least.
std::pair<double, double> decadeRange(double min, double max);
// The 1-2-5 step (1, 2, 5, 10, 20, 50, 0.1, 0.2, ...) that labels [min, max] with at most
// `maxTicks` ticks and at least half as many: a zoomed axis reads 140 160 180, not 146 192 237.
double roundStep(double min, double max, int maxTicks);
// The first multiple of `step` at or above min.
double firstTick(double min, double step);

} // namespace TrainDesk::Ui::ChartTicks

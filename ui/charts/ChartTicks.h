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

} // namespace TrainDesk::Ui::ChartTicks

#include "ChartTicks.h"

#include <cmath>

namespace TrainDesk::Ui::ChartTicks {

QString elapsedText(double seconds, bool tenths)
{
    const bool negative = seconds < 0;
    const double whole = std::abs(seconds);
    const qint64 s = qint64(std::floor(whole + (tenths ? 0.05 : 0.5)));
    QString text = QStringLiteral("%1%2:%3:%4")
                       .arg(negative ? QStringLiteral("-") : QString())
                       .arg(s / 3600)
                       .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'))
                       .arg(s % 60, 2, 10, QLatin1Char('0'));
    if (tenths)
        text += QStringLiteral(".%1").arg(int(std::floor((whole - double(s)) * 10 + 0.5)) % 10);
    return text;
}

QList<double> timeTicks(double min, double max, int maxTicks)
{
    static const double steps[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
                                   3600, 7200, 10800, 21600, 43200, 86400};
    QList<double> ticks;
    if (!(max > min) || maxTicks < 1)
        return ticks;
    double step = steps[std::size(steps) - 1];
    for (double s : steps) {
        if ((max - min) / s <= maxTicks) {
            step = s;
            break;
        }
    }
    while ((max - min) / step > maxTicks)
        step *= 2;  // past a day: whole days, doubled
    for (double t = std::ceil(min / step - 1e-9) * step; t <= max + 1e-9 * step; t += step)
        ticks.append(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::pair<double, double> decadeRange(double min, double max)
{
    if (!(min > 0) || !(max > 0))
        return {0.1, 1};
    double low = std::pow(10.0, std::floor(std::log10(min) + 1e-9));
    double high = std::pow(10.0, std::ceil(std::log10(max) - 1e-9));
    if (high <= low)
        high = low * 10;
    return {low, high};
}

double roundStep(double min, double max, int maxTicks)
{
    const double span = max - min;
    if (!(span > 0) || !std::isfinite(span) || maxTicks < 2)
        return 1;
    // The smallest 1-2-5 step giving no more than maxTicks ticks in the range.
    const double raw = span / (maxTicks - 1);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        const double step = m * decade;
        if (std::floor(max / step + 1e-9) - std::ceil(min / step - 1e-9) + 1 <= maxTicks)
            return step;
    }
    return 20 * decade;
}

double firstTick(double min, double step)
{
    const double t = std::ceil(min / step - 1e-9) * step;
    return std::abs(t) < step * 1e-9 ? 0.0 : t;
}

} // namespace TrainDesk::Ui::ChartTicks

#include "Contrast.h"

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui::Contrast {

namespace {

double channel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

QColor mixed(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

double luminance(const QColor &color)
{
    const QColor c = color.toRgb();
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double ratio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableMix(const QColor &from, const QColor &toward, const QList<QColor> &backgrounds)
{
    for (int step = 0; step <= 20; ++step) {
        const QColor c = mixed(from, toward, step / 20.0);
        if (std::all_of(backgrounds.cbegin(), backgrounds.cend(),
                        [&](const QColor &bg) { return ratio(c, bg) >= minimumRatio; }))
            return c;
    }
    return toward;
}

} // namespace TrainDesk::Ui::Contrast

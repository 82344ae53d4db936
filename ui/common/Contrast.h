#pragma once

#include <QColor>
#include <QPalette>

namespace TrainDesk::Ui::Contrast {

// WCAG 2 relative luminance (0 black to 1 white) and contrast ratio (1 to 21). Text and
// icons should reach 4.5:1 against what they are drawn on.
double luminance(const QColor &color);
double ratio(const QColor &a, const QColor &b);
constexpr double minimumRatio = 4.5;

// `from` mixed toward `toward` just enough to reach minimumRatio against every colour of
// `backgrounds` (or `toward` itself when nothing less does): a border or mark that stays
// as quiet as the palette allows and can still be seen.
QColor readableMix(const QColor &from, const QColor &toward, const QList<QColor> &backgrounds);

} // namespace TrainDesk::Ui::Contrast

#pragma once

#include "ParameterTable.h"

#include <QColor>
#include <QPalette>
#include <QPainter>

#include <algorithm>
#include <QString>

#include <optional>

namespace TrainDesk::Ui::ParameterPlotStyle {

// The colour of a run by how good its metric is: red (worst) through amber to blue (best);
// grey without a metric. The best run is drawn in the palette's highlight on top.
inline QColor runColor(std::optional<double> goodness)
{
    if (!goodness)
        return QColor(150, 150, 150, 140);
    const double g = std::clamp(*goodness, 0.0, 1.0);
    return QColor::fromHsvF(float(g * 0.6), 0.75f, 0.85f, 0.85f);  // hue 0 (red) to 216 degrees (blue)
}

// A row's colour: its own where it has one (the runs view's), else by its metric, the best
// in the palette's highlight.
// `goodness`: the row's (ParameterTable::goodnesses(), made once per paint).
inline QColor rowColor(const ParameterTable &table, int row, bool best, const QPalette &palette,
                       std::optional<double> goodness)
{
    // (at(), not value(): a copy of the row per run and paint was most of a paint's time)
    if (row >= 0 && row < table.rows.size() && table.rows.at(row).color.isValid())
        return table.rows.at(row).color;
    return best ? palette.color(QPalette::Highlight) : runColor(goodness);
}

// Tick labels: quieter than the text, yet readable on the base (darker on light, lighter
// on the dark theme).
inline QColor mutedText(const QPalette &palette)
{
    const QColor placeholder = palette.color(QPalette::PlaceholderText);
    return palette.color(QPalette::Base).lightness() < 128 ? placeholder.lighter(125) : placeholder.darker(130);
}

inline int textHeight(const QPainter &p) { return p.fontMetrics().height(); }

} // namespace TrainDesk::Ui::ParameterPlotStyle

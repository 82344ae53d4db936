#pragma once

#include <QList>
#include <QPointF>

namespace TrainDesk::Ui {

// A line reduced to what the pixels of a plot show: the points (in x order) between xMin
// and xMax split into `columns` equal columns of x, and of each column only its first,
// lowest, highest and last point, in x order (fewer when some coincide). Drawn with lines
// between them, the result covers exactly the pixels the whole line covers in each column,
// so a one-point spike stays. The point before xMin and the one after xMax are kept too,
// so the line runs to the plot's edges. A column of at most four points keeps all of them.
namespace PixelColumns {

// `ends` false: only the lowest and highest point of a column (two, not four): for a chart of
// many lines, where the segment between two columns may then start a pixel higher or lower.
QList<QPointF> of(const QPointF *begin, const QPointF *end, double xMin, double xMax, int columns, bool ends = true);
QList<QPointF> of(const QList<QPointF> &points, double xMin, double xMax, int columns, bool ends = true);

} // namespace PixelColumns
} // namespace TrainDesk::Ui

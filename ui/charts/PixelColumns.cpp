#include "PixelColumns.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace TrainDesk::Ui::PixelColumns {

QList<QPointF> of(const QPointF *begin, const QPointF *end, double xMin, double xMax, int columns, bool ends)
{
    QList<QPointF> result;
    if (begin == end)
        return result;
    const QPointF *first = std::lower_bound(begin, end, xMin, [](const QPointF &p, double x) { return p.x() < x; });
    const QPointF *last = std::upper_bound(first, end, xMax, [](double x, const QPointF &p) { return x < p.x(); });
    // One point past each edge: the segment into the plot is drawn (and clipped there).
    const QPointF *from = first == begin ? first : first - 1;
    const QPointF *to = last == end ? last : last + 1;
    columns = std::max(columns, 1);
    if (to - from <= (ends ? 2 : 1) * qsizetype(columns) || !(xMax > xMin)) {
        result.reserve(to - from);
        for (const QPointF *p = from; p != to; ++p)
            result.append(*p);
        return result;
    }
    result.reserve(4 * qsizetype(columns) + 2);
    if (from != first)
        result.append(*from);
    const double perColumn = columns / (xMax - xMin);
    const QPointF *p = first;
    while (p != last) {
        // One column: [p, next).
        const double column = std::floor((p->x() - xMin) * perColumn);
        const double columnEnd = xMin + (column + 1) / perColumn;
        const QPointF *lo = p, *hi = p, *q = p + 1;
        for (; q != last && q->x() < columnEnd; ++q) {
            lo = q->y() < lo->y() ? q : lo;
            hi = q->y() > hi->y() ? q : hi;
        }
        std::array<const QPointF *, 4> keep{p, lo, hi, q - 1};
        if (!ends)
            keep = {lo, hi, lo, hi};
        std::sort(keep.begin(), keep.end());
        const auto unique = std::unique(keep.begin(), keep.end());
        for (auto it = keep.begin(); it != unique; ++it)
            result.append(**it);
        p = q;
    }
    if (last != to)
        result.append(*last);
    return result;
}

QList<QPointF> of(const QList<QPointF> &points, double xMin, double xMax, int columns, bool ends)
{
    return of(points.constData(), points.constData() + points.size(), xMin, xMax, columns, ends);
}

} // namespace TrainDesk::Ui::PixelColumns

#include "ParallelCoordinatesPlot.h"

#include "ParameterPlotStyle.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui {

namespace {

// `src` over `dst`, both premultiplied ARGB.
QRgb over(QRgb src, QRgb dst)
{
    const uint keep = 255 - qAlpha(src);
    auto part = [keep](uint s, uint d) { return s + (d * keep + 127) / 255; };
    return qRgba(int(part(qRed(src), qRed(dst))), int(part(qGreen(src), qGreen(dst))), int(part(qBlue(src), qBlue(dst))),
                 int(part(qAlpha(src), qAlpha(dst))));
}

// A line one pixel wide from `a` to `b` (image pixels) in `color` (premultiplied), set
// straight in the image, a pixel per step along its longer side (16.16 fixed point), `a`
// itself left out when `fromA` is false (a polyline's joint is set once). 10,000 runs of a
// dozen segments through QPainter::drawPolyline took 150 ms: its set-up per line and per
// colour, and a call per pixel.
void drawPixelLine(QImage &image, QPoint a, QPoint b, QRgb color, bool fromA)
{
    const int w = image.width();
    const int h = image.height();
    if (w == 0 || h == 0)
        return;
    // (The plot's area is inside the image: this only keeps a tiny widget's pixels in it.)
    const auto inside = [w, h](QPoint p) { return QPoint(std::clamp(p.x(), 0, w - 1), std::clamp(p.y(), 0, h - 1)); };
    a = inside(a);
    b = inside(b);
    QRgb *bits = reinterpret_cast<QRgb *>(image.bits());
    const qsizetype stride = image.bytesPerLine() / qsizetype(sizeof(QRgb));
    const bool opaque = qAlpha(color) == 255;
    const auto set = [&](int x, int y) {
        QRgb &pixel = bits[y * stride + x];
        pixel = opaque ? color : over(color, pixel);
    };
    const int dx = b.x() - a.x();
    const int dy = b.y() - a.y();
    const int steps = std::max(std::abs(dx), std::abs(dy));
    const int first = fromA ? 0 : 1;
    if (steps == 0) {
        if (fromA)
            set(a.x(), a.y());
        return;
    }
    // The minor coordinate from half a pixel on (rounded), a step's share of its change each step.
    const qint64 minorStep = ((std::abs(dx) >= std::abs(dy) ? qint64(dy) : qint64(dx)) * 65536) / steps;
    qint64 minor = ((std::abs(dx) >= std::abs(dy) ? qint64(a.y()) : qint64(a.x())) << 16) + 0x8000 + minorStep * first;
    if (std::abs(dx) >= std::abs(dy)) {
        const int sx = dx > 0 ? 1 : -1;
        for (int i = first, x = a.x() + sx * first; i <= steps; ++i, x += sx, minor += minorStep)
            set(x, int(minor >> 16));
    } else {
        const int sy = dy > 0 ? 1 : -1;
        for (int i = first, y = a.y() + sy * first; i <= steps; ++i, y += sy, minor += minorStep)
            set(int(minor >> 16), y);
    }
}

} // namespace

ParallelCoordinatesPlot::ParallelCoordinatesPlot(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setMouseTracking(true);
}

void ParallelCoordinatesPlot::setTable(const ParameterTable &table)
{
    // The same runs' settings against another metric: their axes are kept (the rows' values
    // are most often the very same lists, compared at once).
    const bool sameSettings = table.parameters == m_table.parameters && table.rows.size() == m_table.rows.size()
                              && m_axes.size() >= table.parameters.size()
                              && std::equal(table.rows.cbegin(), table.rows.cend(), m_table.rows.cbegin(),
                                            [](const ParameterTable::Row &a, const ParameterTable::Row &b) { return a.values == b.values; });
    m_table = table;
    if (sameSettings) {
        m_axes.resize(m_table.parameters.size());
        m_positions.resize(m_table.parameters.size());
    } else {
        m_axes.clear();
        m_positions.clear();
        for (int i = 0; i < m_table.parameters.size(); ++i) {
            m_axes << m_table.parameterAxis(i);
            m_positions << m_table.positions(i, m_axes.constLast());
        }
    }
    if (!m_table.metric.isEmpty()) {
        m_axes << m_table.metricAxis();
        m_positions << m_table.positions(-1, m_axes.constLast());
    }
    m_goodness = m_table.goodnesses();
    m_best = m_table.bestRow();
    // The runs first (worst first, so better ones lie on top), the best last (over the image).
    m_order.clear();
    m_order.reserve(m_table.rows.size());
    for (int i = 0; i < m_table.rows.size(); ++i) {
        if (i != m_best)
            m_order << i;
    }
    std::stable_sort(m_order.begin(), m_order.end(), [this](int a, int b) {
        return m_goodness.at(a).value_or(-1) < m_goodness.at(b).value_or(-1);
    });
    m_hovered = -1;
    m_runsStale = true;
    update();
}

QRectF ParallelCoordinatesPlot::plotArea() const
{
    const int text = fontMetrics().height();
    // Room for the axis names above and the labels beside each axis.
    return QRectF(rect()).adjusted(48, 2.5 * text, -48, -text);
}

double ParallelCoordinatesPlot::axisX(int axis, const QRectF &area) const
{
    return m_axes.size() == 1 ? area.center().x() : area.left() + area.width() * axis / (m_axes.size() - 1);
}

std::optional<QPointF> ParallelCoordinatesPlot::pointOf(int row, int axis) const
{
    if (row < 0 || row >= m_table.rows.size() || axis < 0 || axis >= m_axes.size())
        return std::nullopt;
    const double v = m_positions.at(axis).at(row);
    if (std::isnan(v))
        return std::nullopt;
    const QRectF area = plotArea();
    return QPointF(axisX(axis, area), area.bottom() - v * area.height());
}

int ParallelCoordinatesPlot::rowAt(const QPointF &at) const
{
    // Only the axes within reach: 10,000 runs a mouse move.
    const QRectF area = plotArea();
    QList<int> near;
    for (int a = 0; a < m_axes.size(); ++a) {
        if (std::abs(axisX(a, area) - at.x()) < 12)
            near << a;
    }
    int nearest = -1;
    double distance = 12;
    for (int row = 0; row < m_table.rows.size() && !near.isEmpty(); ++row) {
        for (int a : std::as_const(near)) {
            const double v = m_positions.at(a).at(row);
            if (std::isnan(v))
                continue;
            const double d = std::hypot(axisX(a, area) - at.x(), area.bottom() - v * area.height() - at.y());
            if (d < distance) {
                distance = d;
                nearest = row;
            }
        }
    }
    return nearest;
}

// Row `row`'s line with the painter's pen: a polyline per stretch of axes with a value.
void ParallelCoordinatesPlot::drawRun(QPainter &p, int row, const QRectF &area) const
{
    QVarLengthArray<QPointF, 32> points;
    auto flush = [&] {
        if (points.size() >= 2)
            p.drawPolyline(points.constData(), int(points.size()));
        points.clear();
    };
    for (int a = 0; a < m_axes.size(); ++a) {
        const double v = m_positions.at(a).at(row);
        if (std::isnan(v))
            flush();
        else
            points.append(QPointF(axisX(a, area), area.bottom() - v * area.height()));
    }
    flush();
}

void ParallelCoordinatesPlot::drawRuns()
{
    const qreal ratio = devicePixelRatioF();
    m_runs = QImage((QSizeF(size()) * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
    m_runs.setDevicePixelRatio(ratio);
    m_runsStale = false;
    {
        QPainter base(&m_runs);
        base.fillRect(rect(), palette().base());
    }
    const QRectF area = plotArea();
    if (m_table.rows.size() > 2000) {
        // Thousands: 1-pixel lines without antialiasing (their lines cover each other anyway),
        // set pixel by pixel.
        QList<int> xs;
        for (int a = 0; a < m_axes.size(); ++a)
            xs << qRound(axisX(a, area) * ratio);
        for (int row : std::as_const(m_order)) {
            const QRgb color = qPremultiply(ParameterPlotStyle::rowColor(m_table, row, false, palette(), m_goodness.at(row)).rgba());
            std::optional<QPoint> last;  // where the stretch of axes with a value has got to
            bool first = true;           // its first segment sets its start
            for (int a = 0; a < m_axes.size(); ++a) {
                const double v = m_positions.at(a).at(row);
                if (std::isnan(v)) {
                    last.reset();
                    first = true;
                    continue;
                }
                const QPoint pt(xs.at(a), qRound((area.bottom() - v * area.height()) * ratio));
                if (last) {
                    drawPixelLine(m_runs, *last, pt, color, first);
                    first = false;
                }
                last = pt;
            }
        }
        return;
    }
    QPainter p(&m_runs);
    // Hundreds of runs: 1-pixel lines (the cosmetic stroker; a wider pen is outlined per
    // segment, 2.6 s for 10,000 runs, and their lines cover each other anyway).
    const bool many = m_table.rows.size() > 300;
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen(Qt::black, many ? 1.0 : 1.6);
    pen.setCosmetic(many);
    bool penSet = false;
    for (int row : std::as_const(m_order)) {
        const QColor color = ParameterPlotStyle::rowColor(m_table, row, false, palette(), m_goodness.at(row));
        if (!penSet || color != pen.color()) {
            pen.setColor(color);
            p.setPen(pen);
            penSet = true;
        }
        drawRun(p, row, area);
    }
}

void ParallelCoordinatesPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (m_axes.isEmpty() || m_table.rows.isEmpty()) {
        p.fillRect(rect(), palette().base());
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No runs to draw yet"));
        return;
    }
    const QSize pixels = (QSizeF(size()) * devicePixelRatioF()).toSize();
    if (m_runsStale || m_runs.size() != pixels)
        drawRuns();
    p.drawImage(QPointF(0, 0), m_runs);
    const QRectF area = plotArea();
    p.setRenderHint(QPainter::Antialiasing);
    // The run under the pointer over the others, the best over all, thick.
    if (m_hovered >= 0 && m_hovered != m_best) {
        p.setPen(QPen(ParameterPlotStyle::rowColor(m_table, m_hovered, false, palette(), m_goodness.at(m_hovered)), 2.5));
        drawRun(p, m_hovered, area);
    }
    if (m_best >= 0) {
        p.setPen(QPen(ParameterPlotStyle::rowColor(m_table, m_best, true, palette(), m_goodness.at(m_best)), 3.5));
        drawRun(p, m_best, area);
    }
    // The axes over the lines, with their names and labels.
    const QColor text = palette().color(QPalette::Text);
    for (int a = 0; a < m_axes.size(); ++a) {
        const double x = axisX(a, area);
        p.setPen(QPen(text, 1.2));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        QFont bold = font();
        bold.setBold(a == m_axes.size() - 1 && !m_table.metric.isEmpty());
        p.setFont(bold);
        const QString name = m_axes[a].name + (m_axes[a].log ? tr(" (log)") : QString());
        p.drawText(QRectF(x - 90, 0, 180, 1.6 * fontMetrics().height()), Qt::AlignHCenter | Qt::AlignBottom, name);
        p.setFont(font());
        p.setPen(ParameterPlotStyle::mutedText(palette()));
        const bool labelsLeft = a == m_axes.size() - 1 && m_axes.size() > 1;
        for (const auto &[pos, label] : m_axes[a].ticks()) {
            const double y = area.bottom() - pos * area.height();
            p.drawLine(QPointF(x - 3, y), QPointF(x + 3, y));
            const QRectF box = labelsLeft ? QRectF(x - 50, y - 8, 46, 16) : QRectF(x + 5, y - 8, 60, 16);
            p.drawText(box, (labelsLeft ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, label);
        }
    }
}

void ParallelCoordinatesPlot::changeEvent(QEvent *event)
{
    // The image has the palette's base and the runs' colours, its layout the font's size.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_runsStale = true;
    QWidget::changeEvent(event);
}

void ParallelCoordinatesPlot::setHovered(int row)
{
    if (row == m_hovered)
        return;
    m_hovered = row;
    update();  // the image and two lines over it
}

void ParallelCoordinatesPlot::mouseMoveEvent(QMouseEvent *event)
{
    setHovered(rowAt(event->position()));
    QWidget::mouseMoveEvent(event);
}

void ParallelCoordinatesPlot::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void ParallelCoordinatesPlot::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        if (const int row = rowAt(event->position()); row >= 0) {
            Q_EMIT rowClicked(row);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

bool ParallelCoordinatesPlot::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    // The run whose line passes nearest the pointer on the nearest axis.
    const int nearest = rowAt(static_cast<QHelpEvent *>(event)->pos());
    if (nearest < 0) {
        QToolTip::hideText();
        return true;
    }
    const ParameterTable::Row &r = m_table.rows[nearest];
    QStringList lines{r.label};
    for (int i = 0; i < m_table.parameters.size(); ++i)
        lines << QStringLiteral("%1 = %2").arg(m_table.parameters[i], r.values.value(i).toString());
    if (r.metric)
        lines << QStringLiteral("%1 = %2").arg(m_table.metric).arg(*r.metric, 0, 'g', 5);
    QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), lines.join(QLatin1Char('\n')), this);
    return true;
}

} // namespace TrainDesk::Ui

#include "ParameterScatterPlot.h"

#include "ParameterPlotStyle.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>

#include <cmath>

namespace TrainDesk::Ui {

ParameterScatterPlot::ParameterScatterPlot(QWidget *parent) : QWidget(parent) { setMouseTracking(true); }

void ParameterScatterPlot::setTable(const ParameterTable &table)
{
    m_table = table;
    m_goodness = m_table.goodnesses();
    m_best = m_table.bestRow();
    m_y = m_table.metricAxis();
    m_ys = m_table.positions(-1, m_y);
    placeRows();
}

void ParameterScatterPlot::setParameter(int column)
{
    m_column = column;
    placeRows();
}

// The x axis and every row's place along it, for m_column (kept within the parameters).
void ParameterScatterPlot::placeRows()
{
    m_column = std::clamp(m_column, 0, std::max(0, int(m_table.parameters.size()) - 1));
    m_x = m_table.parameterAxis(m_column);
    m_xs = m_table.positions(m_column, m_x);
    m_hovered = -1;
    m_stale = true;
    update();
}

QRectF ParameterScatterPlot::plotArea() const
{
    const int text = fontMetrics().height();
    return QRectF(rect()).adjusted(64, text, -24, -2.8 * text);
}

std::optional<QPointF> ParameterScatterPlot::pointOf(int row) const
{
    if (row < 0 || row >= m_table.rows.size() || !m_table.rows[row].metric)
        return std::nullopt;
    const double x = m_xs.at(row);
    const double y = m_ys.at(row);
    if (std::isnan(x) || std::isnan(y))
        return std::nullopt;
    // Inset, so that the dots at the ends are whole.
    const QRectF area = plotArea().adjusted(8, 8, -8, -8);
    return QPointF(area.left() + x * area.width(), area.bottom() - y * area.height());
}

int ParameterScatterPlot::rowAt(const QPointF &at) const
{
    // The one drawn on top of those within reach: the best, else the last drawn.
    if (const auto pt = pointOf(m_best); pt && QLineF(*pt, at).length() < 8)
        return m_best;
    for (int row = int(m_table.rows.size()) - 1; row >= 0; --row) {
        if (const auto pt = pointOf(row); pt && QLineF(*pt, at).length() < 8)
            return row;
    }
    return -1;
}

void ParameterScatterPlot::drawBackground()
{
    const qreal ratio = devicePixelRatioF();
    m_image = QImage((QSizeF(size()) * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(ratio);
    m_stale = false;
    QPainter p(&m_image);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QRectF area = plotArea();
    const QColor text = palette().color(QPalette::Text);
    const QColor muted = ParameterPlotStyle::mutedText(palette());
    p.setPen(QPen(text, 1));
    p.drawLine(area.bottomLeft(), area.bottomRight());
    p.drawLine(area.bottomLeft(), area.topLeft());
    const QRectF inner = area.adjusted(8, 8, -8, -8);
    p.setPen(muted);
    for (const auto &[pos, label] : m_x.ticks()) {
        const double x = inner.left() + pos * inner.width();
        p.drawLine(QPointF(x, area.bottom()), QPointF(x, area.bottom() + 4));
        p.drawText(QRectF(x - 50, area.bottom() + 4, 100, fontMetrics().height()), Qt::AlignHCenter | Qt::AlignTop, label);
    }
    for (const auto &[pos, label] : m_y.ticks()) {
        const double y = inner.bottom() - pos * inner.height();
        p.drawLine(QPointF(area.left() - 4, y), QPointF(area.left(), y));
        p.drawText(QRectF(0, y - 8, area.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter, label);
    }
    p.setPen(text);
    p.drawText(QRectF(area.left(), rect().bottom() - 1.4 * fontMetrics().height(), area.width(), fontMetrics().height()),
               Qt::AlignHCenter, m_x.name + (m_x.log ? tr(" (log)") : QString()));
    p.save();
    p.translate(12, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-area.height() / 2, -fontMetrics().height() / 2.0, area.height(), fontMetrics().height()),
               Qt::AlignCenter, m_table.metric);
    p.restore();
    p.setPen(Qt::NoPen);
    for (int row = 0; row < m_table.rows.size(); ++row) {
        const auto pt = pointOf(row);
        if (!pt || row == m_best)
            continue;
        p.setBrush(ParameterPlotStyle::rowColor(m_table, row, false, palette(), m_goodness.at(row)));
        p.drawEllipse(*pt, 5, 5);
    }
}

void ParameterScatterPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (m_table.parameters.isEmpty() || m_table.rows.isEmpty()) {
        p.fillRect(rect(), palette().base());
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No runs to draw yet"));
        return;
    }
    if (m_stale || m_image.size() != (QSizeF(size()) * devicePixelRatioF()).toSize())
        drawBackground();
    p.drawImage(QPointF(0, 0), m_image);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::Text);
    if (const auto pt = pointOf(m_hovered); pt && m_hovered != m_best) {
        p.setBrush(ParameterPlotStyle::rowColor(m_table, m_hovered, false, palette(), m_goodness.at(m_hovered)));
        p.setPen(QPen(text, 1.5));
        p.drawEllipse(*pt, 6, 6);
    }
    if (const auto pt = pointOf(m_best)) {
        p.setBrush(ParameterPlotStyle::rowColor(m_table, m_best, true, palette(), m_goodness.value(m_best)));
        p.setPen(QPen(text, 1.5));
        p.drawEllipse(*pt, 7, 7);
        // Its name beside it, above and to the right, or where it fits whole (the best dot
        // is often at an edge: the highest metric, the largest value).
        const QString label = fontMetrics().elidedText(m_table.rows[m_best].label, Qt::ElideMiddle, 240);
        QRectF box(pt->x() + 10, pt->y() - 18, fontMetrics().horizontalAdvance(label) + 2, 16);
        if (box.right() > width())
            box.moveRight(pt->x() - 10);
        if (box.top() < 0)
            box.moveTop(pt->y() + 8);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}

void ParameterScatterPlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_stale = true;
    QWidget::changeEvent(event);
}

void ParameterScatterPlot::setHovered(int row)
{
    if (row == m_hovered)
        return;
    m_hovered = row;
    update();
}

void ParameterScatterPlot::mouseMoveEvent(QMouseEvent *event)
{
    setHovered(rowAt(event->position()));
    QWidget::mouseMoveEvent(event);
}

void ParameterScatterPlot::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void ParameterScatterPlot::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        if (const int row = rowAt(event->position()); row >= 0) {
            Q_EMIT rowClicked(row);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

bool ParameterScatterPlot::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const int row = rowAt(static_cast<QHelpEvent *>(event)->pos());
    if (row < 0) {
        QToolTip::hideText();
        return true;
    }
    const ParameterTable::Row &r = m_table.rows[row];
    QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(),
                       QStringLiteral("%1\n%2 = %3\n%4 = %5")
                           .arg(r.label, m_table.parameters.value(m_column), r.values.value(m_column).toString(), m_table.metric)
                           .arg(*r.metric, 0, 'g', 5),
                       this);
    return true;
}

} // namespace TrainDesk::Ui

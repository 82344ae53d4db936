#include "ParameterScatterPlot.h"

#include "ParameterPlotStyle.h"

#include <QHelpEvent>
#include <QToolTip>

namespace TrainDesk::Ui {

ParameterScatterPlot::ParameterScatterPlot(QWidget *parent) : QWidget(parent) { setMouseTracking(true); }

void ParameterScatterPlot::setTable(const ParameterTable &table)
{
    m_table = table;
    m_column = std::clamp(m_column, 0, std::max(0, int(table.parameters.size()) - 1));
    m_x = m_table.parameterAxis(m_column);
    m_y = m_table.metricAxis();
    update();
}

void ParameterScatterPlot::setParameter(int column)
{
    m_column = column;
    setTable(m_table);
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
    const auto x = m_x.position(m_table.rows[row].values.value(m_column));
    const auto y = m_y.position(*m_table.rows[row].metric);
    if (!x || !y)
        return std::nullopt;
    // Inset, so that the dots at the ends are whole.
    const QRectF area = plotArea().adjusted(8, 8, -8, -8);
    return QPointF(area.left() + *x * area.width(), area.bottom() - *y * area.height());
}

void ParameterScatterPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QRectF area = plotArea();
    if (m_table.parameters.isEmpty() || m_table.rows.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No runs to draw yet"));
        return;
    }
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
    const int best = m_table.bestRow();
    const QList<std::optional<double>> goodness = m_table.goodnesses();
    for (int row = 0; row < m_table.rows.size(); ++row) {
        const auto pt = pointOf(row);
        if (!pt || row == best)
            continue;
        p.setPen(Qt::NoPen);
        p.setBrush(ParameterPlotStyle::rowColor(m_table, row, false, palette(), goodness.at(row)));
        p.drawEllipse(*pt, 5, 5);
    }
    if (const auto pt = pointOf(best)) {
        p.setBrush(ParameterPlotStyle::rowColor(m_table, best, true, palette(), goodness.value(best)));
        p.setPen(QPen(text, 1.5));
        p.drawEllipse(*pt, 7, 7);
        // Its name beside it, above and to the right, or where it fits whole (the best dot
        // is often at an edge: the highest metric, the largest value).
        const QString label = fontMetrics().elidedText(m_table.rows[best].label, Qt::ElideMiddle, 240);
        QRectF box(pt->x() + 10, pt->y() - 18, fontMetrics().horizontalAdvance(label) + 2, 16);
        if (box.right() > width())
            box.moveRight(pt->x() - 10);
        if (box.top() < 0)
            box.moveTop(pt->y() + 8);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}

bool ParameterScatterPlot::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const QPoint at = static_cast<QHelpEvent *>(event)->pos();
    for (int row = 0; row < m_table.rows.size(); ++row) {
        if (const auto pt = pointOf(row); pt && QLineF(*pt, at).length() < 8) {
            const ParameterTable::Row &r = m_table.rows[row];
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(),
                               QStringLiteral("%1\n%2 = %3\n%4 = %5")
                                   .arg(r.label, m_table.parameters.value(m_column), r.values.value(m_column).toString(),
                                        m_table.metric)
                                   .arg(*r.metric, 0, 'g', 5),
                               this);
            return true;
        }
    }
    QToolTip::hideText();
    return true;
}

} // namespace TrainDesk::Ui

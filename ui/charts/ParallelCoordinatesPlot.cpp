#include "ParallelCoordinatesPlot.h"

#include "ParameterPlotStyle.h"

#include <QHelpEvent>
#include <QPainterPath>
#include <QToolTip>

namespace TrainDesk::Ui {

ParallelCoordinatesPlot::ParallelCoordinatesPlot(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setMouseTracking(true);
}

void ParallelCoordinatesPlot::setTable(const ParameterTable &table)
{
    m_table = table;
    m_axes = axes();
    update();
}

QList<ParameterTable::Axis> ParallelCoordinatesPlot::axes() const
{
    QList<ParameterTable::Axis> list;
    for (int i = 0; i < m_table.parameters.size(); ++i)
        list << m_table.parameterAxis(i);
    if (!m_table.metric.isEmpty())
        list << m_table.metricAxis();
    return list;
}

QRectF ParallelCoordinatesPlot::plotArea() const
{
    const int text = fontMetrics().height();
    // Room for the axis names above and the labels beside each axis.
    return QRectF(rect()).adjusted(48, 2.5 * text, -48, -text);
}

std::optional<double> ParallelCoordinatesPlot::axisValue(int row, int axis, const ParameterTable::Axis &a) const
{
    const ParameterTable::Row &r = m_table.rows[row];
    if (axis < m_table.parameters.size())
        return a.position(r.values.value(axis));
    return r.metric ? a.position(*r.metric) : std::nullopt;
}

std::optional<QPointF> ParallelCoordinatesPlot::pointOf(int row, int axis) const
{
    if (row < 0 || row >= m_table.rows.size() || axis < 0 || axis >= m_axes.size())
        return std::nullopt;
    const auto v = axisValue(row, axis, m_axes[axis]);
    if (!v)
        return std::nullopt;
    const QRectF area = plotArea();
    const double x = m_axes.size() == 1 ? area.center().x() : area.left() + area.width() * axis / (m_axes.size() - 1);
    return QPointF(x, area.bottom() - *v * area.height());
}

void ParallelCoordinatesPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const QRectF area = plotArea();
    if (m_axes.isEmpty() || m_table.rows.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No runs to draw yet"));
        return;
    }
    const int best = m_table.bestRow();
    // The runs first (worst first, so better ones lie on top), the best last.
    QList<int> order;
    for (int i = 0; i < m_table.rows.size(); ++i)
        order << i;
    const QList<std::optional<double>> goodness = m_table.goodnesses();
    std::stable_sort(order.begin(), order.end(), [&goodness](int a, int b) {
        return goodness.at(a).value_or(-1) < goodness.at(b).value_or(-1);
    });
    order.removeAll(best);
    if (best >= 0)
        order << best;
    // Hundreds of runs and more: 1-pixel lines (the cosmetic stroker; a wider pen is outlined
    // per segment, 2.6 s for 10,000 runs, and their lines cover each other anyway).
    const bool many = m_table.rows.size() > 300;
    // Thousands: without antialiasing too (a line each of a few hundred thousand segments).
    p.setRenderHint(QPainter::Antialiasing, m_table.rows.size() <= 2000);
    for (int row : order) {
        QPainterPath path;
        bool drawing = false;
        for (int a = 0; a < m_axes.size(); ++a) {
            const auto pt = pointOf(row, a);
            if (!pt) {
                drawing = false;
                continue;
            }
            drawing ? path.lineTo(*pt) : path.moveTo(*pt);
            drawing = true;
        }
        const bool isBest = row == best;
        QPen pen(ParameterPlotStyle::rowColor(m_table, row, isBest, palette(), goodness.at(row)), isBest ? 3.5 : many ? 1.0 : 1.6);
        pen.setCosmetic(many && !isBest);
        p.setPen(pen);
        p.drawPath(path);
    }
    // The axes over the lines, with their names and labels.
    p.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::Text);
    for (int a = 0; a < m_axes.size(); ++a) {
        const double x = m_axes.size() == 1 ? area.center().x() : area.left() + area.width() * a / (m_axes.size() - 1);
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

bool ParallelCoordinatesPlot::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const QPoint at = static_cast<QHelpEvent *>(event)->pos();
    // The run whose line passes nearest the pointer on the nearest axis.
    int nearest = -1;
    double distance = 12;
    for (int row = 0; row < m_table.rows.size(); ++row) {
        for (int a = 0; a < m_axes.size(); ++a) {
            if (const auto pt = pointOf(row, a); pt && QLineF(*pt, at).length() < distance) {
                distance = QLineF(*pt, at).length();
                nearest = row;
            }
        }
    }
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

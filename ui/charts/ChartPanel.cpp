#include "ChartPanel.h"

#include "ZoomableChartView.h"

#include "common/Theme.h"

#include <QChart>
#include <QEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui {

namespace {

const QColor trainColor(0x2b, 0x7c, 0xd3);
const QColor valColor(0xe0, 0x70, 0x1e);

// `color` at a quarter of its strength over `background`.
QColor faintOf(const QColor &color, QColor background)
{
    if (background.alpha() == 0)
        background = Qt::white;
    const auto mix = [](int c, int b) { return (c + 3 * b) / 4; };
    return QColor(mix(color.red(), background.red()), mix(color.green(), background.green()),
                  mix(color.blue(), background.blue()));
}

QList<QPointF> positiveOnly(const QList<QPointF> &points)
{
    QList<QPointF> result;
    result.reserve(points.size());
    for (const QPointF &p : points) {
        if (p.y() > 0)
            result.append(p);
    }
    return result;
}

} // namespace

ChartPanel::ChartPanel(const QString &title, const QString &yTitle, QWidget *parent)
    : QWidget(parent),
      m_chart(new QChart),
      m_raw(new QLineSeries(this)),
      m_smooth(new QLineSeries(this)),
      m_val(new QScatterSeries(this)),
      m_x(new QValueAxis(this)),
      m_yLinear(new QValueAxis(this)),
      m_yLog(new QLogValueAxis(this)),
      m_niceAxis(new QValueAxis(this))
{
    m_chart->setTitle(title);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_raw->setName(tr("train"));
    m_smooth->setName(tr("train (smoothed)"));
    m_val->setName(tr("validation"));
    m_val->setMarkerSize(9);
    m_val->setColor(valColor);
    m_val->setBorderColor(valColor.darker(130));
    m_chart->addSeries(m_raw);
    m_chart->addSeries(m_smooth);
    m_chart->addSeries(m_val);

    m_x->setTitleText(tr("step"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_yTitle = yTitle;
    m_yLinear->setTitleText(yTitle);
    m_yLinear->setLabelFormat(QStringLiteral("%.3g"));
    m_yLog->setTitleText(yTitle + tr(" (log)"));
    m_yLog->setLabelFormat(QStringLiteral("%.3g"));
    m_yLog->setBase(10);
    m_yLog->setMinorTickCount(-1);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_yLinear, Qt::AlignLeft);
    for (auto *series : {static_cast<QAbstractSeries *>(m_raw), static_cast<QAbstractSeries *>(m_smooth),
                         static_cast<QAbstractSeries *>(m_val)}) {
        series->attachAxis(m_x);
        series->attachAxis(m_yLinear);
    }
    // Any range change we did not make is the user zooming or panning.
    const auto userRange = [this] {
        if (m_applying)
            return;
        setAutoFit(false);
        Q_EMIT viewChanged();
    };
    connect(m_x, &QValueAxis::rangeChanged, this, userRange);
    connect(m_yLinear, &QValueAxis::rangeChanged, this, userRange);
    connect(m_yLog, &QLogValueAxis::rangeChanged, this, userRange);

    m_view = new ZoomableChartView(m_chart, this);
    connect(m_view, &ZoomableChartView::resetRequested, this, &ChartPanel::resetZoom);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    applyChartTheme();
    fit();
}

void ChartPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartTheme();
}

void ChartPanel::applyChartTheme()
{
    const bool dark = Theme::isDark(palette());
    if (m_darkTheme == std::optional<bool>(dark))
        return;
    m_darkTheme = dark;
    // A theme sets every series' pen and the chart's fonts and colours anew.
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // One solid colour, the window's own base, instead of the theme's gradient.
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    m_val->setColor(valColor);
    m_val->setBorderColor(valColor.darker(130));
    m_styledForSmoothing.reset();
    setData(m_lastRaw, m_lastSmooth, m_lastVal, m_smoothing, m_lastLines);
}

void ChartPanel::setLinesOnly()
{
    // Out of the chart (and so of its legend); they stay empty.
    for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(m_raw), static_cast<QAbstractSeries *>(m_smooth),
                                    static_cast<QAbstractSeries *>(m_val)}) {
        if (m_chart->series().contains(series)) {
            m_chart->removeSeries(series);
            series->setParent(this);
        }
    }
}

void ChartPanel::setXTitle(const QString &title)
{
    m_x->setTitleText(title);
    m_x->setLabelFormat(title == tr("step") ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
}

void ChartPanel::setData(const QList<QPointF> &raw, const QList<QPointF> &smooth, const QList<QPointF> &val,
                         bool smoothing, const QList<ChartLine> &lines)
{
    m_lastRaw = raw;
    m_lastSmooth = smooth;
    m_lastVal = val;
    m_lastLines = lines;
    m_smoothing = smoothing;
    // Pens and legend only when smoothing is turned on or off: setting them again on every
    // redraw makes the chart lay itself out again (legend, axes, title), the costliest part.
    if (m_styledForSmoothing != std::optional<bool>(smoothing)) {
        m_styledForSmoothing = smoothing;
        // Faint, but opaque: a translucent pen makes the raster engine stroke the whole
        // zigzag of a noisy series as one polygon (ten times slower than drawing its lines).
        const QBrush background = m_chart->backgroundBrush();  // a gradient in some themes
        QPen rawPen(smoothing ? faintOf(trainColor, background.style() == Qt::SolidPattern ? background.color()
                                                                                            : QColor(Qt::white))
                              : trainColor);
        rawPen.setWidthF(smoothing ? 1.0 : 1.8);
        m_raw->setPen(rawPen);
        QPen smoothPen(trainColor);
        smoothPen.setWidthF(2.0);
        m_smooth->setPen(smoothPen);
        m_smooth->setVisible(smoothing);
        for (QLegendMarker *marker : m_chart->legend()->markers(m_smooth))
            marker->setVisible(smoothing);
    }

    if (m_autoFit) {
        // The axes first, on empty series: a series' geometry (its path and the shape
        // stroked around it) is then computed once, not again for every axis change.
        m_raw->clear();
        m_smooth->clear();
        m_val->clear();
        for (QLineSeries *line : std::as_const(m_lines))
            line->clear();
        fit();
    }
    m_raw->replace(m_log ? positiveOnly(raw) : raw);
    m_smooth->replace(smoothing ? (m_log ? positiveOnly(smooth) : smooth) : QList<QPointF>());
    m_val->replace(m_log ? positiveOnly(val) : val);
    setLines(lines);
}

void ChartPanel::setSeriesName(const QString &name)
{
    m_raw->setName(name.isEmpty() ? tr("train") : name);
    m_smooth->setName(name.isEmpty() ? tr("train (smoothed)") : tr("%1 (smoothed)").arg(name));
    for (QLegendMarker *marker : m_chart->legend()->markers(m_val))
        marker->setVisible(name.isEmpty());
    const QString y = name.isEmpty() ? m_yTitle : name;
    m_yLinear->setTitleText(y);
    m_yLog->setTitleText(y + tr(" (log)"));
}

void ChartPanel::setLines(const QList<ChartLine> &lines)
{
    while (m_lines.size() > lines.size()) {
        QLineSeries *line = m_lines.takeLast();
        m_lineInLegend.removeLast();
        m_chart->removeSeries(line);
        delete line;
    }
    while (m_lines.size() < lines.size()) {
        auto *line = new QLineSeries(this);
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(yAxis());
        m_lines.append(line);
        m_lineInLegend.append(true);
    }
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const ChartLine &want = lines.at(i);
        QLineSeries *line = m_lines.at(i);
        // Names and pens only when they change: each change lays the chart out again.
        if (line->name() != want.name)
            line->setName(want.name);
        if (line->pen().color() != want.color || line->pen().style() != want.style || line->pen().widthF() != want.width) {
            QPen pen(want.color);
            pen.setStyle(want.style);
            pen.setWidthF(want.width);
            line->setPen(pen);
        }
        if (line->pointsVisible() != want.pointsVisible)
            line->setPointsVisible(want.pointsVisible);
        // Kept here: a marker says it is hidden until the chart is first shown.
        if (m_lineInLegend.at(i) != want.inLegend) {
            m_lineInLegend[i] = want.inLegend;
            for (QLegendMarker *marker : m_chart->legend()->markers(line))
                marker->setVisible(want.inLegend);
        }
        line->replace(m_log ? positiveOnly(want.points) : want.points);
    }
}

QStringList ChartPanel::lineNames() const
{
    QStringList names;
    for (const QLineSeries *line : m_lines)
        names << line->name();
    return names;
}

int ChartPanel::lineCount(const QString &name) const
{
    for (const QLineSeries *line : m_lines) {
        if (line->name() == name)
            return line->count();
    }
    return -1;
}

QList<QAbstractSeries *> ChartPanel::allSeries() const
{
    QList<QAbstractSeries *> all{m_raw, m_smooth, m_val};
    for (QLineSeries *line : m_lines)
        all << line;
    return all;
}

void ChartPanel::setLogScale(bool on)
{
    if (on == m_log)
        return;
    m_applying = true;
    QAbstractAxis *from = yAxis();
    m_log = on;
    QAbstractAxis *to = yAxis();
    for (QAbstractSeries *series : allSeries())
        series->detachAxis(from);
    m_chart->removeAxis(from);
    from->setParent(this);  // removeAxis hands ownership back
    m_chart->addAxis(to, Qt::AlignLeft);
    for (QAbstractSeries *series : allSeries())
        series->attachAxis(to);
    m_applying = false;
    // A log axis needs new y bounds: the x range the user chose is kept.
    const bool wasAuto = m_autoFit;
    m_autoFit = true;
    setData(m_lastRaw, m_lastSmooth, m_lastVal, m_smoothing, m_lastLines);
    if (!wasAuto)
        setAutoFit(true);
}

void ChartPanel::setYLimits(double low, double high)
{
    m_yLimits = std::make_pair(low, high);
    if (m_autoFit)
        fit();
}

void ChartPanel::setYIncludes(double low, double high)
{
    m_yIncludes = std::make_pair(low, high);
    if (m_autoFit)
        fit();
}

void ChartPanel::resetZoom()
{
    setAutoFit(true);
    fit();
}

void ChartPanel::setAutoFit(bool on)
{
    if (m_autoFit == on)
        return;
    m_autoFit = on;
    Q_EMIT autoFitChanged(on);
}

QAbstractAxis *ChartPanel::yAxis() const
{
    return m_log ? static_cast<QAbstractAxis *>(m_yLog) : static_cast<QAbstractAxis *>(m_yLinear);
}

void ChartPanel::setNiceRange(QValueAxis *axis, double min, double max)
{
    // Worked out on an axis of no chart: while data streams in, the rounded range mostly
    // stays the same, and then the chart's axis is not touched (no labels laid out again).
    m_niceAxis->setTickCount(niceTickCount);
    m_niceAxis->setRange(min, max);
    m_niceAxis->applyNiceNumbers();
    if (axis->min() == m_niceAxis->min() && axis->max() == m_niceAxis->max()
        && axis->tickCount() == m_niceAxis->tickCount())
        return;
    axis->setTickCount(m_niceAxis->tickCount());
    axis->setRange(m_niceAxis->min(), m_niceAxis->max());
}

void ChartPanel::fit()
{
    double minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;
    auto take = [&](const QList<QPointF> &points) {
        for (const QPointF &p : points) {
            if (m_log && p.y() <= 0)
                continue;
            minX = std::min(minX, p.x());
            maxX = std::max(maxX, p.x());
            minY = std::min(minY, p.y());
            maxY = std::max(maxY, p.y());
        }
    };
    take(m_lastRaw);
    take(m_lastVal);
    if (m_smoothing)
        take(m_lastSmooth);
    for (const ChartLine &line : std::as_const(m_lastLines))
        take(line.points);
    if (minX > maxX) {
        minX = 0;
        maxX = 1;
        minY = m_log ? 0.1 : 0;
        maxY = 1;
    }
    if (maxX - minX < 1e-9)
        maxX = minX + 1;
    // Whole numbers on the step axis: a range shorter than its ticks would label 0 0 0 1 1 1.
    if (m_x->labelFormat() == QLatin1String("%.0f") && maxX - minX < niceTickCount - 1)
        maxX = minX + niceTickCount - 1;
    m_applying = true;
    setNiceRange(m_x, minX, maxX);  // round ticks: 0, 250, 500 rather than 20, 304, 589
    if (m_log) {
        m_yLog->setRange(minY / 1.2, maxY * 1.2);
    } else {
        double pad = (maxY - minY) * 0.06;
        if (pad < 1e-9)
            pad = std::max(std::abs(maxY) * 0.05, 0.05);
        double low = minY - pad, high = maxY + pad;
        if (m_yIncludes) {
            low = std::min(low, m_yIncludes->first);
            high = std::max(high, m_yIncludes->second);
        }
        if (m_yLimits) {
            low = std::max(low, m_yLimits->first);
            high = std::min(high, m_yLimits->second);
        }
        setNiceRange(m_yLinear, low, high);
    }
    m_applying = false;
}

QPointF ChartPanel::xRange() const
{
    return QPointF(m_x->min(), m_x->max());
}

QPointF ChartPanel::yRange() const
{
    if (m_log)
        return QPointF(m_yLog->min(), m_yLog->max());
    return QPointF(m_yLinear->min(), m_yLinear->max());
}

int ChartPanel::plotWidth() const
{
    return std::max(1, int(m_chart->plotArea().width()));
}

int ChartPanel::rawCount() const
{
    return m_raw->count();
}

int ChartPanel::smoothCount() const
{
    return m_smooth->count();
}

int ChartPanel::valCount() const
{
    return m_val->count();
}

} // namespace TrainDesk::Ui

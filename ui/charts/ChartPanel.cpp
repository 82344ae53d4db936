#include "ChartPanel.h"

#include "ChartLines.h"
#include "ChartTicks.h"
#include "PixelColumns.h"
#include "ZoomableChartView.h"

#include "common/Theme.h"

#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsLineItem>
#include <QLabel>
#include <QEvent>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QXYSeries>
#include <QValueAxis>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui {

namespace {

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
    m_x->setLabelFormat(m_xFormat);
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
    const auto userRange = [this](QValueAxis *axis) {
        if (m_applying)
            return;
        if (axis)
            roundTicks(axis);
        setAutoFit(false);
        Q_EMIT viewChanged();
    };
    connect(m_x, &QValueAxis::rangeChanged, this, [userRange, this] { userRange(m_x); });
    connect(m_yLinear, &QValueAxis::rangeChanged, this, [userRange, this] { userRange(m_yLinear); });
    connect(m_yLog, &QLogValueAxis::rangeChanged, this, [userRange] { userRange(nullptr); });

    m_view = new ZoomableChartView(m_chart, this);
    connect(m_view, &ZoomableChartView::resetRequested, this, &ChartPanel::resetZoom);
    connect(m_view, &ZoomableChartView::hovered, this, [this](const QPointF &value) { showReadout(value.x()); });
    connect(m_view, &ZoomableChartView::hoverEnded, this, &ChartPanel::hideReadout);
    connect(m_view, &ZoomableChartView::stepRequested, this, &ChartPanel::stepReadout);
    // A gesture's range change: Qt Charts maps no stale points, the new ones come at once.
    connect(m_view, &ZoomableChartView::rangeAboutToChange, this, &ChartPanel::emptySeries);
    connect(m_view, &ZoomableChartView::rangeChangedByUser, this, &ChartPanel::drawShown);
    // Another x range or plot width: the points of the new range, reduced to its pixel
    // columns, once the events of the zoom or pan are handled (a zoom moves x and y apart,
    // a drag moves many times a frame); until then Qt Charts moves the points it has.
    m_drawTimer.setSingleShot(true);
    m_drawTimer.setInterval(0);
    connect(&m_drawTimer, &QTimer::timeout, this, [this] {
        if (!drawnIsCurrent())
            drawShown();
    });
    connect(m_x, &QValueAxis::rangeChanged, this, [this] {
        updateTimeLabels();
        placeReadout();
        m_drawTimer.start();
    });
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        // Another height: as many y ticks as it has room for (fit() counts them).
        if (m_autoFit && !m_applying && m_yTicksAsked != yTickRoom())
            fit();
        updateTimeLabels();
        placeReadout();
        m_drawTimer.start();
    });
    m_readout = new QLabel(m_view);
    m_readout->setObjectName(QStringLiteral("chartReadout"));
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setAutoFillBackground(true);
    m_readout->setBackgroundRole(QPalette::ToolTipBase);
    m_readout->setForegroundRole(QPalette::ToolTipText);
    m_readout->setFrameShape(QFrame::Box);
    m_readout->setMargin(4);
    m_readout->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_readout->hide();
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
    if (m_xTime)
        m_xTime->setTitleText(title);
    m_xFormat = title == tr("step") ? QStringLiteral("%.0f") : QStringLiteral("%.3g");
    m_x->setLabelFormat(m_xFormat);
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
        QPen rawPen(smoothing ? faintOf(m_trainColor, background.style() == Qt::SolidPattern ? background.color()
                                                                                            : QColor(Qt::white))
                              : m_trainColor);
        rawPen.setWidthF(smoothing ? 1.0 : 1.8);
        m_raw->setPen(rawPen);
        QPen smoothPen(m_trainColor);
        smoothPen.setWidthF(2.0);
        m_smooth->setPen(smoothPen);
        updateLegendMarkers();  // and the smoothed line shown or not (applyHidden)
    }

    if (m_autoFit) {
        // The axes first, on empty series: a series' geometry (its path and the shape
        // stroked around it) is then computed once, not again for every axis change. The
        // same extent of data: the same axes, and the lines whose data did not change are
        // not drawn again (a redraw for one live run among a hundred).
        const Extent extent = dataExtent();
        if (!(extent == m_fitExtent))
            emptySeries();
        fit(extent);
    }
    setLines(lines);
    drawShown();
    placeReadout();
}

void ChartPanel::emptySeries()
{
    for (QXYSeries *series : std::initializer_list<QXYSeries *>{m_raw, m_smooth, m_val})
        series->clear();
    for (QLineSeries *line : std::as_const(m_lines))
        line->clear();
    m_drawnFrom.clear();
}

int ChartPanel::drawnColumns() const
{
    // Before the chart is laid out its plot is a few pixels wide: at least 100 columns then
    // (the layout that follows reduces the points again).
    return std::max(plotWidth(), 100);
}

ChartPanel::DrawnRange ChartPanel::shownRange() const
{
    return {m_x->min(), m_x->max(), drawnColumns()};
}

bool ChartPanel::drawnIsCurrent() const
{
    return m_drawn == shownRange() && !m_drawTimer.isActive();
}

void ChartPanel::drawShown()
{
    m_drawTimer.stop();
    m_drawn = shownRange();
    // Each series given points only when its data, the range, the width or the scale
    // changed since it was last given them (the data: the list's buffer and size; the
    // panel holds the list drawn, so a new list has another buffer).
    const auto draw = [this](QXYSeries *series, const QList<QPointF> &points, bool dotsWanted) {
        const DrawnFrom from{points.constData(), points.size(), m_drawn, m_log, m_lines.size() <= manyLines};
        const auto it = m_drawnFrom.constFind(series);
        if (it != m_drawnFrom.cend() && *it == from)
            return;
        m_drawnFrom.insert(series, from);
        // Many lines: two points a column (lowest and highest), half the stroking.
        QList<QPointF> drawn = PixelColumns::of(points, m_drawn.min, m_drawn.max, m_drawn.columns, m_lines.size() <= manyLines);
        if (m_log)
            drawn = positiveOnly(drawn);
        // Dots only where they stand apart (once an epoch): a dot a pixel or two apart is
        // a thick line that costs an ellipse each.
        if (auto *line = qobject_cast<QLineSeries *>(series)) {
            const bool dots = dotsWanted && drawn.size() * 8 <= m_drawn.columns;
            if (line->pointsVisible() != dots)
                line->setPointsVisible(dots);
        }
        series->replace(drawn);
    };
    draw(m_raw, m_lastRaw, false);
    draw(m_smooth, m_smoothing ? m_lastSmooth : QList<QPointF>(), false);
    draw(m_val, m_lastVal, false);
    for (qsizetype i = 0; i < m_lines.size() && i < m_lastLines.size(); ++i)
        draw(m_lines.at(i), m_lastLines.at(i).points, m_lastLines.at(i).pointsVisible);
}

QList<QPointF> ChartPanel::drawnRaw() const
{
    return m_raw->points();
}

QList<QPointF> ChartPanel::drawnLine(const QString &name) const
{
    for (const QLineSeries *line : m_lines) {
        if (line->name() == name)
            return line->points();
    }
    return {};
}

void ChartPanel::setSeriesName(const QString &name)
{
    m_raw->setName(name.isEmpty() ? tr("train") : name);
    m_smooth->setName(name.isEmpty() ? tr("train (smoothed)") : tr("%1 (smoothed)").arg(name));
    m_valInLegend = name.isEmpty();
    applyHidden();
    const QString y = name.isEmpty() ? m_yTitle : name;
    m_yLinear->setTitleText(y);
    m_yLog->setTitleText(y + tr(" (log)"));
}

void ChartPanel::setLines(const QList<ChartLine> &lines)
{
    const qsizetype before = m_lines.size();
    bool legendChanged = false;
    while (m_lines.size() > lines.size()) {
        QLineSeries *line = m_lines.takeLast();
        m_drawnFrom.remove(line);  // another line may come at its address
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
    // Many lines: one-pixel cosmetic pens, not antialiased (the raster engine draws them
    // without stroking joins); a few: the pens asked for, smooth.
    const bool many = lines.size() > manyLines;
    if (m_view->renderHints().testFlag(QPainter::Antialiasing) == many)
        m_view->setRenderHint(QPainter::Antialiasing, !many);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const ChartLine &want = lines.at(i);
        QLineSeries *line = m_lines.at(i);
        // Names and pens only when they change: each change lays the chart out again.
        if (line->name() != want.name)
            line->setName(want.name);
        const qreal width = many ? 1.0 : want.width;
        if (line->pen().color() != want.color || line->pen().style() != want.style || line->pen().widthF() != width
            || line->pen().isCosmetic() != many) {
            QPen pen(want.color);
            pen.setStyle(want.style);
            pen.setWidthF(width);
            pen.setCosmetic(many);
            line->setPen(pen);
        }
        // Kept here: a marker says it is hidden until the chart is first shown.
        if (m_lineInLegend.at(i) != want.inLegend) {
            m_lineInLegend[i] = want.inLegend;
            legendChanged = true;
        }
    }
    if (m_lines.size() > before)
        raiseMainSeries();
    if ((before == 0) != m_lines.isEmpty())
        updateSeriesNames();
    if (legendChanged || !m_hidden.isEmpty() || m_lines.size() != before)
        applyHidden();  // a line of a hidden name stays hidden; new markers answer clicks
}

void ChartPanel::raiseMainSeries()
{
    // Series are drawn in the order they were added: the run's own series go last, over
    // the ranks and the runs compared with it.
    m_applying = true;
    for (QXYSeries *series : {static_cast<QXYSeries *>(m_raw), static_cast<QXYSeries *>(m_smooth),
                              static_cast<QXYSeries *>(m_val)}) {
        if (!m_chart->series().contains(series))
            continue;
        m_chart->removeSeries(series);
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(yAxis());
    }
    m_applying = false;
    updateLegendMarkers();  // new markers
}

void ChartPanel::updateLegendMarkers()
{
    applyHidden();  // which entries the legend has, with which series shown
}

QString ChartPanel::hideKey(const QAbstractSeries *series) const
{
    // The run's raw and smoothed lines are one entry; the others go by their names.
    if (series == m_raw || series == m_smooth)
        return QStringLiteral("\x01train");
    if (series == m_val)
        return QStringLiteral("\x01val");
    const qsizetype i = m_lines.indexOf(static_cast<QLineSeries *>(const_cast<QAbstractSeries *>(series)));
    return i < 0 ? series->name() : lineKey(i);
}

QString ChartPanel::lineKey(qsizetype i) const
{
    // A line without a legend entry (a compared run's validation) goes with the entry before it.
    while (i > 0 && !m_lineInLegend.value(i, true))
        --i;
    return i < m_lines.size() ? m_lines.at(i)->name() : QString();
}

bool ChartPanel::hiddenSeries(const QAbstractSeries *series) const
{
    return m_hidden.contains(hideKey(series));
}

void ChartPanel::applyHidden()
{
    // Beside other runs, the legend names this run once: its smoothed line (its faint raw
    // values need no entry); alone, it says train, smoothed and validation.
    const bool named = !m_runName.isEmpty() && !m_lines.isEmpty();
    const auto inLegend = [&](const QAbstractSeries *series) {
        if (series == m_raw)
            return !(named && m_smoothing);
        if (series == m_smooth)
            return m_smoothing;
        if (series == m_val)
            return m_valInLegend;
        const qsizetype i = m_lines.indexOf(static_cast<QLineSeries *>(const_cast<QAbstractSeries *>(series)));
        return i < 0 || m_lineInLegend.value(i, true);
    };
    for (QAbstractSeries *series : allSeries()) {
        const bool hidden = hiddenSeries(series);
        const bool visible = !hidden && (series != m_smooth || m_smoothing);
        const bool shownAgain = series->isVisible() != visible;
        if (shownAgain)
            series->setVisible(visible);  // the legend hides its entry along: shown again below
        const bool entry = inLegend(series);
        for (QLegendMarker *marker : m_chart->legend()->markers(series)) {
            // Kept in a property (a marker says it is hidden until the chart is first shown),
            // and set only on a change: each lays the legend out again.
            const QVariant was = marker->property("entry");
            if (shownAgain || !was.isValid() || was.toBool() != entry) {
                marker->setVisible(entry);
                marker->setProperty("entry", entry);
            }
            connect(marker, &QLegendMarker::clicked, this, &ChartPanel::legendClicked, Qt::UniqueConnection);
            // A hidden series' entry stays, greyed, to be clicked again. Only on a change:
            // each lays the legend out again.
            if (marker->property("greyed").toBool() == hidden)
                continue;
            marker->setProperty("greyed", hidden);
            QColor label = m_chart->legend()->labelColor();
            label.setAlphaF(hidden ? 0.4 : 1.0);
            marker->setLabelBrush(label);
        }
    }
}

void ChartPanel::legendClicked()
{
    auto *marker = qobject_cast<QLegendMarker *>(sender());
    if (!marker || !marker->series())
        return;
    const QString key = hideKey(marker->series());
    if (!m_hidden.remove(key))
        m_hidden.insert(key);
    applyHidden();
    if (m_autoFit)
        fit();
    placeReadout();
}

void ChartPanel::setSeriesHidden(const QString &legendName, bool hidden)
{
    for (QAbstractSeries *series : allSeries()) {
        if (series->name() != legendName)
            continue;
        const QString key = hideKey(series);
        if (hidden)
            m_hidden.insert(key);
        else
            m_hidden.remove(key);
        applyHidden();
        if (m_autoFit)
            fit();
        return;
    }
}

bool ChartPanel::isSeriesHidden(const QString &legendName) const
{
    for (QAbstractSeries *series : allSeries()) {
        if (series->name() == legendName)
            return hiddenSeries(series);
    }
    return false;
}

QLegendMarker *ChartPanel::legendMarker(const QString &legendName) const
{
    for (QLegendMarker *marker : m_chart->legend()->markers()) {
        if (marker->isVisible() && marker->label() == legendName)
            return marker;
    }
    return nullptr;
}

void ChartPanel::setTrainColor(const QColor &color)
{
    if (color == m_trainColor)
        return;
    m_trainColor = color;
    m_styledForSmoothing.reset();  // the pens again at the next setData()
}

void ChartPanel::setRunName(const QString &name)
{
    if (name == m_runName)
        return;
    m_runName = name;
    updateSeriesNames();
}

void ChartPanel::updateSeriesNames()
{
    // Named after the run only beside other lines (alone, "train" says enough): the run's
    // main line is its name; validation dots are this run's alone (other runs' are dashed).
    const bool named = !m_runName.isEmpty() && !m_lines.isEmpty();
    const QString smooth = named ? m_runName : tr("train (smoothed)");
    const QString raw = !named ? tr("train") : m_smoothing ? tr("%1 (raw)").arg(m_runName) : m_runName;
    const QString val = tr("validation");
    if (m_raw->name() != raw)
        m_raw->setName(raw);
    if (m_smooth->name() != smooth)
        m_smooth->setName(smooth);
    if (m_val->name() != val)
        m_val->setName(val);
    updateLegendMarkers();
}

QStringList ChartPanel::drawOrder() const
{
    QStringList names;
    for (const QAbstractSeries *series : m_chart->series())
        names << series->name();
    return names;
}

void ChartPanel::setXTimeLabels(bool on)
{
    if (on == m_timeLabels)
        return;
    m_timeLabels = on;
    if (on && !m_xTime) {
        // Labels the value axis cannot write (its format is printf's): a category axis
        // over the same range, at round times, with m_x's own labels hidden.
        m_xTime = new QCategoryAxis(this);
        m_xTime->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        m_xTime->setLineVisible(false);
        m_xTime->setGridLineVisible(true);
    }
    if (on) {
        m_chart->addAxis(m_xTime, Qt::AlignBottom);
        m_xTime->setTitleText(m_x->titleText());
        m_xTime->setLabelsBrush(m_x->labelsBrush());
        m_xTime->setLabelsFont(m_x->labelsFont());
        m_xTime->setTitleBrush(m_x->titleBrush());
        m_xTime->setGridLinePen(m_x->gridLinePen());
    } else if (m_xTime && m_chart->axes().contains(m_xTime)) {
        m_chart->removeAxis(m_xTime);
        m_xTime->setParent(this);
    }
    m_x->setLabelsVisible(!on);
    m_x->setTitleVisible(!on);
    m_x->setGridLineVisible(!on);
    updateTimeLabels();
}

void ChartPanel::updateTimeLabels()
{
    if (!m_timeLabels || !m_xTime)
        return;
    for (const QString &label : m_xTime->categoriesLabels())
        m_xTime->remove(label);
    const double min = m_x->min(), max = m_x->max();
    m_xTime->setRange(min, max);
    m_xTime->setStartValue(min);
    // About one label per 80 pixels: h:mm:ss is wide.
    const int room = std::max(2, int(m_chart->plotArea().width() / 80));
    const QList<double> ticks = ChartTicks::timeTicks(min, max, room);
    const bool tenths = ticks.size() > 1 && ticks.at(1) - ticks.at(0) < 1;
    for (double t : ticks)
        m_xTime->append(ChartTicks::elapsedText(t, tenths), t);
}

QStringList ChartPanel::xTimeLabelTexts() const
{
    return m_timeLabels && m_xTime ? m_xTime->categoriesLabels() : QStringList();
}

QString ChartPanel::xText(double x) const
{
    if (m_timeLabels)
        return ChartTicks::elapsedText(x);
    return QStringLiteral("%1 %2").arg(m_x->titleText(), QString::number(x, 'g', m_x->labelFormat() == QLatin1String("%.0f") ? 12 : 5));
}

QList<std::pair<const QXYSeries *, const QList<QPointF> *>> ChartPanel::readoutSeries() const
{
    QList<std::pair<const QXYSeries *, const QList<QPointF> *>> all;
    const auto take = [&](const QXYSeries *series, const QList<QPointF> *points) {
        if (m_chart->series().contains(const_cast<QXYSeries *>(series)) && series->isVisible() && !points->isEmpty())
            all.append({series, points});
    };
    take(m_raw, &m_lastRaw);
    if (m_smoothing)
        take(m_smooth, &m_lastSmooth);
    take(m_val, &m_lastVal);
    for (qsizetype i = 0; i < m_lines.size() && i < m_lastLines.size(); ++i)
        take(m_lines.at(i), &m_lastLines.at(i).points);
    return all;
}

namespace {

// The point of `points` (in x order) nearest x.
const QPointF *nearest(const QList<QPointF> &points, double x)
{
    if (points.isEmpty())
        return nullptr;
    const auto after = std::lower_bound(points.cbegin(), points.cend(), x,
                                        [](const QPointF &p, double v) { return p.x() < v; });
    if (after == points.cbegin())
        return &*after;
    if (after == points.cend())
        return &points.last();
    const auto before = after - 1;
    return x - before->x() <= after->x() - x ? &*before : &*after;
}

} // namespace

double ChartPanel::snappedX(double x) const
{
    double best = NAN;
    for (const auto &[series, points] : readoutSeries()) {
        if (const QPointF *p = nearest(*points, x); p && (std::isnan(best) || std::abs(p->x() - x) < std::abs(best - x)))
            best = p->x();
    }
    return best;
}

QList<ChartPanel::ReadoutRow> ChartPanel::readoutAt(double x) const
{
    QList<ReadoutRow> rows;
    for (const auto &[series, points] : readoutSeries()) {
        const QPointF *p = nearest(*points, x);
        if (!p)
            continue;
        const QColor color = series == m_val ? static_cast<const QScatterSeries *>(series)->color() : series->pen().color();
        rows.append({series->name(), color, p->x(), p->y()});
    }
    return rows;
}

void ChartPanel::showReadout(double x)
{
    const double at = snappedX(x);
    if (std::isnan(at)) {
        hideReadout();
        return;
    }
    m_readoutX = at;
    const QList<ReadoutRow> rows = readoutAt(at);
    QString html = QStringLiteral("<b>%1</b>").arg(xText(at).toHtmlEscaped());
    for (const ReadoutRow &row : rows) {
        html += QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: %3")
                    .arg(row.color.name(), row.name.toHtmlEscaped(), QString::number(row.y, 'g', 5));
        if (row.x != at)
            html += QStringLiteral(" <i>(%1)</i>").arg(xText(row.x).toHtmlEscaped());
    }
    m_readout->setText(html);
    m_readout->adjustSize();
    placeReadout();
}

void ChartPanel::stepReadout(int direction)
{
    // From the readout's step, else from the left or right end of what is shown.
    const double from = !std::isnan(m_readoutX) ? m_readoutX : direction > 0 ? m_x->min() - 1e-9 : m_x->max() + 1e-9;
    double next = NAN;
    for (const auto &[series, points] : readoutSeries()) {
        if (direction > 0) {
            const auto it = std::upper_bound(points->cbegin(), points->cend(), from,
                                             [](double v, const QPointF &p) { return v < p.x(); });
            if (it != points->cend() && (std::isnan(next) || it->x() < next))
                next = it->x();
        } else {
            const auto it = std::lower_bound(points->cbegin(), points->cend(), from,
                                             [](const QPointF &p, double v) { return p.x() < v; });
            if (it != points->cbegin() && (std::isnan(next) || (it - 1)->x() > next))
                next = (it - 1)->x();
        }
    }
    if (std::isnan(next))
        return;  // at the end already
    // Stepped out of view: the view follows it.
    if (next < m_x->min() || next > m_x->max()) {
        const double span = m_x->max() - m_x->min();
        setAutoFit(false);
        m_x->setRange(next - span / 2, next + span / 2);
        Q_EMIT viewChanged();
    }
    showReadout(next);
}

void ChartPanel::hideReadout()
{
    m_readoutX = NAN;
    m_readout->hide();
    if (m_crosshair)
        m_crosshair->hide();
}

QString ChartPanel::readoutText() const
{
    if (std::isnan(m_readoutX) || !m_readout)
        return {};
    QTextDocument doc;
    doc.setHtml(m_readout->text());
    return doc.toPlainText();
}

void ChartPanel::placeReadout()
{
    if (std::isnan(m_readoutX))
        return;
    const QRectF plot = m_chart->plotArea();
    const double px = m_chart->mapToPosition(QPointF(m_readoutX, yRange().x())).x();
    if (px < plot.left() - 0.5 || px > plot.right() + 0.5) {
        m_readout->hide();
        if (m_crosshair)
            m_crosshair->hide();
        return;
    }
    if (!m_crosshair) {
        m_crosshair = new QGraphicsLineItem(m_chart);
        m_crosshair->setZValue(1000);
    }
    QColor color = palette().color(QPalette::WindowText);
    color.setAlpha(140);
    m_crosshair->setPen(QPen(color, 1, Qt::DashLine));
    m_crosshair->setLine(px, plot.top(), px, plot.bottom());
    m_crosshair->show();
    // Beside the line, on the side with room, at the top of the plot.
    const QPoint at = m_view->mapFromScene(m_chart->mapToScene(QPointF(px, plot.top())));
    int left = at.x() + 8;
    if (left + m_readout->width() > m_view->width())
        left = at.x() - 8 - m_readout->width();
    m_readout->move(std::max(0, left), std::max(0, at.y() + 4));
    m_readout->show();
    m_readout->raise();
    m_view->keepHintClearOf(m_readout->geometry());
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
    const QPointF yShown = yRange();
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
    if (m_autoFit) {
        setData(m_lastRaw, m_lastSmooth, m_lastVal, m_smoothing, m_lastLines);
        return;
    }
    // Zoomed: the steps shown stay, and the values shown stay in view. A log axis labels
    // powers of ten, so it shows the whole decades around them; one at or below zero
    // starts at the smallest positive value shown.
    m_applying = true;
    if (m_log) {
        double low = yShown.x();
        if (!(low > 0))
            low = smallestPositiveShown();
        const auto [decadeLow, decadeHigh] = ChartTicks::decadeRange(low, std::max(low, yShown.y()));
        m_yLog->setRange(decadeLow, decadeHigh);
    } else {
        m_yLinear->setRange(yShown.x(), yShown.y());
        roundTicks(m_yLinear);
    }
    m_applying = false;
    setData(m_lastRaw, m_lastSmooth, m_lastVal, m_smoothing, m_lastLines);
}

double ChartPanel::smallestPositiveShown() const
{
    double low = INFINITY;
    const auto take = [&](const QList<QPointF> &points) {
        for (const QPointF &p : points) {
            if (p.y() > 0 && p.x() >= m_x->min() && p.x() <= m_x->max())
                low = std::min(low, p.y());
        }
    };
    take(m_lastRaw);
    take(m_lastVal);
    if (m_smoothing)
        take(m_lastSmooth);
    for (const ChartLine &line : m_lastLines)
        take(line.points);
    return std::isfinite(low) ? low : 0.1;
}

void ChartPanel::roundTicks(QValueAxis *axis)
{
    // Ticks at round values of the range the user zoomed or panned to (1-2-5 steps), with
    // as many decimals as the step has: 140 160 180, 0.25 0.30 0.35.
    const bool wholeSteps = axis == m_x && m_xFormat == QLatin1String("%.0f");
    const int room = axis == m_x ? niceTickCount + 1 : yTickRoom();
    double step = ChartTicks::roundStep(axis->min(), axis->max(), room);
    if (wholeSteps)
        step = std::max(step, 1.0);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(ChartTicks::firstTick(axis->min(), step));
    axis->setTickInterval(step);
    const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
    const QString format = wholeSteps ? m_xFormat : QStringLiteral("%.%1f").arg(decimals);
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);  // (setting the same one lays the axis out again)
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
    const Extent extent = dataExtent();
    if (!(extent == m_fitExtent) || xRange() != m_fittedX)
        emptySeries();  // the whole range at once, on series without stale points
    fit(extent);
    drawShown();
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

void ChartPanel::setNiceRange(QValueAxis *axis, double min, double max, bool headroom)
{
    // Worked out on an axis of no chart: while data streams in, the rounded range mostly
    // stays the same, and then the chart's axis is not touched (no labels laid out again).
    // A short chart gets fewer ticks: labels closer than a line of text are cut to "...".
    if (axis != m_x)
        m_yTicksAsked = yTickRoom();
    m_niceAxis->setTickCount(axis == m_x ? niceTickCount : m_yTicksAsked);
    m_niceAxis->setRange(min, max);
    m_niceAxis->applyNiceNumbers();
    const double low = m_niceAxis->min();
    const double high = m_niceAxis->max();
    const int ticks = m_niceAxis->tickCount();
    // Ticks from the rounded bottom at the rounded step; the range a little past the top.
    const double top = headroom ? high + (high - low) * 0.04 : high;
    // The fitted axis's own label format (a zoom gave it one of its step's decimals).
    const QString format = axis == m_x ? m_xFormat : QStringLiteral("%.3g");
    const bool dynamic = headroom && ticks > 1;
    if (axis->min() == low && axis->max() == top && axis->tickCount() == ticks && axis->labelFormat() == format
        && (axis->tickType() == QValueAxis::TicksDynamic) == dynamic)
        return;
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);
    axis->setTickCount(ticks);
    if (dynamic) {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(low);
        axis->setTickInterval((high - low) / (ticks - 1));
    } else {
        axis->setTickType(QValueAxis::TicksFixed);
    }
    axis->setRange(low, top);
}

ChartPanel::Extent ChartPanel::dataExtent() const
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
    // What is shown: a hidden series does not stretch the axes.
    if (!hiddenSeries(m_raw)) {
        take(m_lastRaw);
        if (m_smoothing)
            take(m_lastSmooth);
    }
    if (!hiddenSeries(m_val))
        take(m_lastVal);
    for (qsizetype i = 0; i < m_lastLines.size(); ++i) {
        if (!m_hidden.contains(lineKey(i)))
            take(m_lastLines.at(i).points);
    }
    return {minX, maxX, minY, maxY};
}

void ChartPanel::fit(std::optional<Extent> extent)
{
    if (!extent)
        extent = dataExtent();
    m_fitExtent = *extent;
    double minX = extent->minX, maxX = extent->maxX, minY = extent->minY, maxY = extent->maxY;
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
        // Whole decades: a label at each power of ten, however narrow the data.
        const auto [low, high] = ChartTicks::decadeRange(minY, maxY);
        m_yLog->setRange(low, high);
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
        setNiceRange(m_yLinear, low, high, m_yLimits.has_value() && high >= m_yLimits->second);
    }
    m_applying = false;
    m_fittedX = xRange();
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

int ChartPanel::yTickRoom() const
{
    const double height = m_chart->plotArea().height();
    if (height <= 0)
        return niceTickCount;  // not laid out yet
    return std::clamp(int(height / (2.2 * QFontMetrics(m_yLinear->labelsFont()).height())) + 1, 2, niceTickCount);
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

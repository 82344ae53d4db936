#pragma once

#include "ChartLines.h"

#include "ChartLine.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include <cmath>
#include <optional>

class QCategoryAxis;
class QChart;
class QGraphicsLineItem;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QXYSeries;
class QValueAxis;
class QLogValueAxis;
class QAbstractAxis;
class QAbstractSeries;
class QLegendMarker;

namespace TrainDesk::Ui {

class ZoomableChartView;

// One chart of a metric: the training series raw (faint) and smoothed, validation points,
// extra lines (ranks, compared jobs), axes that fit the data until the user zooms or pans,
// and then stay put while points arrive, until resetZoom().
class ChartPanel : public QWidget
{
    Q_OBJECT

public:
    ChartPanel(const QString &title, const QString &yTitle, QWidget *parent = nullptr);

    void setXTitle(const QString &title);
    // A chart of extra lines only (system metrics): no train and validation series.
    void setLinesOnly();
    // Smoothing off: `smooth` is ignored and the raw series is drawn solid. The panel keeps
    // the whole lists (implicitly shared, not copied) and gives Qt Charts only what the
    // pixels show (PixelColumns: first, lowest, highest and last point of each pixel column
    // of the x range shown), made again when the range or the plot's width changes.
    void setData(const QList<QPointF> &raw, const QList<QPointF> &smooth, const QList<QPointF> &val, bool smoothing,
                 const QList<ChartLine> &lines = {});
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    // What the legend and the y axis call the series drawn: "train" and the panel's own y
    // title by default, a named series' name when a picker chose one (empty: the defaults).
    void setSeriesName(const QString &name);
    // Axis limits that auto-fit never passes (accuracy: 0 to 1).
    void setYLimits(double low, double high);
    // The y axis always shows [low, high], whatever the data (percent charts show 0-100).
    void setYIncludes(double low, double high);
    bool isAutoFit() const { return m_autoFit; }
    void resetZoom();
    // The run the train and validation series are of: the legend and the readout name it
    // ("fashion-mnist-demo train") when other runs are drawn too; empty: not named.
    void setRunName(const QString &name);
    // The training line's colour: the charts' blue, or the colour the user chose for the run.
    void setTrainColor(const QColor &color);
    // x in seconds, labelled h:mm:ss (the system charts, the Time axis of the metrics).
    void setXTimeLabels(bool on);
    bool xTimeLabels() const { return m_timeLabels; }
    QStringList xTimeLabelTexts() const;
    // The legend's names in drawing order: the last is drawn on top.
    QStringList drawOrder() const;
    // A click on a legend entry hides its series (its entry stays, greyed) and another shows
    // it again; kept while data arrives and lines come and go. The run's own train, raw and
    // smoothed, is one entry. Hidden series do not count for the fitted range.
    void setSeriesHidden(const QString &legendName, bool hidden);
    bool isSeriesHidden(const QString &legendName) const;
    // The entry of the legend named so (nullptr: none shown).
    QLegendMarker *legendMarker(const QString &legendName) const;

    // The readout: a vertical line at one step and the value there of every visible series
    // (the mouse moves it, Left and Right step it).
    struct ReadoutRow
    {
        QString name;
        QColor color;
        double x = 0;  // the series' point nearest the step (validation: once an epoch)
        double y = 0;
    };
    // The step nearest `x` that some visible series has a point at, and each series there.
    double snappedX(double x) const;
    QList<ReadoutRow> readoutAt(double x) const;
    void showReadout(double x);
    void stepReadout(int direction);
    void hideReadout();
    double readoutX() const { return m_readoutX; }  // NaN: hidden
    QString readoutText() const;                      // as shown, plain text

    QChart *chart() const { return m_chart; }
    ZoomableChartView *view() const { return m_view; }
    QPointF xRange() const;  // (min, max) shown
    QPointF yRange() const;
    int rawCount() const;
    int smoothCount() const;
    int valCount() const;
    // The extra lines as drawn: legend names and point counts.
    QStringList lineNames() const;
    int lineCount(const QString &name) const;
    // The points Qt Charts holds of the run's raw series and of an extra line (empty: none
    // so named), as reduced to the range shown.
    QList<QPointF> drawnRaw() const;
    QList<QPointF> drawnLine(const QString &name) const;
    // The plot's width in pixels: more points than about four a pixel would not show.
    int plotWidth() const;
    // Above this many extra lines they are drawn with cosmetic one-pixel pens and without
    // antialiasing: a hundred overlaid runs stroked with joins cost ten times as much.
    static constexpr int manyLines = 16;
    // Whether the drawn points are those of the range and width shown now (the re-reduction
    // after a zoom or pan runs once the events of the gesture are handled).
    bool drawnIsCurrent() const;

Q_SIGNALS:
    void autoFitChanged(bool autoFit);
    // The user zoomed or panned: what is shown is another part of the data.
    void viewChanged();

protected:
    // A new application palette (View > Theme): the chart takes the matching Qt Charts theme.
    void changeEvent(QEvent *event) override;

private:
    void applyChartTheme();
    void raiseMainSeries();
    void updateSeriesNames();
    void updateLegendMarkers();
    // Hidden series: visibility, greyed legend entries, click handlers on new markers.
    void applyHidden();
    void legendClicked();
    QString hideKey(const QAbstractSeries *series) const;
    QString lineKey(qsizetype line) const;
    bool hiddenSeries(const QAbstractSeries *series) const;
    QSet<QString> m_hidden;  // hideKey()s
    bool m_valInLegend = true;  // a named series chosen: no validation entry
    void updateTimeLabels();
    void placeReadout();
    QString xText(double x) const;
    // The visible series with their points as drawn, for the readout.
    QList<std::pair<const QXYSeries *, const QList<QPointF> *>> readoutSeries() const;
    // The data's extent (of the series shown; null: none) and the axes fitted to it.
    struct Extent
    {
        double minX = INFINITY, maxX = -INFINITY, minY = INFINITY, maxY = -INFINITY;  // none: inverted
        bool operator==(const Extent &) const = default;
    };
    Extent dataExtent() const;
    void fit(std::optional<Extent> extent = std::nullopt);
    Extent m_fitExtent{NAN, NAN, NAN, NAN};  // what the axes were last fitted to (NaN: never)
    QPointF m_fittedX{NAN, NAN};       // and the x range that gave
    void emptySeries();
    void setLines(const QList<ChartLine> &lines);
    // Gives every series the points of its data the plot shows (PixelColumns).
    void drawShown();
    int drawnColumns() const;
    QTimer m_drawTimer;  // drawShown() after a range change, once its events are handled
    struct DrawnRange
    {
        double min = NAN, max = NAN;
        int columns = 0;
        bool operator==(const DrawnRange &) const = default;
    };
    DrawnRange shownRange() const;
    DrawnRange m_drawn;  // what the series' points were reduced for
    struct DrawnFrom
    {
        const QPointF *data = nullptr;
        qsizetype size = 0;
        DrawnRange range;
        bool log = false;
        bool ends = true;  // four points a column, not two
        bool operator==(const DrawnFrom &) const = default;
    };
    QHash<const QXYSeries *, DrawnFrom> m_drawnFrom;
    QList<QAbstractSeries *> allSeries() const;
    // Rounded to nice ticks; `headroom`: a little room above the top tick, so a line at the
    // limit (100 %, accuracy 1) is drawn inside the plot, not on its border.
    void setNiceRange(QValueAxis *axis, double min, double max, bool headroom = false);
    static constexpr int niceTickCount = 5;
    int yTickRoom() const;  // y ticks the plot's height has room for
    int m_yTicksAsked = niceTickCount;
    void setAutoFit(bool on);
    QAbstractAxis *yAxis() const;
    // A zoomed or panned axis: ticks at round values (ChartTicks::roundStep).
    void roundTicks(QValueAxis *axis);
    double smallestPositiveShown() const;  // of the steps shown (a log axis's floor)
    QString m_xFormat = QStringLiteral("%.0f");  // the x labels' format when fitted

    QChart *m_chart;
    ZoomableChartView *m_view;
    QLineSeries *m_raw;
    QLineSeries *m_smooth;
    QScatterSeries *m_val;
    QValueAxis *m_x;
    QValueAxis *m_yLinear;
    QLogValueAxis *m_yLog;
    QValueAxis *m_niceAxis;  // not in the chart: rounds ranges
    bool m_log = false;
    QString m_yTitle;  // the panel's own
    bool m_autoFit = true;
    bool m_applying = false;  // our own range changes are not the user's zoom
    std::optional<std::pair<double, double>> m_yLimits;
    std::optional<std::pair<double, double>> m_yIncludes;
    QList<QLineSeries *> m_lines;  // the extra lines, in the order given
    QList<bool> m_lineInLegend;    // of m_lines
    QList<QPointF> m_lastRaw, m_lastSmooth, m_lastVal;
    QList<ChartLine> m_lastLines;
    bool m_smoothing = false;
    QColor m_trainColor = ChartLines::mainRunColor();
    std::optional<bool> m_styledForSmoothing;  // what the pens and legend are set up for
    std::optional<bool> m_darkTheme;           // the chart theme applied (dark or light)
    QString m_runName;
    bool m_timeLabels = false;
    QCategoryAxis *m_xTime = nullptr;  // the h:mm:ss labels under m_x's (hidden) ones
    QLabel *m_readout = nullptr;
    QGraphicsLineItem *m_crosshair = nullptr;
    double m_readoutX = NAN;
};

} // namespace TrainDesk::Ui

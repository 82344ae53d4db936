#pragma once

#include "ChartLines.h"
#include "MetricSeries.h"
#include "metrics/ScalarSeriesIndex.h"

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSplitter;
class QToolButton;

namespace TrainDesk::Ui {

class ChartPanel;
class CompareJobsButton;
class SeriesPicker;

// The charts tab of a job: loss and accuracy side by side, drawn from a MetricSeries at
// most every redrawIntervalMs however fast records arrive, with smoothing, log scale for
// the loss, zoom and pan kept while data arrives, per-rank lines, other jobs of the
// experiment overlaid, and PNG/SVG/CSV export.
class MetricsChartView : public QWidget
{
    Q_OBJECT

public:
    static constexpr int redrawIntervalMs = 100;
    // The panels draw at most four points a pixel column (ChartPanel, PixelColumns); a chart
    // up to 750 pixels wide holds at most maxDrawnPoints of a series, and a long series at
    // least minDrawnPoints.
    static constexpr int maxDrawnPoints = 3000;
    static constexpr int minDrawnPoints = 300;

    explicit MetricsChartView(MetricSeries *series, QWidget *parent = nullptr);

    void setSmoothing(double weight);  // 0 to 0.99
    double smoothing() const { return m_smoothing; }
    void setLogScale(bool on);
    void setXAxis(MetricSeries::XAxis axis);
    // Each rank's own training values as thin lines (when the job reports them).
    void setPerRank(bool on);
    bool perRank() const { return m_perRank; }

    // Jobs the user may overlay: (id, name). The owner answers comparisonToggled() with
    // addComparison() / removeComparison(), since it fetches the metrics.
    void setComparisonCandidates(const QList<QPair<qint64, QString>> &jobs);
    // The run shown (a job's name): the legend names it beside compared runs, and exports
    // carry it.
    void setRunName(const QString &name);
    // The shown run's training line: the charts' blue, or the colour its user chose for it.
    void setMainColor(const QColor &color);
    QString runName() const { return m_runName; }
    // Every record of the run and of the compared runs, a run column first.
    QByteArray csv() const;
    // What the exported images show, in words (their metadata): each chart's runs and series.
    QString exportDescription() const;
    CompareJobsButton *compareButton() const { return m_compare; }
    void addComparison(const ComparedJob &job);  // job.series outlives the comparison
    void removeComparison(qint64 jobId);
    const QList<ComparedJob> &comparisons() const { return m_compared; }

    // Written in a worker thread; exported() reports the result, and a message box names
    // the file written (or why not). Images hold the two charts, not the controls above.
    void exportPng(const QString &path);
    void exportSvg(const QString &path);
    void exportCsv(const QString &path);

    ChartPanel *lossPanel() const { return m_loss; }
    ChartPanel *accuracyPanel() const { return m_accuracy; }
    // What each chart draws: its own series or a named one (SeriesPicker).
    SeriesPicker *lossPicker() const { return m_lossPicker; }
    SeriesPicker *accuracyPicker() const { return m_accuracyPicker; }
    int redrawCount() const { return m_redraws; }
    // The redraw the timer would do, now (tests, benchmarks, exports).
    void redrawNow();
    QSplitter *chartsSplitter() const { return m_chartsSplitter; }

    // Up to maxExtraCharts more charts below loss and accuracy, each of any series the job
    // stored (its picker starts at the first one no chart shows: the learning rate, then
    // images/s); each has a close button. Returns the new chart, nullptr at the limit.
    static constexpr int maxExtraCharts = 2;
    ChartPanel *addChart();
    void removeChart(ChartPanel *panel);
    QList<ChartPanel *> extraPanels() const;
    SeriesPicker *pickerOf(ChartPanel *panel) const;
    QToolButton *addChartButton() const { return m_addChart; }

Q_SIGNALS:
    void exported(const QString &path, const QString &error);  // empty error: written
    void comparisonToggled(qint64 jobId, bool on);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The constructor's parts, in order: the controls' settings, the Export menu, the rows of
    // charts, the window's layout, the signals.
    void setUpControls();
    QToolButton *makeExportButton();
    QSplitter *makeChartRows();
    void layOut(QSplitter *charts, QToolButton *exportButton);
    void connectControls();
    void scheduleRedraw();
    void redraw();
    void updateSummary();
    void drawNamed(ChartPanel *panel, const QString &key, double startTime, const QString &xTitle);
    void updatePerRankCheck();
    void watchZoom(ChartPanel *panel);
    void chooseExport(const QString &title, const QString &fileName, const QString &filter,
                      void (MetricsChartView::*write)(const QString &));
    void writeAsync(const QString &path, const QByteArray &data);
    // While an image is made: the charts' titles name the run.
    class ExportTitles
    {
    public:
        explicit ExportTitles(MetricsChartView *view);
        ~ExportTitles();

    private:
        MetricsChartView *m_view;
        QStringList m_titles;
    };
    void confirmExport(const QString &path, const QString &error);

    MetricSeries *m_series;
    ChartPanel *m_loss;
    ChartPanel *m_accuracy;
    QComboBox *m_xAxisCombo;
    QSlider *m_smoothingSlider;
    QLabel *m_smoothingLabel;
    QCheckBox *m_logCheck;
    QCheckBox *m_perRankCheck;
    CompareJobsButton *m_compare;
    SeriesPicker *m_lossPicker;
    SeriesPicker *m_accuracyPicker;
    ScalarSeriesIndex m_scalars;
    QString m_lossKey, m_accuracyKey;  // the named series each chart was last drawn with
    struct ExtraChart
    {
        ChartPanel *panel = nullptr;
        SeriesPicker *picker = nullptr;
        QWidget *box = nullptr;  // the picker's row and the chart
        QString drawnKey;
    };
    QList<ExtraChart> m_extra;
    QSplitter *m_topRow;
    QSplitter *m_extraRow;
    QToolButton *m_addChart;
    QPushButton *m_resetZoom;
    QLabel *m_summary;
    QSplitter *m_chartsSplitter;
    QTimer m_redrawTimer;
    double m_smoothing = 0.6;
    MetricSeries::XAxis m_xAxis = MetricSeries::XAxis::Step;
    bool m_perRank = false;
    QList<ComparedJob> m_compared;
    QString m_runName;
    QColor m_mainColor = ChartLines::mainRunColor();
    int m_redraws = 0;
    bool m_stale = false;  // data came while another tab was shown
};

} // namespace TrainDesk::Ui

#pragma once

#include "MetricSeries.h"

#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;

namespace TrainDesk::Ui {

class ChartPanel;

// The charts tab of a job: loss and accuracy side by side, drawn from a MetricSeries at
// most every redrawIntervalMs however fast records arrive, with smoothing, log scale for
// the loss, zoom and pan kept while data arrives, and PNG/CSV export.
class MetricsChartView : public QWidget
{
    Q_OBJECT

public:
    static constexpr int redrawIntervalMs = 100;
    static constexpr int maxDrawnPoints = 3000;
    static constexpr int minDrawnPoints = 300;

    explicit MetricsChartView(MetricSeries *series, QWidget *parent = nullptr);

    void setSmoothing(double weight);  // 0 to 0.99
    double smoothing() const { return m_smoothing; }
    void setLogScale(bool on);
    void setXAxis(MetricSeries::XAxis axis);

    // Written in a worker thread; exported() reports the result.
    void exportPng(const QString &path);
    void exportSvg(const QString &path);
    void exportCsv(const QString &path);

    ChartPanel *lossPanel() const { return m_loss; }
    ChartPanel *accuracyPanel() const { return m_accuracy; }
    int redrawCount() const { return m_redraws; }
    // The redraw the timer would do, now (tests, benchmarks, exports).
    void redrawNow();

Q_SIGNALS:
    void exported(const QString &path, const QString &error);  // empty error: written

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void scheduleRedraw();
    void redraw();
    void updateSummary();
    void chooseExport(const QString &title, const QString &fileName, const QString &filter,
                      void (MetricsChartView::*write)(const QString &));
    void writeAsync(const QString &path, const QByteArray &data);

    MetricSeries *m_series;
    ChartPanel *m_loss;
    ChartPanel *m_accuracy;
    QComboBox *m_xAxisCombo;
    QSlider *m_smoothingSlider;
    QLabel *m_smoothingLabel;
    QCheckBox *m_logCheck;
    QPushButton *m_resetZoom;
    QLabel *m_summary;
    QTimer m_redrawTimer;
    double m_smoothing = 0.6;
    MetricSeries::XAxis m_xAxis = MetricSeries::XAxis::Step;
    int m_redraws = 0;
    bool m_stale = false;  // data came while another tab was shown
};

} // namespace TrainDesk::Ui

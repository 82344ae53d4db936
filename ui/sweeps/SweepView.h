#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class JobMetricsFeed;
class MetricSeries;
class MetricsChartView;
class ParallelCoordinatesPlot;
class ParameterScatterPlot;
class SweepTrialsModel;
class TrialModelDownload;

// A sweep's page: what it is and how far it got, its trials (values, state, metric; sorted
// by any column, the best marked), a parallel-coordinates plot and a parameter-vs-metric
// scatter of them, their charts overlaid (the best drawn in full), Stop, and the best
// trial's model downloaded in one step.
class SweepView : public QWidget
{
    Q_OBJECT

public:
    explicit SweepView(Backend *backend, QWidget *parent = nullptr);

    // Call again on every snapshot; 0 shows nothing and stops watching.
    void showSweep(qint64 sweepId);
    qint64 sweepId() const { return m_sweepId; }

    SweepTrialsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QTabWidget *tabs() const { return m_tabs; }
    ParallelCoordinatesPlot *parallelPlot() const { return m_parallel; }
    ParameterScatterPlot *scatterPlot() const { return m_scatter; }
    QComboBox *scatterParameter() const { return m_scatterParameter; }
    MetricsChartView *charts() const { return m_charts; }
    MetricSeries *series() const { return m_series; }  // the best trial's, drawn in full
    QPushButton *downloadButton() const { return m_download; }
    QPushButton *stopButton() const { return m_stop; }
    QString headerText() const;
    // Downloads the best trial's model into `folder` (the button asks for the folder).
    void downloadBestTo(const QString &folder);

Q_SIGNALS:
    void jobActivated(qint64 jobId);  // double-click on a trial: its job's page
    void downloadFinished(const QString &folder, int files, const QString &error);

private:
    void updateCharts();

    Backend *m_backend;
    qint64 m_sweepId = 0;
    SweepTrialsModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QLabel *m_title;
    QLabel *m_details;
    QLabel *m_status;
    QPushButton *m_stop;
    QPushButton *m_download;
    QTableView *m_table;
    QTabWidget *m_tabs;
    ParallelCoordinatesPlot *m_parallel;
    QComboBox *m_scatterParameter;
    ParameterScatterPlot *m_scatter;
    MetricSeries *m_series;
    MetricsChartView *m_charts;
    JobMetricsFeed *m_feed;
    TrialModelDownload *m_downloader;
    QList<qint64> m_chartedJobs;
};

} // namespace TrainDesk::Ui

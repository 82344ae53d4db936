#pragma once

#include "session/ResourceSnapshot.h"

#include <QHash>
#include <QTabWidget>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class JobOverview;
class LogView;
class MetricSeries;
class MetricsChartView;
class OutputFilesView;
class SystemChartsView;
class SystemSeries;

// Everything about one job in tabs: overview, live charts, logs and output files.
// Watches the job's metrics while it is shown, and those of the experiment's jobs that the
// user overlays on its charts.
class JobView : public QTabWidget
{
    Q_OBJECT

public:
    enum Tab { OverviewTab, ChartsTab, LogsTab, FilesTab };

    explicit JobView(Backend *backend, QWidget *parent = nullptr);
    ~JobView() override;

    // Shows `jobId` (0: none) as the snapshot describes it; call again on every snapshot.
    void showJob(qint64 jobId, const ResourceSnapshot &snapshot);
    qint64 jobId() const { return m_jobId; }

    JobOverview *overview() const { return m_overview; }
    MetricSeries *series() const { return m_series; }
    MetricsChartView *charts() const { return m_charts; }
    SystemSeries *systemSeries() const { return m_systemSeries; }
    SystemChartsView *systemCharts() const { return m_systemCharts; }
    LogView *logs() const { return m_logs; }
    OutputFilesView *files() const { return m_files; }

Q_SIGNALS:
    void startRequested(qint64 jobId);
    void terminateRequested(qint64 jobId);
    void cloneRequested(qint64 jobId);

private:
    void setComparison(qint64 jobId, bool on);
    void updateComparisonCandidates(const ResourceSnapshot &snapshot, const Job &job);

    Backend *m_backend;
    qint64 m_jobId = 0;
    MetricSeries *m_series;
    JobOverview *m_overview;
    MetricsChartView *m_charts;
    SystemSeries *m_systemSeries;
    SystemChartsView *m_systemCharts;  // under m_charts, in the same tab
    LogView *m_logs;
    OutputFilesView *m_files;
    QHash<qint64, MetricSeries *> m_compared;  // job id -> its metrics, overlaid on the charts
};

} // namespace TrainDesk::Ui

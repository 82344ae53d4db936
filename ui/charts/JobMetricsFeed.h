#pragma once

#include <QHash>
#include <QObject>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class MetricSeries;
class MetricsChartView;

// Feeds a MetricsChartView from the Backend: the main job's series and one series per job
// overlaid on it, each watched while it is drawn (the Backend counts watchers, so a job
// page and the runs table can draw one job at once). The chart's comparisonToggled (its
// Compare menu) adds and removes overlays; setMainJob changes the job drawn in full.
class JobMetricsFeed : public QObject
{
    Q_OBJECT

public:
    JobMetricsFeed(Backend *backend, MetricSeries *mainSeries, MetricsChartView *charts, QObject *parent = nullptr);
    ~JobMetricsFeed() override;

    // 0: none. The new main job's series is read whole; an overlay of it is dropped first.
    void setMainJob(qint64 jobId);
    qint64 mainJob() const { return m_mainJob; }
    void setComparison(qint64 jobId, bool on);
    bool isCompared(qint64 jobId) const { return m_compared.contains(jobId); }

private:
    Backend *m_backend;
    MetricSeries *m_series;
    MetricsChartView *m_charts;
    qint64 m_mainJob = 0;
    QHash<qint64, MetricSeries *> m_compared;  // job id -> its metrics, overlaid on the charts
};

} // namespace TrainDesk::Ui

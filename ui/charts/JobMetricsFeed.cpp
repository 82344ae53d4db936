#include "JobMetricsFeed.h"

#include "CompareJobsButton.h"
#include "MetricSeries.h"
#include "MetricsChartView.h"
#include "session/Backend.h"

namespace TrainDesk::Ui {

JobMetricsFeed::JobMetricsFeed(Backend *backend, MetricSeries *mainSeries, MetricsChartView *charts, QObject *parent)
    : QObject(parent), m_backend(backend), m_series(mainSeries), m_charts(charts)
{
    connect(m_backend, &Backend::metricsArrived, this,
            [this](qint64 jobId, const QList<MetricRecord> &records, bool reset) {
                MetricSeries *series = jobId == m_mainJob ? m_series : m_compared.value(jobId);
                if (!series)
                    return;
                if (reset)
                    series->reset(records);
                else
                    series->append(records);
            });
    connect(m_charts, &MetricsChartView::comparisonToggled, this, &JobMetricsFeed::setComparison);
}

JobMetricsFeed::~JobMetricsFeed()
{
    if (m_mainJob)
        m_backend->unwatchJob(m_mainJob);
    for (auto it = m_compared.cbegin(); it != m_compared.cend(); ++it)
        m_backend->unwatchJob(it.key());
}

void JobMetricsFeed::setMainJob(qint64 jobId)
{
    if (jobId == m_mainJob)
        return;
    if (m_compared.contains(jobId))
        setComparison(jobId, false);
    if (m_mainJob)
        m_backend->unwatchJob(m_mainJob);
    m_mainJob = jobId;
    m_series->reset();
    if (jobId)
        m_backend->watchJob(jobId);  // answers with the whole series so far
}

void JobMetricsFeed::setComparison(qint64 jobId, bool on)
{
    if (on == m_compared.contains(jobId))
        return;
    if (!on) {
        // Out of the map first: removeComparison() unchecks the Compare entry, which calls
        // back here, and a watcher must be counted off once.
        MetricSeries *series = m_compared.take(jobId);
        m_charts->removeComparison(jobId);
        delete series;
        m_backend->unwatchJob(jobId);
        return;
    }
    QString name;
    for (const auto &[id, jobName] : m_charts->compareButton()->candidates()) {
        if (id == jobId)
            name = jobName;
    }
    auto *series = new MetricSeries(this);
    m_compared.insert(jobId, series);
    m_charts->addComparison({jobId, name, series});
    m_backend->watchJob(jobId);  // answers with the whole series so far
}

} // namespace TrainDesk::Ui

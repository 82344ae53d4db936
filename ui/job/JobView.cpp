#include "JobView.h"

#include "JobOverview.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "files/OutputFilesView.h"
#include "logs/LogView.h"
#include "session/Backend.h"

namespace TrainDesk::Ui {

JobView::JobView(Backend *backend, QWidget *parent)
    : QTabWidget(parent),
      m_backend(backend),
      m_series(new MetricSeries(this)),
      m_overview(new JobOverview(this)),
      m_charts(new MetricsChartView(m_series, this)),
      m_logs(new LogView(backend, this)),
      m_files(new OutputFilesView(backend, this))
{
    setDocumentMode(true);
    addTab(m_overview, tr("Overview"));
    addTab(m_charts, tr("Charts"));
    addTab(m_logs, tr("Logs"));
    addTab(m_files, tr("Output files"));
    connect(m_overview, &JobOverview::startRequested, this, &JobView::startRequested);
    connect(m_overview, &JobOverview::terminateRequested, this, &JobView::terminateRequested);
    connect(m_overview, &JobOverview::cloneRequested, this, &JobView::cloneRequested);
    connect(m_backend, &Backend::metricsArrived, this,
            [this](qint64 jobId, const QList<MetricRecord> &records, bool reset) {
                if (jobId != m_jobId)
                    return;
                if (reset)
                    m_series->reset(records);
                else
                    m_series->append(records);
            });
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == FilesTab)
            m_files->refresh();
    });
}

JobView::~JobView()
{
    if (m_jobId)
        m_backend->unwatchJob(m_jobId);
}

void JobView::showJob(qint64 jobId, const ResourceSnapshot &snapshot)
{
    const Job *job = snapshot.findJob(jobId);
    if (!job)
        jobId = 0;
    if (jobId != m_jobId) {
        if (m_jobId)
            m_backend->unwatchJob(m_jobId);
        m_jobId = jobId;
        m_series->reset();
        if (m_jobId)
            m_backend->watchJob(m_jobId);
    }
    if (!job) {
        m_logs->setJob(0, true);
        m_files->setJob(0, false);
        return;
    }
    const ResourceSnapshot::ExperimentEntry *exp = snapshot.findExperiment(job->experimentId);
    const ResourceSnapshot::ClusterEntry *cluster = snapshot.findCluster(job->clusterId);
    m_overview->setJob(*job, exp ? exp->experiment.name : QString(), cluster ? cluster->cluster.name : QString());
    m_logs->setJob(job->jobDir.isEmpty() ? 0 : jobId, isFinished(job->state));
    m_files->setJob(job->jobDir.isEmpty() ? 0 : jobId, !isFinished(job->state));
}

} // namespace TrainDesk::Ui

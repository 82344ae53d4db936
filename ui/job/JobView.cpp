#include "JobView.h"

#include "JobOverview.h"
#include "charts/MetricSeries.h"
#include "charts/JobMetricsFeed.h"
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
      m_files(new OutputFilesView(backend, this)),
      m_feed(new JobMetricsFeed(backend, m_series, m_charts, this))
{
    setDocumentMode(true);
    addTab(m_overview, tr("Overview"));
    addTab(m_charts, tr("Charts"));
    addTab(m_logs, tr("Logs"));
    addTab(m_files, tr("Output files"));
    connect(m_overview, &JobOverview::startRequested, this, &JobView::startRequested);
    connect(m_overview, &JobOverview::terminateRequested, this, &JobView::terminateRequested);
    connect(m_overview, &JobOverview::cloneRequested, this, &JobView::cloneRequested);
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == FilesTab)
            m_files->refresh();
    });
}

JobView::~JobView() = default;

void JobView::updateComparisonCandidates(const ResourceSnapshot &snapshot, const Job &job)
{
    // Jobs of the same experiment that ran (they have a directory, so maybe metrics).
    QList<QPair<qint64, QString>> candidates;
    if (const ResourceSnapshot::ExperimentEntry *exp = snapshot.findExperiment(job.experimentId)) {
        for (const Job &other : exp->jobs) {
            if (other.id != job.id && !other.jobDir.isEmpty())
                candidates.append({other.id, other.name});
        }
    }
    m_charts->setComparisonCandidates(candidates);  // drops comparisons no longer among them
}

void JobView::showJob(qint64 jobId, const ResourceSnapshot &snapshot)
{
    const Job *job = snapshot.findJob(jobId);
    if (!job)
        jobId = 0;
    // A job that was overlaid and is now shown is drawn in full (the feed drops its overlay).
    m_jobId = jobId;
    m_feed->setMainJob(jobId);
    if (job)
        updateComparisonCandidates(snapshot, *job);
    else
        m_charts->setComparisonCandidates({});
    if (!job) {
        m_logs->setJob(0, true);
        m_files->setJob(0, false);
        return;
    }
    const ResourceSnapshot::ExperimentEntry *exp = snapshot.findExperiment(job->experimentId);
    const ResourceSnapshot::ClusterEntry *cluster = snapshot.findCluster(job->clusterId);
    m_overview->setJob(*job, exp ? exp->experiment.name : QString(), cluster ? cluster->cluster.name : QString());
    m_logs->setJob(job->jobDir.isEmpty() ? 0 : jobId, isFinished(job->state), job->rankNodes);
    m_files->setJob(job->jobDir.isEmpty() ? 0 : jobId, !isFinished(job->state));
}

} // namespace TrainDesk::Ui

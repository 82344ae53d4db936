#include "JobView.h"

#include "JobOverview.h"
#include "QueueReason.h"
#include "charts/ChartLines.h"
#include "charts/MetricSeries.h"
#include "charts/JobMetricsFeed.h"
#include "charts/MetricsChartView.h"
#include "charts/RunColors.h"
#include "charts/SystemChartsView.h"
#include "charts/SystemSeries.h"
#include "files/OutputFilesView.h"
#include "logs/LogView.h"
#include "session/Backend.h"

#include <QSplitter>

namespace TrainDesk::Ui {

JobView::JobView(Backend *backend, QWidget *parent)
    : QTabWidget(parent),
      m_backend(backend),
      m_series(new MetricSeries(this)),
      m_overview(new JobOverview(this)),
      m_charts(new MetricsChartView(m_series, this)),
      m_systemSeries(new SystemSeries(this)),
      m_systemCharts(new SystemChartsView(m_systemSeries, this)),
      m_logs(new LogView(backend, this)),
      m_files(new OutputFilesView(backend, this)),
      m_feed(new JobMetricsFeed(backend, m_series, m_charts, this))
{
    setDocumentMode(true);
    addTab(m_overview, tr("Overview"));
    // Loss and accuracy above, what the nodes did below: side by side in time.
    auto *chartsSplitter = new QSplitter(Qt::Vertical, this);
    chartsSplitter->setObjectName(QStringLiteral("metricsAndSystemSplitter"));
    chartsSplitter->addWidget(m_charts);
    chartsSplitter->addWidget(m_systemCharts);
    chartsSplitter->setStretchFactor(0, 3);
    chartsSplitter->setStretchFactor(1, 2);
    chartsSplitter->setChildrenCollapsible(true);
    addTab(chartsSplitter, tr("Charts"));
    addTab(m_logs, tr("Logs"));
    addTab(m_files, tr("Output files"));
    connect(m_overview, &JobOverview::startRequested, this, &JobView::startRequested);
    connect(m_overview, &JobOverview::terminateRequested, this, &JobView::terminateRequested);
    connect(m_overview, &JobOverview::cloneRequested, this, &JobView::cloneRequested);
    connect(m_backend, &Backend::systemSamplesArrived, this,
            [this](qint64 jobId, const QList<SystemSample> &samples, bool reset) {
                if (jobId != m_jobId)
                    return;
                if (reset)
                    m_systemSeries->reset(samples);
                else
                    m_systemSeries->append(samples);
            });
    // The colour the user chose for this job in the runs table is its training line's.
    connect(RunColors::instance(), &RunColors::changed, this,
            [this] { m_charts->setMainColor(ChartLines::shownRunColor(m_jobId)); });
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
    if (jobId != m_jobId)
        m_systemSeries->reset();
    // A job that was overlaid and is now shown is drawn in full (the feed drops its overlay;
    // watching it again brings its metrics and system samples whole).
    m_jobId = jobId;
    m_feed->setMainJob(jobId);
    m_charts->setRunName(job ? job->name : QString());
    m_charts->setMainColor(ChartLines::shownRunColor(jobId));
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
    m_overview->setWaitReason(queueReason(snapshot, *job));
    const ResourceSnapshot::JobReliability reliability = snapshot.reliability.value(jobId);
    m_overview->setReliability(reliability.attempts, reliability.silence);
    m_logs->setJob(job->jobDir.isEmpty() ? 0 : jobId, isFinished(job->state), job->rankNodes);
    m_files->setJob(job->jobDir.isEmpty() ? 0 : jobId, !isFinished(job->state));
}

} // namespace TrainDesk::Ui

#include "SweepView.h"

#include "SweepTrialsModel.h"
#include "TrialModelDownload.h"
#include "charts/ChartLines.h"
#include "charts/CompareJobsButton.h"
#include "charts/JobMetricsFeed.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"
#include "charts/ParameterTable.h"
#include "common/StateStyle.h"
#include "files/DownloadPaths.h"
#include "session/Backend.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

SweepView::SweepView(Backend *backend, QWidget *parent)
    : QWidget(parent),
      m_backend(backend),
      m_model(new SweepTrialsModel(this)),
      m_sorted(new QSortFilterProxyModel(this)),
      m_title(new QLabel(this)),
      m_details(new QLabel(this)),
      m_status(new QLabel(this)),
      m_stop(new QPushButton(tr("Stop sweep"), this)),
      m_download(new QPushButton(tr("Download best model…"), this)),
      m_table(new QTableView(this)),
      m_tabs(new QTabWidget(this)),
      m_parallel(new ParallelCoordinatesPlot(this)),
      m_scatterParameter(new QComboBox(this)),
      m_scatter(new ParameterScatterPlot(this)),
      m_series(new MetricSeries(this)),
      m_charts(new MetricsChartView(m_series, this)),
      m_feed(new JobMetricsFeed(backend, m_series, m_charts, this)),
      m_downloader(new TrialModelDownload(backend, this))
{
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_title->setFont(big);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stop->setToolTip(tr("End the running trials (their results stay) and start no more"));
    m_download->setToolTip(tr("Download the output directories (the saved model) of the best trial"));

    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(SweepTrialsModel::SortRole);
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (const qint64 job = index.data(SweepTrialsModel::JobIdRole).toLongLong())
            Q_EMIT jobActivated(job);
    });

    auto *scatterPage = new QWidget(this);
    auto *scatterLayout = new QVBoxLayout(scatterPage);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Parameter:"), scatterPage));
    pick->addWidget(m_scatterParameter);
    pick->addStretch();
    scatterLayout->addLayout(pick);
    scatterLayout->addWidget(m_scatter, 1);
    connect(m_scatterParameter, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            m_scatter->setParameter(i);
    });
    m_tabs->addTab(m_parallel, tr("Parallel coordinates"));
    m_tabs->addTab(scatterPage, tr("Parameter vs metric"));
    m_tabs->addTab(m_charts, tr("Charts"));

    auto *top = new QHBoxLayout;
    auto *titles = new QVBoxLayout;
    titles->addWidget(m_title);
    titles->addWidget(m_details);
    top->addLayout(titles, 1);
    top->addWidget(m_stop, 0, Qt::AlignTop);
    top->addWidget(m_download, 0, Qt::AlignTop);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);

    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_sweepId) {
            m_backend->stopSweep(m_sweepId);
            m_stop->setEnabled(false);
            m_status->setText(tr("Stopping: the running trials end, no new ones start."));
        }
    });
    connect(m_download, &QPushButton::clicked, this, [this] {
        const QString base = QFileDialog::getExistingDirectory(this, tr("Download the best model to"),
                                                               DownloadPaths::dialogFolder());
        if (base.isEmpty())
            return;
        DownloadPaths::setBaseFolder(base);
        downloadBestTo(base);
    });
    connect(m_downloader, &TrialModelDownload::progress, m_status, &QLabel::setText);
    connect(m_downloader, &TrialModelDownload::finished, this, [this](const QString &folder, int files, const QString &error) {
        m_download->setEnabled(m_model->summary().bestTrial() != nullptr);
        m_status->setText(error.isEmpty() ? tr("Downloaded %1 to %2").arg(countOf(files, tr("file"), tr("files")), folder)
                                          : tr("Download failed: %1").arg(error));
        Q_EMIT downloadFinished(folder, files, error);
    });
}

QString SweepView::headerText() const { return m_title->text() + QLatin1Char('\n') + m_details->text(); }

void SweepView::showSweep(qint64 sweepId)
{
    const SweepSummary *summary = sweepId ? m_backend->snapshot().findSweep(sweepId) : nullptr;
    if (!summary) {
        m_sweepId = 0;
        m_model->setSummary({});
        m_feed->setMainJob(0);
        m_chartedJobs.clear();
        return;
    }
    const bool changedSweep = sweepId != m_sweepId;
    m_sweepId = sweepId;
    m_model->setSummary(*summary);
    const Sweep &s = summary->sweep;
    m_title->setText(tr("Sweep %1").arg(s.name));
    const int done = summary->countIn({QStringLiteral("succeeded"), QStringLiteral("failed"), QStringLiteral("refused"),
                                       QStringLiteral("skipped"), QStringLiteral("deleted")});
    const int running = summary->countIn({QStringLiteral("running"), QStringLiteral("terminating")});
    QString details = tr("%1 · %2 sampling · %3 of %4 trials ended, %5 running · at most %6 at once")
                          .arg(toString(s.state), toString(s.sampling)).arg(done).arg(summary->trials.size()).arg(running)
                          .arg(s.maxConcurrent);
    if (s.sampling == SweepSampling::Random)
        details += tr(" · seed %1").arg(s.seed);
    if (!s.metric.isEmpty())
        details += tr("\nMetric %1 (%2)").arg(s.metric, s.maximize ? tr("higher is better") : tr("lower is better"));
    if (!s.earlyStop.isEmpty())
        details += tr(" · early stop %1").arg(s.earlyStop);
    if (const TrialRow *best = summary->bestTrial())
        details += tr(" · best %1: %2").arg(best->job).arg(*best->best, 0, 'g', 5);
    if (const QString note = summary->missingMetricNote(); !note.isEmpty())
        details += tr("\nNo best trial: %1").arg(note);
    m_details->setText(details);
    m_stop->setEnabled(s.state == SweepState::Running);
    m_download->setEnabled(summary->bestTrial() != nullptr && !m_downloader->busy());

    const ParameterTable table = m_model->parameterTable();
    if (changedSweep || m_scatterParameter->count() != table.parameters.size()) {
        const QSignalBlocker block(m_scatterParameter);
        m_scatterParameter->clear();
        m_scatterParameter->addItems(table.parameters);
        m_scatter->setParameter(0);
    }
    m_parallel->setTable(table);
    m_scatter->setTable(table);
    m_table->resizeColumnsToContents();
    updateCharts();
}

void SweepView::updateCharts()
{
    // The best trial drawn in full, every other trial that has a job overlaid on it.
    const SweepSummary &summary = m_model->summary();
    const TrialRow *best = summary.bestTrial();
    QList<qint64> jobs;
    if (best)
        jobs << best->jobId;
    QList<QPair<qint64, QString>> others;
    for (const TrialRow &t : summary.trials) {
        if (t.jobId && (!best || t.index != best->index)) {
            jobs << t.jobId;
            others.append({t.jobId, t.job});
        }
    }
    if (!best && !jobs.isEmpty())
        others.removeFirst();
    if (jobs == m_chartedJobs)
        return;
    m_chartedJobs = jobs;
    m_feed->setMainJob(jobs.value(0));
    // The run drawn in full is named in the legend and has its own colour, as everywhere.
    m_charts->setRunName(best ? best->job : summary.trials.isEmpty() ? QString() : summary.trials.first().job);
    m_charts->setMainColor(ChartLines::runColor(jobs.value(0)));
    m_charts->setComparisonCandidates(others);
    for (const auto &[id, name] : std::as_const(others))
        m_charts->compareButton()->setChecked(id, true);
}

void SweepView::downloadBestTo(const QString &base)
{
    const SweepSummary &summary = m_model->summary();
    const TrialRow *best = summary.bestTrial();
    if (!best || !best->jobId)
        return;
    const SweepSummary *full = m_backend->snapshot().findSweep(m_sweepId);
    const auto *experiment = full ? m_backend->snapshot().findExperiment(full->sweep.experimentId) : nullptr;
    const auto *workspace = experiment ? m_backend->snapshot().findWorkspace(experiment->experiment.workspaceId) : nullptr;
    if (!workspace)
        return;
    m_download->setEnabled(false);
    m_downloader->start(best->jobId, DownloadPaths::jobFolder(base, workspace->workspace.name,
                                                              experiment->experiment.name, best->job));
}

} // namespace TrainDesk::Ui

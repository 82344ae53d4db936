#include "MainWindow.h"

#include "ScreenshotMode.h"
#include "common/ScreenFit.h"
#include "cluster/ClusterView.h"
#include "common/Icons.h"
#include "common/StateStyle.h"
#include "common/ElidedToolTips.h"
#include "common/Theme.h"
#include "common/DataPaths.h"
#include "files/OutputFilesView.h"
#include "info/ResourceInfoView.h"
#include "charts/MetricSeries.h"
#include "job/JobProgress.h"
#include "job/JobView.h"
#include "notify/JobNotifier.h"
#include "notify/NotificationBar.h"
#include "runs/RunsView.h"
#include "sweeps/SweepView.h"
#include "shares/ShareBrowser.h"
#include "session/Backend.h"
#include "session/Startup.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace TrainDesk::Ui {

int runMainWindow()
{
    const QString databasePath = DataPaths::databasePath();
    const Startup::Outcome started = Startup::prepareDataDirectory(DataPaths::dataDirectory(), databasePath);
    if (!started.fatal.isEmpty()) {
        QMessageBox::critical(nullptr, QObject::tr("TrainDesk"), started.fatal);
        return 1;
    }
    if (!started.warning.isEmpty())
        QMessageBox::warning(nullptr, QObject::tr("TrainDesk"), started.warning);
    Theme::applyStored();
    ElidedToolTips::install();
    Backend backend(databasePath);
    MainWindow window(&backend);
    window.show();
    ScreenshotMode::installFromEnvironment({&window, [&window](const QString &name) { return window.selectByName(name); },
                                            [&window] { return window.currentView(); }});
    return QApplication::exec();
}

MainWindow::MainWindow(Backend *backend, QWidget *parent)
    : QMainWindow(parent),
      m_backend(backend),
      m_model(new ResourceTreeModel(this)),
      m_tree(new QTreeView),
      m_splitter(new QSplitter(Qt::Horizontal)),
      m_stack(new QStackedWidget),
      m_emptyPage(new QWidget),
      m_jobView(new JobView(backend)),
      m_clusterView(new ClusterView),
      m_infoView(new ResourceInfoView),
      m_runsView(new RunsView(backend)),
      m_sweepView(new SweepView(backend)),
      m_shareBrowser(new ShareBrowser(backend, DataPaths::databasePath())),
      m_notifier(new JobNotifier(backend, this)),
      m_notificationBar(new NotificationBar),
      m_jobsLabel(new QLabel),
      m_progressLabel(new QLabel)
{
    setObjectName(QStringLiteral("TrainDeskMainWindow"));
    setWindowTitle(tr("TrainDesk"));
    setWindowIcon(appIcon(QStringLiteral("traindesk")));
    ScreenFit::resizeWithin(this, {1280, 800});  // smaller on a small screen
    setUpTree();
    layOutViews();
    createActions();
    createMenus();
    setUpStatusBar();
    connectBackend();
    connectViews();
    restoreSettings();
    if (!m_backend->snapshot().workspaces.isEmpty())
        onSnapshot();
    updateActions();
    updateStatus();
}

void MainWindow::setUpTree()
{
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    // Names cut in the middle keep both ends ("fashion-mn…demo" and "fashion-mn…clone" differ);
    // the whole name is the tooltip (ElidedToolTips), and the column can be dragged wider.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setIndentation(14);  // four levels deep, names keep the room
    m_tree->setMinimumWidth(200);  // the views beside it give way first (to 1024 pixels in all)
    // The name takes what the state leaves; dragging the line between them (or the
    // splitter) gives the names more room.
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(ResourceTreeModel::NameColumn, QHeaderView::Stretch);
    // The line between them can be dragged; the state column is widened to its longest state
    // shown ("succeeded", "terminated", "running, attempt 2") whenever it would cut one.
    m_tree->header()->setSectionResizeMode(ResourceTreeModel::StateColumn, QHeaderView::Interactive);
    m_tree->header()->resizeSection(ResourceTreeModel::StateColumn, fontMetrics().horizontalAdvance(QStringLiteral("running")) + 20);
    m_tree->header()->setMinimumSectionSize(40);
    connect(m_tree, &QTreeView::expanded, this, &MainWindow::fitStateColumn);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QTreeView::customContextMenuRequested, this, &MainWindow::showTreeMenu);
}

// The tree beside the selection's view, under the app's own notification area (NotificationBar).
void MainWindow::layOutViews()
{
    auto *emptyLayout = new QVBoxLayout(m_emptyPage);
    auto *hint = new QLabel(tr("Select a job, a cluster or a share in the tree."));
    hint->setAlignment(Qt::AlignCenter);
    hint->setEnabled(false);
    emptyLayout->addWidget(hint);
    m_stack->addWidget(m_emptyPage);
    m_stack->addWidget(m_jobView);
    m_stack->addWidget(m_clusterView);
    m_stack->addWidget(m_infoView);
    m_stack->addWidget(m_sweepView);

    m_splitter->addWidget(m_tree);
    m_splitter->addWidget(m_stack);
    m_splitter->setStretchFactor(1, 1);
    // The tree keeps 300 pixels whatever the window's size (ScreenFit may have made it
    // smaller than it asked): in proportion it left job names a few letters on a 1024 screen.
    m_splitter->setSizes({300, std::max(300, width() - 300)});
    m_splitter->setChildrenCollapsible(false);
    auto *central = new QWidget;
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_notificationBar);
    centralLayout->addWidget(m_splitter, 1);
    setCentralWidget(central);
}

void MainWindow::setUpStatusBar()
{
    m_progressLabel->setObjectName(QStringLiteral("jobProgress"));
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_jobsLabel);
    connect(m_jobView->series(), &MetricSeries::changed, this, &MainWindow::updateProgress);
}

// The worker's news: the snapshot, failures, and the answers to this window's requests.
void MainWindow::connectBackend()
{
    connect(m_backend, &Backend::snapshotChanged, this, &MainWindow::onSnapshot);
    connect(m_backend, &Backend::operationFailed, this, [this](const QString &message) {
        statusBar()->showMessage(message, 15000);
    });
    connect(m_backend, &Backend::requestFinished, this, [this](int id, qint64, const QString &error) {
        if (id != m_deleteRequest)
            return;
        m_deleteRequest = 0;
        statusBar()->showMessage(error.isEmpty() ? tr("Job deleted") : error, 10000);
    });
    connect(m_backend, &Backend::fileWritten, this, [this](int id, const QString &error) {
        if (id == m_exportRequest)
            statusBar()->showMessage(error.isEmpty() ? tr("job.json exported") : error, 10000);
    });
}

// What the views ask for: selection, start, terminate, clone, delete, a job to show.
void MainWindow::connectViews()
{
    const auto showJob = [this](qint64 id) { selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id)); };
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::showSelection);
    connect(m_jobView, &JobView::startRequested, this, [this](qint64 id) { m_backend->queueJob(id); });
    connect(m_jobView, &JobView::terminateRequested, this, &MainWindow::confirmTerminate);
    connect(m_runsView, &RunsView::cloneRequested, this, &MainWindow::openCloneWizard);
    connect(m_runsView, &RunsView::deleteRequested, this, &MainWindow::confirmDelete);
    connect(m_runsView, &RunsView::statusMessage, this, [this](const QString &text) { statusBar()->showMessage(text, 15000); });
    connect(m_runsView, &RunsView::jobActivated, this, showJob);
    connect(m_sweepView, &SweepView::jobActivated, this, showJob);
    // A folder made, deleted or uploaded to: the tree's folders of the share.
    connect(m_shareBrowser, &ShareBrowser::changed, m_backend, &Backend::pollNow);
    connect(m_jobView, &JobView::cloneRequested, this, &MainWindow::openCloneWizard);
    connect(m_notifier, &JobNotifier::notShown, m_notificationBar, &NotificationBar::showMessage);
    connect(m_notificationBar, &NotificationBar::jobActivated, this, showJob);
    connect(m_notifier, &JobNotifier::jobActivated, this, [this, showJob](qint64 id) {
        showJob(id);
        showNormal();
        raise();
        activateWindow();
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::onSnapshot()
{
    m_model->setSnapshot(m_backend->snapshot());
    if (m_firstSnapshot && m_model->rowCount() > 0) {
        m_firstSnapshot = false;
        m_tree->expandToDepth(2);
        if (m_restoredKey.isEmpty() || !selectKey(m_restoredKey)) {
            // A new user sees the demo job: the first job there is.
            for (const auto &ws : m_backend->snapshot().workspaces) {
                for (const auto &exp : ws.experiments) {
                    if (!exp.jobs.isEmpty() && selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job,
                                                                                   exp.jobs.first().id)))
                        break;
                }
            }
        }
    }
    fitStateColumn();
    // Something made elsewhere (a cluster by its wizard's worker): selected once the tree has it.
    if (!m_selectWhenSeen.isEmpty() && selectKey(m_selectWhenSeen))
        m_selectWhenSeen.clear();
    showSelection();
    updateStatus();
}

void MainWindow::fitStateColumn()
{
    // The widest state of the rows shown, with the margins the item delegate leaves.
    int widest = 0;
    const QFontMetrics metrics = m_tree->fontMetrics();
    const std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
        if (parent.isValid() && !m_tree->isExpanded(parent))
            return;
        for (int r = 0; r < m_model->rowCount(parent); ++r) {
            const QModelIndex name = m_model->index(r, ResourceTreeModel::NameColumn, parent);
            widest = std::max(widest, metrics.horizontalAdvance(name.siblingAtColumn(ResourceTreeModel::StateColumn).data().toString()));
            walk(name);
        }
    };
    walk({});
    const int needed = widest + 2 * (m_tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_tree) + 1) + 4;
    if (m_tree->columnWidth(ResourceTreeModel::StateColumn) < needed)
        m_tree->setColumnWidth(ResourceTreeModel::StateColumn, needed);
}

bool MainWindow::selectKey(const QString &key)
{
    const QModelIndex index = m_model->indexForKey(key);
    if (!index.isValid())
        return false;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
        m_tree->expand(p);
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(index);
    return true;
}

bool MainWindow::selectByName(const QString &name)
{
    const QModelIndexList found = m_model->match(m_model->index(0, 0), Qt::DisplayRole, name, 1,
                                                 Qt::MatchExactly | Qt::MatchRecursive);
    return !found.isEmpty() && selectKey(found.first().data(ResourceTreeModel::KeyRole).toString());
}

QString MainWindow::selectedKey() const
{
    return m_tree->currentIndex().data(ResourceTreeModel::KeyRole).toString();
}

QWidget *MainWindow::currentView() const
{
    return m_stack->currentWidget();
}

const Job *MainWindow::selectedJob() const
{
    const QModelIndex index = m_tree->currentIndex();
    if (!index.isValid() || index.data(ResourceTreeModel::KindRole).value<ResourceTreeModel::Kind>()
                                != ResourceTreeModel::Kind::Job)
        return nullptr;
    return m_backend->snapshot().findJob(index.data(ResourceTreeModel::IdRole).toLongLong());
}

void MainWindow::showSelection()
{
    using Kind = ResourceTreeModel::Kind;
    const QModelIndex index = m_tree->currentIndex();
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    if (!index.isValid()) {
        m_jobView->showJob(0, snapshot);
        m_runsView->showScope(0, 0);
        m_sweepView->showSweep(0);
        m_stack->setCurrentWidget(m_emptyPage);
        updateActions();
        updateProgress();
        return;
    }
    const Kind kind = index.data(ResourceTreeModel::KindRole).value<Kind>();
    const qint64 id = index.data(ResourceTreeModel::IdRole).toLongLong();
    m_jobView->showJob(kind == Kind::Job ? id : 0, snapshot);
    m_sweepView->showSweep(kind == Kind::Sweep ? id : 0);
    switch (kind) {
    case Kind::Sweep:
        m_stack->setCurrentWidget(m_sweepView);
        break;
    case Kind::Job:
        m_stack->setCurrentWidget(m_jobView);
        break;
    case Kind::Cluster:
        m_clusterView->showCluster(id, snapshot);
        m_stack->setCurrentWidget(m_clusterView);
        break;
    default:
        m_infoView->showResource(kind, id, snapshot, index.data(Qt::DisplayRole).toString());
        m_stack->setCurrentWidget(m_infoView);
        break;
    }
    // Workspaces and experiments have their runs, shares their files.
    const bool runs = kind == Kind::Workspace || kind == Kind::ExperimentGroup || kind == Kind::Experiment;
    const bool files = kind == Kind::Share || kind == Kind::ShareFolder;
    if (runs) {
        const auto *exp = kind == Kind::Experiment ? snapshot.findExperiment(id) : nullptr;
        m_runsView->showScope(exp ? exp->experiment.workspaceId : id, exp ? id : 0);
    } else {
        m_runsView->showScope(0, 0);
    }
    if (files)
        m_shareBrowser->showShare(id, kind == Kind::ShareFolder ? index.data(Qt::DisplayRole).toString() : QString());
    m_infoView->setExtraTab(runs ? static_cast<QWidget *>(m_runsView) : files ? m_shareBrowser : nullptr,
                            runs ? tr("Runs") : tr("Files"));
    updateActions();
    updateProgress();
}

void MainWindow::updateProgress()
{
    const Job *job = selectedJob();
    const QString text = job && isActive(job->state) ? JobProgress::of(m_jobView->series()->records()).text() : QString();
    if (m_progressLabel->text() != text)
        m_progressLabel->setText(text);
}

void MainWindow::updateActions()
{
    const Job *job = selectedJob();
    m_startAction->setEnabled(job && job->state == JobState::Draft);
    m_terminateAction->setEnabled(job && !isFinished(job->state) && job->state != JobState::Draft
                                  && job->state != JobState::Terminating);
    m_deleteJobAction->setEnabled(job && job->state != JobState::Queued && !isActive(job->state));
    m_downloadAction->setEnabled(job && !job->jobDir.isEmpty());
    m_cloneJobAction->setEnabled(job);
    m_newSweepAction->setEnabled(job);
    m_exportJobAction->setEnabled(job);
    const bool anyWorkspace = !m_backend->snapshot().workspaces.isEmpty();
    m_newJobAction->setEnabled(anyWorkspace);
    m_importJobAction->setEnabled(anyWorkspace);
    m_newExperimentAction->setEnabled(anyWorkspace);
    m_newShareAction->setEnabled(anyWorkspace);
    m_uploadAction->setEnabled(anyWorkspace);
    m_dataSetsAction->setEnabled(selectedIdOf(ResourceTreeModel::Kind::Share) != 0);
}

QString MainWindow::jobsStatusText() const
{
    return m_jobsLabel->text();
}

void MainWindow::updateStatus()
{
    int running = 0;
    int queued = 0;
    for (const auto &ws : m_backend->snapshot().workspaces) {
        for (const auto &exp : ws.experiments) {
            for (const Job &j : exp.jobs) {
                running += isActive(j.state) ? 1 : 0;
                queued += j.state == JobState::Queued ? 1 : 0;
            }
        }
    }
    m_jobsLabel->setText(tr("%1 running").arg(countOf(running, tr("job"), tr("jobs")))
                         + (queued ? tr(", %1 queued").arg(queued) : QString()));
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("MainWindow"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("treeHeader"), m_tree->header()->saveState());
    settings.setValue(QStringLiteral("selection"), selectedKey());
    settings.setValue(QStringLiteral("jobTab"), m_jobView->currentIndex());
    settings.endGroup();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("MainWindow"));
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    if (settings.contains(QStringLiteral("splitter")))
        m_splitter->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
    if (settings.contains(QStringLiteral("treeHeader"))) {
        m_tree->header()->restoreState(settings.value(QStringLiteral("treeHeader")).toByteArray());
        fitStateColumn();  // a width saved by an earlier version cut the longer states
    }
    m_restoredKey = settings.value(QStringLiteral("selection")).toString();
    m_jobView->setCurrentIndex(settings.value(QStringLiteral("jobTab"), 0).toInt());
    settings.endGroup();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace TrainDesk::Ui

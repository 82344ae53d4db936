// MainWindow's actions, menus, tree context menu and the wizards they open.
#include "MainWindow.h"
#include "common/FileDialogs.h"

#include "common/Icons.h"
#include "common/StateStyle.h"
#include "common/ThemeMenu.h"
#include "datasets/DataSetsDialog.h"
#include "help/HelpDialogs.h"
#include "info/ResourceInfoView.h"
#include "shares/ShareBrowser.h"
#include "files/OutputFilesView.h"
#include "job/JobView.h"
#include "notify/JobNotifier.h"
#include "runs/TensorBoardFolderActions.h"
#include "session/Backend.h"
#include "wizards/NewJobWizard.h"
#include "sweeps/NewSweepWizard.h"
#include "wizards/ShareWizard.h"
#include "wizards/WorkspaceWizard.h"
#include "wizards/cluster/ClusterWizard.h"
#include "common/DataPaths.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QTreeView>

namespace TrainDesk::Ui {

QAction *MainWindow::addAction(const QString &icon, const QString &text, const QKeySequence &shortcut,
                               const QString &toolTip)
{
    QIcon i = icon.isEmpty() ? QIcon() : appIcon(icon);
    auto *action = new QAction(i, text, this);
    action->setShortcut(shortcut);
    // The shortcut in the tooltip too: the toolbar is where people learn them.
    const QString keys = shortcut.toString(QKeySequence::NativeText);
    action->setToolTip(keys.isEmpty() ? toolTip : QStringLiteral("%1 (%2)").arg(toolTip, keys));
    action->setStatusTip(toolTip);
    return action;
}

void MainWindow::createActions()
{
    createJobActions();
    createRunActions();
    createResourceActions();
    QAction *newCluster = createNewClusterAction();
    createWindowActions();
    createToolBar(newCluster);
}

// A new job (blank, cloned, imported), a sweep from one, a job's job.json exported.
void MainWindow::createJobActions()
{
    m_newJobAction = addAction(QStringLiteral("new-job"), tr("&New job…"), QKeySequence::New,
                               tr("A new job from a template, a copy or a job.json file"));
    m_newJobAction->setObjectName(QStringLiteral("newJobAction"));
    m_newJobAction->setIconText(tr("New job"));
    connect(m_newJobAction, &QAction::triggered, this, &MainWindow::openNewJobWizard);

    m_cloneJobAction = addAction(QStringLiteral("clone"), tr("&Clone job…"), QKeySequence(tr("Ctrl+D")),
                                 tr("A new job from the selected job's job.json, to change and submit"));
    m_cloneJobAction->setObjectName(QStringLiteral("cloneJobAction"));
    m_cloneJobAction->setIconText(tr("Clone"));
    connect(m_cloneJobAction, &QAction::triggered, this, [this] {
        if (const Job *job = selectedJob())
            openCloneWizard(job->id);
    });

    m_newSweepAction = addAction(QStringLiteral("sweep"), tr("New s&weep…"), QKeySequence(tr("Ctrl+Shift+H")),
                                 tr("A hyperparameter sweep from the selected job: the fields that vary, their values, "
                                    "the search"));
    m_newSweepAction->setObjectName(QStringLiteral("newSweepAction"));
    m_newSweepAction->setIconText(tr("New sweep"));
    connect(m_newSweepAction, &QAction::triggered, this, &MainWindow::openNewSweepWizard);

    m_importJobAction = addAction(QStringLiteral("import"), tr("&Import job.json…"), QKeySequence::Open,
                                  tr("A new job from a job.json file (one written for Batch AI works)"));
    m_importJobAction->setObjectName(QStringLiteral("importJobAction"));
    connect(m_importJobAction, &QAction::triggered, this, &MainWindow::openImportWizard);

    m_exportJobAction = addAction(QStringLiteral("export"), tr("&Export job.json…"), QKeySequence(tr("Ctrl+E")),
                                  tr("Save the selected job's job.json to a file"));
    m_exportJobAction->setObjectName(QStringLiteral("exportJobAction"));
    connect(m_exportJobAction, &QAction::triggered, this, [this] {
        const Job *job = selectedJob();
        if (!job)
            return;
        const QString path = FileDialogs::saveFileName(this, QStringLiteral("export-job"), tr("Export job.json"),
                                                             job->name + QStringLiteral(".json"), tr("Job files (*.json)"));
        if (!path.isEmpty())
            exportSelectedJob(path);
    });
}

// What runs the selected job or ends it: start, terminate, delete, download its outputs.
void MainWindow::createRunActions()
{
    m_startAction = new QAction(appIcon(QStringLiteral("start")), tr("&Start job"), this);
    m_startAction->setObjectName(QStringLiteral("startJobAction"));
    m_startAction->setShortcut(QKeySequence(tr("Ctrl+Return")));
    m_startAction->setToolTip(tr("Submit the selected draft job: it is queued and starts when its nodes are free (%1)")
                                  .arg(m_startAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_startAction, &QAction::triggered, this, [this] {
        if (const Job *job = selectedJob(); job && job->state == JobState::Draft)
            m_backend->queueJob(job->id);
    });

    m_terminateAction = new QAction(appIcon(QStringLiteral("terminate")), tr("&Terminate"), this);
    m_terminateAction->setObjectName(QStringLiteral("terminateJobAction"));
    m_terminateAction->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    m_terminateAction->setToolTip(tr("Stop the selected job (SIGTERM, then SIGKILL after a grace period) (%1)")
                                      .arg(m_terminateAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_terminateAction, &QAction::triggered, this, [this] {
        if (const Job *job = selectedJob(); job && !isFinished(job->state))
            confirmTerminate(job->id);
    });

    m_deleteJobAction = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("De&lete job…"), this);
    m_deleteJobAction->setObjectName(QStringLiteral("deleteJobAction"));
    m_deleteJobAction->setShortcut(QKeySequence(tr("Shift+Del")));
    m_deleteJobAction->setToolTip(tr("Remove the selected draft or finished job from TrainDesk; its files on the "
                                     "share stay (%1)")
                                      .arg(m_deleteJobAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_deleteJobAction, &QAction::triggered, this, [this] {
        if (const Job *job = selectedJob())
            confirmDelete(job->id);
    });

    m_downloadAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Download…"), this);
    m_downloadAction->setObjectName(QStringLiteral("downloadAction"));
    m_downloadAction->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    m_downloadAction->setToolTip(tr("Copy the selected job's output files to this computer (%1)")
                                     .arg(m_downloadAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_downloadAction, &QAction::triggered, this, [this] {
        m_jobView->setCurrentIndex(JobView::FilesTab);
        m_jobView->files()->chooseAndDownload();
    });
}

// New workspaces, experiments and shares, uploads to shares, data sets.
void MainWindow::createResourceActions()
{
    m_newWorkspaceAction = addAction(QStringLiteral("new-workspace"), tr("New &workspace…"), QKeySequence(tr("Ctrl+Shift+W")),
                                     tr("A workspace (and its first experiment)"));
    m_newWorkspaceAction->setObjectName(QStringLiteral("newWorkspaceAction"));
    connect(m_newWorkspaceAction, &QAction::triggered, this, [this] { openWorkspaceWizard(true); });

    m_newExperimentAction = addAction(QStringLiteral("new-experiment"), tr("New e&xperiment…"), QKeySequence(tr("Ctrl+Shift+E")),
                                      tr("An experiment in a workspace: it groups jobs"));
    m_newExperimentAction->setObjectName(QStringLiteral("newExperimentAction"));
    connect(m_newExperimentAction, &QAction::triggered, this, [this] { openWorkspaceWizard(false); });

    m_newShareAction = addAction(QStringLiteral("new-share"), tr("New &share…"), QKeySequence(tr("Ctrl+Shift+S")),
                                 tr("A local share: a folder every job sees at $AZ_BATCHAI_JOB_MOUNT_ROOT/<name>"));
    m_newShareAction->setObjectName(QStringLiteral("newShareAction"));
    m_newShareAction->setIconText(tr("New share"));
    connect(m_newShareAction, &QAction::triggered, this, [this] { openShareWizard(false); });

    m_uploadAction = addAction(QStringLiteral("upload"), tr("&Upload to share…"), QKeySequence(tr("Ctrl+U")),
                               tr("Copy files into a folder of a share, e.g. a training script"));
    m_uploadAction->setObjectName(QStringLiteral("uploadAction"));
    m_uploadAction->setIconText(tr("Upload"));
    connect(m_uploadAction, &QAction::triggered, this, [this] { openShareWizard(true); });

    m_dataSetsAction = new QAction(tr("&Data sets…"), this);
    m_dataSetsAction->setObjectName(QStringLiteral("dataSetsAction"));
    m_dataSetsAction->setToolTip(tr("Fetch CIFAR-10, Fashion-MNIST or MNIST into the selected share, verified"));
    connect(m_dataSetsAction, &QAction::triggered, this, [this] { openDataSetsDialog(); });
}

QAction *MainWindow::createNewClusterAction()
{
    auto *newClusterAction = addAction(QString(), tr("New &cluster…"), QKeySequence(tr("Ctrl+Shift+L")),
                                       tr("A cluster: this machine, nodes reached over SSH, or a Slurm cluster"));
    newClusterAction->setObjectName(QStringLiteral("newClusterAction"));
    newClusterAction->setIcon(style()->standardIcon(QStyle::SP_ComputerIcon));
    newClusterAction->setIconText(tr("New cluster"));
    connect(newClusterAction, &QAction::triggered, this, &MainWindow::openClusterWizard);
    return newClusterAction;
}

// The cluster wizard runs its SSH work on a ClusterWorker of its own.
void MainWindow::openClusterWizard()
{
    QStringList workspaces;
    for (const auto &entry : m_backend->snapshot().workspaces)
        workspaces << entry.workspace.name;
    auto *wizard = new ClusterWizard(DataPaths::databasePath(), workspaces, this);
    if (const auto *ws = m_backend->snapshot().findWorkspace(selectedIdOf(ResourceTreeModel::Kind::Workspace)))
        wizard->presetWorkspace(ws->workspace.name);
    connect(wizard, &ClusterWizard::clusterCreated, this, [this](qint64 clusterId) {
        // The new cluster selected, as the other wizards' new things are.
        const QString key = ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Cluster, clusterId);
        m_selectWhenSeen = selectKey(key) ? QString() : key;
        m_backend->pollNow();
        statusBar()->showMessage(tr("Cluster created"), 5000);
    });
    showWizard(wizard);
}

// Refresh and quit.
void MainWindow::createWindowActions()
{
    m_refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Refresh"), this);
    m_refreshAction->setObjectName(QStringLiteral("refreshAction"));
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_refreshAction->setToolTip(tr("Look at the jobs and nodes now (%1)")
                                    .arg(m_refreshAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_refreshAction, &QAction::triggered, this, [this] {
        m_backend->pollNow();
        if (currentView() == m_jobView)
            m_jobView->files()->refresh();
        else if (currentView() == m_infoView && m_infoView->extraTab() == m_shareBrowser)
            m_shareBrowser->refresh();
    });

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createToolBar(QAction *newCluster)
{
    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_newJobAction);
    toolBar->addAction(m_cloneJobAction);
    toolBar->addSeparator();
    toolBar->addAction(m_startAction);
    toolBar->addAction(m_terminateAction);
    toolBar->addAction(m_downloadAction);
    toolBar->addSeparator();
    toolBar->addAction(newCluster);
    toolBar->addAction(m_newShareAction);
    toolBar->addAction(m_uploadAction);
    toolBar->addSeparator();
    toolBar->addAction(m_refreshAction);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newWorkspaceAction);
    file->addAction(m_newExperimentAction);
    file->addSeparator();
    file->addAction(m_newShareAction);
    file->addAction(findChild<QAction *>(QStringLiteral("newClusterAction")));
    file->addAction(m_uploadAction);
    file->addAction(m_dataSetsAction);
    file->addSeparator();
    // TensorBoard folders opened in place (runs/TensorBoardFolderActions), in the chosen workspace.
    (new TensorBoardFolderActions(m_backend, this, [this] {
        const qint64 id = selectedIdOf(ResourceTreeModel::Kind::Workspace);
        for (const auto &ws : m_backend->snapshot().workspaces) {
            if (ws.workspace.id == id)
                return ws.workspace.name;
        }
        return m_backend->snapshot().workspaces.isEmpty() ? QStringLiteral("default")
                                                          : m_backend->snapshot().workspaces.first().workspace.name;
    }))->addTo(file);
    file->addSeparator();
    file->addAction(m_quitAction);
    QMenu *job = menuBar()->addMenu(tr("&Job"));
    job->addAction(m_newJobAction);
    job->addAction(m_cloneJobAction);
    job->addAction(m_newSweepAction);
    job->addAction(m_importJobAction);
    job->addAction(m_exportJobAction);
    job->addSeparator();
    job->addAction(m_startAction);
    job->addAction(m_terminateAction);
    job->addAction(m_downloadAction);
    job->addSeparator();
    job->addAction(m_deleteJobAction);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_refreshAction);
    auto *focusTree = view->addAction(tr("Go to the &tree"));
    focusTree->setShortcut(QKeySequence(tr("Ctrl+1")));
    connect(focusTree, &QAction::triggered, this, [this] { m_tree->setFocus(Qt::ShortcutFocusReason); });
    auto *focusView = view->addAction(tr("Go to the &view"));
    focusView->setShortcut(QKeySequence(tr("Ctrl+2")));
    connect(focusView, &QAction::triggered, this, [this] {
        // The first field of the view that takes Tab focus.
        QWidget *view = currentView();
        for (QWidget *w = view ? view->nextInFocusChain() : nullptr; w && w != view; w = w->nextInFocusChain()) {
            if (view->isAncestorOf(w) && (w->focusPolicy() & Qt::TabFocus) && w->isVisible() && w->isEnabled()) {
                w->setFocus(Qt::ShortcutFocusReason);
                break;
            }
        }
    });
    view->addSeparator();
    auto *notify = view->addAction(tr("&Notify when jobs end"));
    notify->setObjectName(QStringLiteral("notifyAction"));
    notify->setCheckable(true);
    notify->setChecked(JobNotifier::enabledSetting());
    notify->setToolTip(tr("A desktop notification when a job succeeds, fails or is stopped, with its final metric"));
    connect(notify, &QAction::toggled, this, [](bool on) { JobNotifier::setEnabledSetting(on); });
    view->addMenu(new ThemeMenu(view));
    for (QMenu *menu : {file, job, view})
        menu->setToolTipsVisible(true);
    createHelpMenu();
}

void MainWindow::createHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    m_userGuideAction = help->addAction(tr("&User guide"));
    m_userGuideAction->setObjectName(QStringLiteral("userGuideAction"));
    m_userGuideAction->setShortcut(QKeySequence::HelpContents);
    connect(m_userGuideAction, &QAction::triggered, this, [this] { HelpDialogs::showUserGuide(this); });
    m_shortcutsAction = help->addAction(tr("&Keyboard shortcuts"));
    m_shortcutsAction->setObjectName(QStringLiteral("shortcutsAction"));
    m_shortcutsAction->setShortcut(QKeySequence(tr("Ctrl+/")));
    connect(m_shortcutsAction, &QAction::triggered, this, [this] {
        QList<QAction *> actions;
        for (QAction *menu : menuBar()->actions()) {
            if (menu->menu())
                actions += menu->menu()->actions();
        }
        HelpDialogs::showShortcuts(this, actions);
    });
    help->addSeparator();
    m_aboutAction = help->addAction(tr("&About TrainDesk"));
    m_aboutAction->setObjectName(QStringLiteral("aboutAction"));
    connect(m_aboutAction, &QAction::triggered, this, [this] { HelpDialogs::showAbout(this); });
}

void MainWindow::confirmTerminate(qint64 jobId)
{
    const Job *job = m_backend->snapshot().findJob(jobId);
    if (!job || isFinished(job->state) || m_question)
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Terminate job"), tr("Terminate job %1?").arg(job->name),
                                QMessageBox::NoButton, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("Its processes get SIGTERM, then SIGKILL after a grace period. What it wrote so far "
                               "stays; the job shows as terminated."));
    QPushButton *terminate = box->addButton(tr("&Terminate"), QMessageBox::DestructiveRole);
    QPushButton *keep = box->addButton(tr("&Keep running"), QMessageBox::RejectRole);
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(box, &QMessageBox::finished, this, [this, box, terminate, jobId] {
        if (box->clickedButton() == terminate)
            m_backend->terminateJob(jobId);
    });
    m_question = box;
    box->open();
}

void MainWindow::confirmDelete(qint64 jobId)
{
    const Job *job = m_backend->snapshot().findJob(jobId);
    if (!job || m_question)
        return;
    if (job->state == JobState::Queued || isActive(job->state)) {
        statusBar()->showMessage(tr("Job %1 is %2: terminate it first").arg(job->name, jobStateText(*job)), 10000);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete job"), tr("Delete job %1?").arg(job->name),
                                QMessageBox::NoButton, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(job->jobDir.isEmpty()
                                ? tr("The job and its job.json are removed. This cannot be undone.")
                                : tr("The job, its metrics and its state are removed from TrainDesk. Its files stay on "
                                     "the share, in %1. This cannot be undone.").arg(job->jobDir));
    QPushButton *remove = box->addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    QPushButton *keep = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    connect(box, &QMessageBox::finished, this, [this, box, remove, jobId] {
        if (box->clickedButton() == remove)
            m_deleteRequest = m_backend->deleteJob(jobId);
    });
    m_question = box;
    box->open();
}

void MainWindow::showTreeMenu(const QPoint &pos)
{
    using Kind = ResourceTreeModel::Kind;
    const QModelIndex index = m_tree->indexAt(pos);
    if (!index.isValid())
        return;
    const Kind kind = index.data(ResourceTreeModel::KindRole).value<Kind>();
    QMenu menu(this);
    switch (kind) {
    case Kind::Job:
        menu.addActions({m_startAction, m_terminateAction, m_cloneJobAction, m_newSweepAction, m_exportJobAction,
                         m_downloadAction});
        menu.addSeparator();
        menu.addAction(m_deleteJobAction);
        break;
    case Kind::Experiment:
    case Kind::ExperimentGroup:
        menu.addActions({m_newJobAction, m_importJobAction, m_newExperimentAction});
        break;
    case Kind::Share:
    case Kind::ShareFolder:
    case Kind::ShareGroup:
        menu.addActions({m_uploadAction, m_dataSetsAction, m_newShareAction});
        break;
    default:
        menu.addActions({m_newJobAction, m_newExperimentAction, m_newShareAction, m_newWorkspaceAction});
        break;
    }
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

qint64 MainWindow::selectedIdOf(ResourceTreeModel::Kind kind) const
{
    for (QModelIndex i = m_tree->currentIndex(); i.isValid(); i = i.parent()) {
        const auto k = i.data(ResourceTreeModel::KindRole).value<ResourceTreeModel::Kind>();
        if (k == kind || (kind == ResourceTreeModel::Kind::Share && k == ResourceTreeModel::Kind::ShareFolder))
            return i.data(ResourceTreeModel::IdRole).toLongLong();
    }
    return 0;
}

template<typename Wizard>
Wizard *MainWindow::showWizard(Wizard *wizard)
{
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->open();
    return wizard;
}

NewJobWizard *MainWindow::openNewJobWizard()
{
    return showWizard(createNewJobWizard());
}

NewSweepWizard *MainWindow::openNewSweepWizard()
{
    auto *wizard = new NewSweepWizard(m_backend, this);
    if (const Job *job = selectedJob())
        wizard->presetJob(job->id);
    connect(wizard, &NewSweepWizard::sweepCreated, this, [this](qint64 id) {
        selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Sweep, id));
        statusBar()->showMessage(tr("Sweep created: the agent submits its trials"), 5000);
    });
    return showWizard(wizard);
}

NewJobWizard *MainWindow::createNewJobWizard()
{
    using Kind = ResourceTreeModel::Kind;
    auto *wizard = new NewJobWizard(m_backend, this);
    // Where the selection is: its experiment (or the workspace's first) and cluster.
    qint64 experiment = selectedIdOf(Kind::Experiment);
    qint64 cluster = selectedIdOf(Kind::Cluster);
    if (const Job *job = selectedJob())
        cluster = job->clusterId;
    if (!experiment) {
        if (const auto *ws = m_backend->snapshot().findWorkspace(selectedIdOf(Kind::Workspace)); ws && !ws->experiments.isEmpty())
            experiment = ws->experiments.first().experiment.id;
    }
    if (experiment)
        wizard->presetTarget(experiment, cluster);
    connect(wizard, &NewJobWizard::jobSubmitted, this, [this, wizard](qint64 id) {
        selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id));
        statusBar()->showMessage(wizard->savedAsDraft() ? tr("Draft saved: Start job runs it") : tr("Job submitted"), 5000);
    });
    return wizard;
}

NewJobWizard *MainWindow::openCloneWizard(qint64 jobId)
{
    NewJobWizard *wizard = createNewJobWizard();
    wizard->startClone(jobId);
    return showWizard(wizard);
}

NewJobWizard *MainWindow::openImportWizard()
{
    NewJobWizard *wizard = createNewJobWizard();
    wizard->startImport();
    return showWizard(wizard);
}

WorkspaceWizard *MainWindow::openWorkspaceWizard(bool newWorkspace)
{
    auto *wizard = new WorkspaceWizard(m_backend, newWorkspace ? WorkspaceWizard::Mode::NewWorkspace
                                                               : WorkspaceWizard::Mode::NewExperiment, this);
    if (!newWorkspace) {
        if (const qint64 ws = selectedIdOf(ResourceTreeModel::Kind::Workspace))
            wizard->presetWorkspace(ws);
    }
    connect(wizard, &WorkspaceWizard::created, this, [this](const QString &key) {
        selectKey(key);
        statusBar()->showMessage(tr("Created"), 5000);
    });
    return showWizard(wizard);
}

ShareWizard *MainWindow::openShareWizard(bool upload)
{
    auto *wizard = new ShareWizard(m_backend, this);
    if (const qint64 ws = selectedIdOf(ResourceTreeModel::Kind::Workspace))
        wizard->presetWorkspace(ws);
    const qint64 share = selectedIdOf(ResourceTreeModel::Kind::Share);
    if (upload && share) {
        const QModelIndex current = m_tree->currentIndex();
        const bool folder = current.data(ResourceTreeModel::KindRole).value<ResourceTreeModel::Kind>()
            == ResourceTreeModel::Kind::ShareFolder;
        wizard->startUpload(share, folder ? current.data().toString() : QString());
    }
    // The worker published the snapshot with the new share or folder before it answered.
    connect(wizard, &ShareWizard::finishedWith, this, [this](const QString &key) { selectKey(key); });
    return showWizard(wizard);
}

DataSetsDialog *MainWindow::openDataSetsDialog()
{
    const Share *share = m_backend->snapshot().findShare(selectedIdOf(ResourceTreeModel::Kind::Share));
    if (!share)
        return nullptr;
    auto *dialog = new DataSetsDialog(DataPaths::databasePath(), *share, this);
    // A fetch adds the data set's folder to the share: the tree shows it.
    connect(dialog, &DataSetsDialog::fetchFinished, m_backend, &Backend::pollNow);
    return showWizard(dialog);
}

void MainWindow::exportSelectedJob(const QString &path)
{
    if (const Job *job = selectedJob())
        m_exportRequest = m_backend->writeFile(path, job->spec);
}

} // namespace TrainDesk::Ui

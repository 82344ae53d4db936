#pragma once

#include "tree/ResourceTreeModel.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

class QAction;
class QLabel;

class QSplitter;
class QStackedWidget;
class QTreeView;

namespace TrainDesk {
class Backend;
struct Job;
}

namespace TrainDesk::Ui {

class ClusterView;
class DataSetsDialog;
class JobNotifier;
class NotificationBar;
class JobView;
class NewJobWizard;
class NewSweepWizard;
class SweepView;
class ResourceInfoView;
class RunsView;
class ShareBrowser;
class ShareWizard;
class WorkspaceWizard;

// Opens the data directory (creating the embedded defaults on first start), starts the
// Backend, shows the main window and runs the event loop. Needs a QApplication.
int runMainWindow();

// The resource tree on the left, the selected resource's tabs on the right, a toolbar
// for what can be done to it and the number of running jobs in the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Backend *backend, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Selects the tree row with this key (ResourceTreeModel::keyFor); false when absent.
    bool selectKey(const QString &key);
    // Selects the first job, node, cluster... whose name is `name`.
    bool selectByName(const QString &name);
    QString selectedKey() const;

    ResourceTreeModel *treeModel() const { return m_model; }
    QTreeView *treeView() const { return m_tree; }
    JobView *jobView() const { return m_jobView; }
    ClusterView *clusterView() const { return m_clusterView; }
    ResourceInfoView *infoView() const { return m_infoView; }
    // The Runs tab of a workspace or experiment, the Files tab of a share.
    RunsView *runsView() const { return m_runsView; }
    SweepView *sweepView() const { return m_sweepView; }
    ShareBrowser *shareBrowser() const { return m_shareBrowser; }
    JobNotifier *notifier() const { return m_notifier; }
    NotificationBar *notificationBar() const { return m_notificationBar; }
    QWidget *currentView() const;
    QAction *startAction() const { return m_startAction; }
    QAction *terminateAction() const { return m_terminateAction; }
    QAction *deleteJobAction() const { return m_deleteJobAction; }
    QAction *userGuideAction() const { return m_userGuideAction; }
    QAction *shortcutsAction() const { return m_shortcutsAction; }
    QAction *aboutAction() const { return m_aboutAction; }
    // The open "terminate?" or "delete?" question, else null.
    QMessageBox *pendingQuestion() const { return m_question; }
    QAction *refreshAction() const { return m_refreshAction; }
    QAction *downloadAction() const { return m_downloadAction; }
    QAction *newJobAction() const { return m_newJobAction; }
    QAction *cloneJobAction() const { return m_cloneJobAction; }
    QAction *importJobAction() const { return m_importJobAction; }
    QAction *exportJobAction() const { return m_exportJobAction; }
    QAction *newWorkspaceAction() const { return m_newWorkspaceAction; }
    QAction *newExperimentAction() const { return m_newExperimentAction; }
    QAction *newShareAction() const { return m_newShareAction; }
    QAction *uploadAction() const { return m_uploadAction; }
    QAction *dataSetsAction() const { return m_dataSetsAction; }
    QString jobsStatusText() const;
    // The selected running job's epoch and ETA (JobProgress), empty otherwise.

    // The wizards, opened window-modal (not blocking) and deleted when closed; each
    // selects what it made in the tree.
    NewJobWizard *openNewJobWizard();
    NewJobWizard *openCloneWizard(qint64 jobId);
    NewJobWizard *openImportWizard();
    // A sweep from the selected job (or the experiment's first).
    NewSweepWizard *openNewSweepWizard();
    WorkspaceWizard *openWorkspaceWizard(bool newWorkspace);
    ShareWizard *openShareWizard(bool upload);
    // The data sets of the selected share (nullptr when no share is selected).
    DataSetsDialog *openDataSetsDialog();
    // Writes the selected job's job.json to `path` (in the worker).
    void exportSelectedJob(const QString &path);
    // Ask first (pendingQuestion()), then terminate or delete the job.
    void confirmTerminate(qint64 jobId);
    void confirmDelete(qint64 jobId);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void fitStateColumn();
    // The constructor's steps (MainWindow.cpp).
    void setUpTree();
    void layOutViews();
    void setUpStatusBar();
    void connectViews();
    void connectBackend();
    // createActions' steps (MainWindowActions.cpp).
    void createActions();
    void createJobActions();
    void createRunActions();
    void createResourceActions();
    QAction *createNewClusterAction();
    void openClusterWizard();
    void createWindowActions();
    void createToolBar(QAction *newCluster);
    void createMenus();
    void createHelpMenu();
    QAction *addAction(const QString &icon, const QString &text, const QKeySequence &shortcut, const QString &toolTip);
    void showTreeMenu(const QPoint &pos);
    // What the tree's selection lies in (0 when it lies in none): to preset the wizards.
    qint64 selectedIdOf(ResourceTreeModel::Kind kind) const;
    NewJobWizard *createNewJobWizard();
    template<typename Wizard>
    Wizard *showWizard(Wizard *wizard);
    void onSnapshot();
    void showSelection();
    void updateActions();
    void updateStatus();
    void updateProgress();
    const Job *selectedJob() const;
    void saveSettings() const;
    void restoreSettings();

    Backend *m_backend;
    ResourceTreeModel *m_model;
    QTreeView *m_tree;
    QSplitter *m_splitter;
    QStackedWidget *m_stack;
    QWidget *m_emptyPage;
    JobView *m_jobView;
    ClusterView *m_clusterView;
    ResourceInfoView *m_infoView;
    RunsView *m_runsView;
    SweepView *m_sweepView;
    ShareBrowser *m_shareBrowser;
    JobNotifier *m_notifier;
    NotificationBar *m_notificationBar;
    QAction *m_startAction = nullptr;
    QAction *m_terminateAction = nullptr;
    QAction *m_deleteJobAction = nullptr;
    QAction *m_userGuideAction = nullptr;
    QAction *m_shortcutsAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QPointer<QMessageBox> m_question;
    int m_deleteRequest = 0;
    QAction *m_refreshAction = nullptr;
    QAction *m_downloadAction = nullptr;
    QAction *m_newJobAction = nullptr;
    QAction *m_cloneJobAction = nullptr;
    QAction *m_newSweepAction = nullptr;
    QAction *m_importJobAction = nullptr;
    QAction *m_exportJobAction = nullptr;
    QAction *m_newWorkspaceAction = nullptr;
    QAction *m_newExperimentAction = nullptr;
    QAction *m_newShareAction = nullptr;
    QAction *m_uploadAction = nullptr;
    QAction *m_dataSetsAction = nullptr;
    QAction *m_quitAction = nullptr;
    int m_exportRequest = 0;
    QLabel *m_jobsLabel;
    QLabel *m_progressLabel;
    bool m_firstSnapshot = true;
    QString m_restoredKey;
    QString m_selectWhenSeen;  // a resource just created, selected when a snapshot has it
};

} // namespace TrainDesk::Ui

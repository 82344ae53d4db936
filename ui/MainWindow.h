#pragma once

#include "tree/ResourceTreeModel.h"

#include <QMainWindow>

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
class JobView;
class ResourceInfoView;

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
    QWidget *currentView() const;
    QAction *startAction() const { return m_startAction; }
    QAction *terminateAction() const { return m_terminateAction; }
    QAction *refreshAction() const { return m_refreshAction; }
    QAction *downloadAction() const { return m_downloadAction; }
    QString jobsStatusText() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void onSnapshot();
    void showSelection();
    void updateActions();
    void updateStatus();
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
    QAction *m_startAction = nullptr;
    QAction *m_terminateAction = nullptr;
    QAction *m_refreshAction = nullptr;
    QAction *m_downloadAction = nullptr;
    QLabel *m_jobsLabel;
    bool m_firstSnapshot = true;
    QString m_restoredKey;
};

} // namespace TrainDesk::Ui

#pragma once

#include "session/ResourceSnapshot.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

namespace TrainDesk {
class ClusterWorker;
}

namespace TrainDesk::Ui {

class ProbeCheckList;

// The cluster view's actions: resize to a node count, test the connection (a probe whose
// checks stream into a list), run the setup task again on every node (its steps stream
// into the same list; nodes that join run it anyway) and remove. They run on a
// ClusterWorker; the buttons wait while one runs.
class ClusterActions : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterActions(const QString &databasePath, QWidget *parent = nullptr);
    ~ClusterActions() override;

    void setCluster(qint64 clusterId, const ResourceSnapshot &snapshot);

    void resize(int targetNodeCount);
    void testConnection();
    void runSetup();
    void remove();  // no question asked: the Remove button asks first

Q_SIGNALS:
    // A resize, removal or setup run changed the cluster: the snapshot is out of date.
    void clusterChanged(qint64 clusterId);

private:
    void confirmRemove();
    void setBusy(bool busy);
    void done(int requestId, const QString &error, const QString &success);
    void addMessage(int requestId, const QString &line);

    ClusterWorker *m_worker;
    QString m_workspace;
    QString m_cluster;
    qint64 m_clusterId = 0;
    int m_requestId = 0;
    bool m_hasSetupTask = false;
    bool m_runningSetup = false;  // its steps go to the list (a resize's do not)
    QSpinBox *m_nodeCount;
    QPushButton *m_resize;
    QPushButton *m_test;
    QPushButton *m_setup;
    QPushButton *m_remove;
    QLabel *m_status;
    ProbeCheckList *m_checks;
};

} // namespace TrainDesk::Ui

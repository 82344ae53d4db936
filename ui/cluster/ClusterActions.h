#pragma once

#include "session/ResourceSnapshot.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace TrainDesk {
class ClusterWorker;
}

namespace TrainDesk::Ui {

// The cluster view's actions: resize to a node count, test the connection (a probe whose
// checks stream into a list) and remove. They run on a ClusterWorker; the buttons wait
// while one runs. (Setup tasks run when nodes join: resizing up re-runs them.)
class ClusterActions : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterActions(const QString &databasePath, QWidget *parent = nullptr);
    ~ClusterActions() override;

    void setCluster(qint64 clusterId, const ResourceSnapshot &snapshot);

    void resize(int targetNodeCount);
    void testConnection();
    void remove();  // no question asked: the Remove button asks first

Q_SIGNALS:
    // A resize or removal went through: the snapshot is out of date.
    void clusterChanged(qint64 clusterId);

private:
    void confirmRemove();
    void setBusy(bool busy);
    void done(int requestId, const QString &error, const QString &success);

    ClusterWorker *m_worker;
    QString m_workspace;
    QString m_cluster;
    qint64 m_clusterId = 0;
    int m_requestId = 0;
    QSpinBox *m_nodeCount;
    QPushButton *m_resize;
    QPushButton *m_test;
    QPushButton *m_remove;
    QLabel *m_status;
    QTreeWidget *m_checks;
};

} // namespace TrainDesk::Ui

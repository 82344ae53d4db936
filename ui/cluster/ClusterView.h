#pragma once

#include "session/ResourceSnapshot.h"

#include <QTabWidget>

class QLabel;
class QTableView;

namespace TrainDesk::Ui {

class ClusterActions;
class ClusterSummaryModel;
class NodeTableModel;

// A cluster: its summary row (as `cluster show` prints it) above the table of its nodes.
class ClusterView : public QTabWidget
{
    Q_OBJECT

public:
    explicit ClusterView(QWidget *parent = nullptr);

    void showCluster(qint64 clusterId, const ResourceSnapshot &snapshot);
    qint64 clusterId() const { return m_clusterId; }
    ClusterSummaryModel *summaryModel() const { return m_summary; }
    NodeTableModel *nodeModel() const { return m_nodes; }
    ClusterActions *actions() const { return m_actions; }

private:
    qint64 m_clusterId = 0;
    QLabel *m_details;
    ClusterSummaryModel *m_summary;
    NodeTableModel *m_nodes;
    QTableView *m_summaryView;
    QTableView *m_nodeView;
    ClusterActions *m_actions;
};

} // namespace TrainDesk::Ui

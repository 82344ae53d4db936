#pragma once

#include "ClusterSummary.h"

#include <QAbstractTableModel>

namespace TrainDesk::Ui {

// Clusters as `cluster show` prints them: Name, State, Idle, Running, Preparing, Leaving,
// Unusable. Rows update in place while the clusters stay the same.
class ClusterSummaryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, StateColumn, IdleColumn, RunningColumn, PreparingColumn, LeavingColumn, UnusableColumn, ColumnCount };

    explicit ClusterSummaryModel(QObject *parent = nullptr);

    void setClusters(const QList<ResourceSnapshot::ClusterEntry> &clusters);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<qint64> m_ids;
    QList<ClusterSummary> m_rows;
};

} // namespace TrainDesk::Ui

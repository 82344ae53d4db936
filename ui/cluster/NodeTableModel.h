#pragma once

#include "session/ResourceSnapshot.h"

#include <QAbstractTableModel>

namespace TrainDesk::Ui {

// A cluster's nodes: name, host, port, user, state, slots, the job on it, last seen and
// why it is unusable. Rows update in place while the nodes stay the same.
class NodeTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, HostColumn, PortColumn, UserColumn, StateColumn, SlotsColumn, JobColumn,
                  LastSeenColumn, ErrorColumn, ColumnCount };

    explicit NodeTableModel(QObject *parent = nullptr);

    void setCluster(qint64 clusterId, const ResourceSnapshot &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        Node node;
        QString job;
        bool operator==(const Row &o) const;
    };
    QList<Row> m_rows;
};

} // namespace TrainDesk::Ui

#include "NodeTableModel.h"

#include "common/StateStyle.h"

namespace TrainDesk::Ui {

bool NodeTableModel::Row::operator==(const Row &o) const
{
    return node.id == o.node.id && node.name == o.node.name && node.host == o.node.host && node.port == o.node.port
        && node.user == o.node.user && node.state == o.node.state && node.slotCount == o.node.slotCount
        && node.stateReason == o.node.stateReason && node.lastSeen == o.node.lastSeen && job == o.job;
}

NodeTableModel::NodeTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setCluster(qint64 clusterId, const ResourceSnapshot &snapshot)
{
    QList<Row> rows;
    if (const ResourceSnapshot::ClusterEntry *entry = snapshot.findCluster(clusterId)) {
        for (const Node &n : entry->nodes) {
            const Job *job = snapshot.activeJobOnNode(clusterId, n.name);
            rows.append({n, job ? job->name : QString()});
        }
    }
    bool sameNodes = rows.size() == m_rows.size();
    for (int r = 0; sameNodes && r < rows.size(); ++r)
        sameNodes = rows[r].node.id == m_rows[r].node.id;
    if (!sameNodes) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    for (int r = 0; r < rows.size(); ++r) {
        if (!(rows[r] == m_rows[r])) {
            m_rows[r] = rows[r];
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
        }
    }
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row &row = m_rows.at(index.row());
    const Node &n = row.node;
    if (role == Qt::DecorationRole && index.column() == StateColumn)
        return stateIcon(stateColor(n.state));
    if (role == Qt::ToolTipRole && index.column() == ErrorColumn && !n.stateReason.isEmpty())
        return n.stateReason;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn: return n.index == 0 ? tr("%1 (head)").arg(n.name) : n.name;
    case HostColumn: return n.host;
    case PortColumn: return n.port > 0 ? QVariant(n.port) : QVariant(QStringLiteral("—"));
    case UserColumn: return n.user;
    case StateColumn: return toString(n.state);
    case SlotsColumn: return n.slotCount;
    case JobColumn: return row.job.isEmpty() ? QStringLiteral("—") : row.job;
    case LastSeenColumn: return formatTime(n.lastSeen);
    case ErrorColumn: return n.stateReason;
    default: return {};
    }
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const titles[] = {QT_TR_NOOP("Name"), QT_TR_NOOP("Host"), QT_TR_NOOP("Port"), QT_TR_NOOP("User"),
                                         QT_TR_NOOP("State"), QT_TR_NOOP("Slots"), QT_TR_NOOP("Current job"),
                                         QT_TR_NOOP("Last seen"), QT_TR_NOOP("Error")};
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}

} // namespace TrainDesk::Ui

#include "ClusterSummaryModel.h"

namespace TrainDesk::Ui {

ClusterSummaryModel::ClusterSummaryModel(QObject *parent) : QAbstractTableModel(parent) {}

void ClusterSummaryModel::setClusters(const QList<ResourceSnapshot::ClusterEntry> &clusters)
{
    QList<qint64> ids;
    QList<ClusterSummary> rows;
    for (const ResourceSnapshot::ClusterEntry &c : clusters) {
        ids.append(c.cluster.id);
        rows.append(ClusterSummary::of(c));
    }
    if (ids != m_ids) {
        // Another set of clusters: a new table, not an update.
        beginResetModel();
        m_ids = ids;
        m_rows = rows;
        endResetModel();
        return;
    }
    for (int r = 0; r < rows.size(); ++r) {
        const ClusterSummary &a = m_rows[r];
        const ClusterSummary &b = rows[r];
        if (a.name != b.name || a.state != b.state || a.idle != b.idle || a.running != b.running
            || a.preparing != b.preparing || a.leaving != b.leaving || a.unusable != b.unusable) {
            m_rows[r] = b;
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
        }
    }
}

int ClusterSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ClusterSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() >= IdleColumn ? QVariant(Qt::AlignCenter) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    const ClusterSummary &s = m_rows.at(index.row());
    switch (index.column()) {
    case NameColumn: return s.name;
    case StateColumn: return s.state;
    case IdleColumn: return s.idle;
    case RunningColumn: return s.running;
    case PreparingColumn: return s.preparing;
    case LeavingColumn: return s.leaving;
    case UnusableColumn: return s.unusable;
    default: return {};
    }
}

QVariant ClusterSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const titles[] = {QT_TR_NOOP("Name"), QT_TR_NOOP("State"), QT_TR_NOOP("Idle"), QT_TR_NOOP("Running"),
                                         QT_TR_NOOP("Preparing"), QT_TR_NOOP("Leaving"), QT_TR_NOOP("Unusable")};
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}

} // namespace TrainDesk::Ui

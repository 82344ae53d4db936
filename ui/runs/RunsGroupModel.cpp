#include "RunsGroupModel.h"

#include "RunsTableModel.h"

#include <QAbstractProxyModel>
#include <QMap>

#include <cmath>

namespace TrainDesk::Ui {

RunsGroupModel::RunsGroupModel(RunsTableModel *source, QAbstractItemModel *rows, QObject *parent)
    : QAbstractTableModel(parent), m_source(source), m_rows(rows)
{
    // Whatever changes the rows shown (a filter, a sort, new summaries) changes the groups.
    connect(rows, &QAbstractItemModel::modelReset, this, &RunsGroupModel::rebuild);
    connect(rows, &QAbstractItemModel::layoutChanged, this,
            [this](const QList<QPersistentModelIndex> &, QAbstractItemModel::LayoutChangeHint hint) {
                // A sort changes the order, not the groups (10,000 runs x their metrics read again).
                if (hint != QAbstractItemModel::VerticalSortHint)
                    rebuild();
            });
    connect(rows, &QAbstractItemModel::rowsInserted, this, &RunsGroupModel::rebuild);
    connect(rows, &QAbstractItemModel::rowsRemoved, this, &RunsGroupModel::rebuild);
    connect(rows, &QAbstractItemModel::dataChanged, this, &RunsGroupModel::rebuild);
}

void RunsGroupModel::setGroupKey(const QString &key)
{
    m_key = key;
    rebuild();
}

std::pair<double, double> RunsGroupModel::meanAndSpread(const QList<double> &values)
{
    if (values.isEmpty())
        return {NAN, NAN};
    double sum = 0;
    for (double v : values)
        sum += v;
    const double mean = sum / double(values.size());
    if (values.size() < 2)
        return {mean, 0};
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return {mean, std::sqrt(squares / double(values.size() - 1))};
}

void RunsGroupModel::rebuild()
{
    beginResetModel();
    m_groups.clear();
    m_metricColumns.clear();
    const int keyColumn = m_key.isEmpty() ? -1 : m_source->columnOfKey(m_key);
    if (keyColumn >= 0 && m_rows) {
        for (int c = RunsTableModel::FixedColumns; c < m_source->columnCount(); ++c) {
            if (m_source->isMetricColumn(c))
                m_metricColumns << c;
        }
        QMap<QString, Group> groups;  // by value, in order
        // The table's cells read from the table itself, not through the proxy of the rows
        // shown (10,000 runs x 17 cells mapped at each filter).
        const auto *proxy = qobject_cast<const QAbstractProxyModel *>(m_rows);
        const bool mapped = proxy && proxy->sourceModel() == m_source;
        const QAbstractItemModel *cells = mapped ? m_source : m_rows;
        for (int r = 0; r < m_rows->rowCount(); ++r) {
            const int row = mapped ? proxy->mapToSource(proxy->index(r, 0)).row() : r;
            const QString value = cells->index(row, keyColumn).data().toString();
            Group &g = groups[value];
            g.value = value;
            ++g.runs;
            g.values.resize(m_metricColumns.size());
            for (qsizetype m = 0; m < m_metricColumns.size(); ++m) {
                const QVariant v = cells->index(row, m_metricColumns.at(m)).data(RunsTableModel::SortRole);
                if (v.typeId() == QMetaType::Double)
                    g.values[m].append(v.toDouble());
            }
        }
        m_groups = groups.values();
    }
    endResetModel();
}

int RunsGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int RunsGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_groups.isEmpty() ? 0 : 2 + int(m_metricColumns.size());
}

QVariant RunsGroupModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_groups.size())
        return {};
    const Group &g = m_groups.at(index.row());
    if (index.column() == 0)
        return role == Qt::DisplayRole || role == Qt::ToolTipRole ? QVariant(g.value.isEmpty() ? tr("(none)") : g.value)
                                                                  : QVariant();
    if (index.column() == 1)
        return role == Qt::DisplayRole || role == CountRole ? QVariant(g.runs) : QVariant();
    const qsizetype m = index.column() - 2;
    const auto [mean, spread] = meanAndSpread(g.values.value(m));
    switch (role) {
    case Qt::DisplayRole:
        if (std::isnan(mean))
            return QString();
        return g.values.at(m).size() < 2 ? QString::number(mean, 'g', 5)
                                         : QStringLiteral("%1 ± %2").arg(QString::number(mean, 'g', 5), QString::number(spread, 'g', 2));
    case Qt::ToolTipRole:
        return std::isnan(mean) ? QVariant()
                                : QVariant(tr("Mean of %1 runs; ± the sample standard deviation").arg(g.values.at(m).size()));
    case MeanRole: return std::isnan(mean) ? QVariant() : QVariant(mean);
    case SpreadRole: return std::isnan(spread) ? QVariant() : QVariant(spread);
    case CountRole: return int(g.values.at(m).size());
    case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant RunsGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return m_key;
    if (section == 1)
        return tr("runs");
    return m_source->headerData(m_metricColumns.value(section - 2), Qt::Horizontal, Qt::DisplayRole);
}

} // namespace TrainDesk::Ui

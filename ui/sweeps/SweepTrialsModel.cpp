#include "SweepTrialsModel.h"

#include "charts/ChartLines.h"
#include "charts/ParameterTable.h"
#include "common/StateStyle.h"

#include <QFont>
#include <QJsonValue>

namespace TrainDesk::Ui {

namespace {

QVariant jsonVariant(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

QString metricText(const std::optional<double> &v) { return v ? QString::number(*v, 'g', 5) : QString(); }

} // namespace

SweepTrialsModel::SweepTrialsModel(QObject *parent) : QAbstractTableModel(parent) {}

void SweepTrialsModel::setSummary(const SweepSummary &summary)
{
    const QStringList columns = summary.parameterColumns();
    const bool reshape = columns != m_columns || summary.sweep.metric != m_summary.sweep.metric
        || summary.trials.size() != m_summary.trials.size() || summary.sweep.id != m_summary.sweep.id;
    if (reshape)
        beginResetModel();
    m_summary = summary;
    m_columns = columns;
    if (reshape)
        endResetModel();
    else if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

ParameterTable SweepTrialsModel::parameterTable() const
{
    ParameterTable table;
    table.parameters = m_columns;
    table.metric = m_summary.sweep.metric;
    table.maximize = m_summary.sweep.maximize;
    for (const TrialRow &t : m_summary.trials) {
        ParameterTable::Row row;
        row.label = t.job;
        for (const QString &c : m_columns)
            row.values << jsonVariant(SweepSummary::parameterValue(t.params, c));
        row.metric = t.best;
        row.highlighted = t.index == m_summary.bestIndex;
        if (t.jobId)
            row.color = ChartLines::runColor(t.jobId);  // as in the charts and the runs table
        table.rows << row;
    }
    return table;
}

int SweepTrialsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_summary.trials.size()); }

int SweepTrialsModel::columnCount(const QModelIndex &parent) const
{
    // Trial, parameters, State, then Best, Last and Evaluations with a metric, and Note.
    return parent.isValid() ? 0 : 1 + int(m_columns.size()) + 1 + (m_summary.sweep.metric.isEmpty() ? 0 : 3) + 1;
}

QVariant SweepTrialsModel::valueAt(const TrialRow &row, int column) const
{
    if (column == 0)
        return row.index;
    if (column <= m_columns.size())
        return jsonVariant(SweepSummary::parameterValue(row.params, m_columns[column - 1]));
    if (column == stateColumn())
        return row.state;
    const bool metric = !m_summary.sweep.metric.isEmpty();
    if (metric && column == bestColumn())
        return row.best ? QVariant(*row.best) : QVariant();
    if (metric && column == bestColumn() + 1)
        return row.last ? QVariant(*row.last) : QVariant();
    if (metric && column == bestColumn() + 2)
        return row.evaluations;
    return row.status == TrialStatus::EarlyStopped ? tr("stopped early: %1").arg(row.reason) : row.reason;
}

QVariant SweepTrialsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_summary.trials.size())
        return {};
    const TrialRow &row = m_summary.trials[index.row()];
    const bool best = row.index == m_summary.bestIndex;
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: {
        if (column == 0)
            return best ? QStringLiteral("★ %1").arg(row.job) : row.job;
        const bool metric = !m_summary.sweep.metric.isEmpty();
        if (metric && column == bestColumn())
            return metricText(row.best);
        if (metric && column == bestColumn() + 1)
            return metricText(row.last);
        if (column == stateColumn() && row.status == TrialStatus::EarlyStopped)
            return tr("stopped early");
        const QVariant v = valueAt(row, column);
        return v.typeId() == QMetaType::Double ? QVariant(QString::number(v.toDouble(), 'g', 6)) : v;
    }
    case SortRole:
        return valueAt(row, column);
    case JobIdRole:
        return row.jobId;
    case BestRole:
        return best;
    case Qt::FontRole:
        if (best) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == 0 && best)
            return tr("The best trial by %1 (%2)").arg(m_summary.sweep.metric,
                                                       m_summary.sweep.maximize ? tr("highest") : tr("lowest"));
        if (!row.reason.isEmpty())
            return row.reason;
        return {};
    case Qt::TextAlignmentRole:
        if (column > 0 && column != stateColumn() && valueAt(row, column).typeId() == QMetaType::Double)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant SweepTrialsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("Trial");
    if (section <= m_columns.size())
        return m_columns[section - 1];
    if (section == stateColumn())
        return tr("State");
    if (!m_summary.sweep.metric.isEmpty()) {
        if (section == bestColumn())
            return tr("Best %1").arg(m_summary.sweep.metric);
        if (section == bestColumn() + 1)
            return tr("Last");
        if (section == bestColumn() + 2)
            return tr("Evaluations");
    }
    return tr("Note");
}

} // namespace TrainDesk::Ui

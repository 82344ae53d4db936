#pragma once

#include "sweeps/SweepSummary.h"

#include <QAbstractTableModel>

namespace TrainDesk::Ui {

struct ParameterTable;

// A sweep's trials as a table: the trial, one column per parameter (a DictParam's keys each
// their own), its state, the metric's best and last value, its evaluations, and why it was
// stopped or refused. The best trial is marked (★, bold). SortRole gives numbers as numbers,
// so a QSortFilterProxyModel sorts 1e-4 before 0.01.
class SweepTrialsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role { SortRole = Qt::UserRole + 1, JobIdRole, BestRole };

    explicit SweepTrialsModel(QObject *parent = nullptr);

    void setSummary(const SweepSummary &summary);
    const SweepSummary &summary() const { return m_summary; }
    // The plots' input: each trial's values and best metric, the best trial highlighted.
    ParameterTable parameterTable() const;

    int stateColumn() const { return 1 + int(m_columns.size()); }
    int bestColumn() const { return stateColumn() + 1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant valueAt(const TrialRow &row, int column) const;  // what SortRole gives

    SweepSummary m_summary;
    QStringList m_columns;  // the parameter columns
};

} // namespace TrainDesk::Ui

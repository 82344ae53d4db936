#pragma once

#include "charts/ParameterTable.h"

#include <QList>
#include <QPair>
#include <QStringList>

namespace TrainDesk::Ui {

class RunsTableModel;

// The runs table's rows as the parallel-coordinates plot and the parameter scatter read
// them (ParameterTable): the settings that differ between the runs drawn, and one metric
// column's value. Widget-free, so what the plots get is tested without drawing.
namespace RunsParameterTable {

// The metric columns a plot can use, as (key, header): "best_val_acc", "val_acc (best)".
QList<QPair<QString, QString>> metricChoices(const RunsTableModel &model);
// The metric a plot starts with: the best validation accuracy where there is one, then the
// best validation loss, then the first metric column; "" without any.
QString defaultMetric(const RunsTableModel &model);
// Every run's settings in `model`, as the plots read them: each setting column (metrics
// left out), each row's value an index into the column's distinct values. Made once per
// change of the model (walking 10,000 runs' settings is most of a table's making); a table
// for some of its runs (a filter, a choice) then picks rows from it.
struct Settings
{
    struct Column
    {
        QString name;
        QStringList texts;        // its distinct values as the table shows them; 0: "" (none)
        QList<QVariant> values;   // the same as a plot reads them: a number, a word, null
        QList<int> ofRow;         // per row of the model: an index into texts
    };
    int rowCount = 0;             // the model's rows when it was made
    QList<Column> columns;        // in the table's order
};
Settings settingsOf(const RunsTableModel &model);

// The runs `jobIds` (in this order; ids not in the table are left out) against
// `metricKey`. The axes are the setting columns not hidden whose value differs between
// these runs (all those with a value when none differs); each row carries its run's colour
// (the table's swatch).
ParameterTable of(const RunsTableModel &model, const QList<qint64> &jobIds, const QString &metricKey,
                  const QStringList &hiddenKeys);
// The same from `settings`, made by settingsOf(model) since the model last changed.
ParameterTable of(const RunsTableModel &model, const Settings &settings, const QList<qint64> &jobIds,
                  const QString &metricKey, const QStringList &hiddenKeys);
// The same table against another metric: `table`'s rows (made by of() from `model`) keep
// their settings, each takes its run's value of `metricKey` (a plot's metric changed: the
// settings of 10,000 runs are not read again).
void setMetric(ParameterTable &table, const RunsTableModel &model, const QString &metricKey);

} // namespace RunsParameterTable
} // namespace TrainDesk::Ui

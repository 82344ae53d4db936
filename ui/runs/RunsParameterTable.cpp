#include "RunsParameterTable.h"

#include "RunsTableModel.h"
#include "metrics/RunSummary.h"

#include <QHash>
#include <QSet>

namespace TrainDesk::Ui::RunsParameterTable {

namespace {

// A setting's cell as a plot axis reads it: a number, a word, or null where the run has none.
QVariant valueOf(const QString &text)
{
    if (text.isEmpty())
        return {};
    bool number = false;
    const double value = text.toDouble(&number);
    return number ? QVariant(value) : QVariant(text);
}

} // namespace

QList<QPair<QString, QString>> metricChoices(const RunsTableModel &model)
{
    QList<QPair<QString, QString>> choices;
    for (int c = 0; c < model.columnCount(); ++c) {
        if (model.isMetricColumn(c))
            choices.append({model.keyOf(c), model.headerData(c, Qt::Horizontal).toString()});
    }
    return choices;
}

QString defaultMetric(const RunsTableModel &model)
{
    for (const char *key : {"best_val_acc", "best_val_loss", "best_acc", "best_loss"}) {
        if (model.columnOfKey(QLatin1String(key)) >= 0)
            return QLatin1String(key);
    }
    const auto choices = metricChoices(model);
    return choices.isEmpty() ? QString() : choices.first().first;
}

ParameterTable of(const RunsTableModel &model, const QList<qint64> &jobIds, const QString &metricKey,
                  const QStringList &hiddenKeys)
{
    QList<int> rows;
    for (qint64 id : jobIds) {
        if (const int row = model.rowOf(id); row >= 0)
            rows.append(row);
    }
    // The settings shown in the table, and which of them tell these runs apart. Each cell is
    // read once (10,000 runs x 28 settings), for both questions and the rows below.
    QList<int> differing;
    QList<int> withValue;
    QHash<int, QStringList> texts;  // by column, per row in `rows`
    for (int c = RunsTableModel::FixedColumns; c < model.columnCount(); ++c) {
        if (model.isMetricColumn(c) || hiddenKeys.contains(model.keyOf(c), Qt::CaseInsensitive))
            continue;
        QStringList &column = texts[c];
        column.reserve(rows.size());
        QSet<QString> values;  // "" where a run has none: a difference too
        for (int row : std::as_const(rows)) {
            column.append(model.index(row, c).data().toString());
            values.insert(column.constLast());
        }
        if (values.size() > 1)
            differing.append(c);
        if (values.size() > 1 || !values.contains(QString()))
            withValue.append(c);
    }
    const QList<int> axes = differing.isEmpty() ? withValue : differing;

    ParameterTable table;
    for (int c : axes)
        table.parameters.append(model.keyOf(c));
    const int metricColumn = metricKey.isEmpty() ? -1 : model.columnOfKey(metricKey);
    if (metricColumn >= 0 && model.isMetricColumn(metricColumn)) {
        table.metric = model.headerData(metricColumn, Qt::Horizontal).toString();
        QString name = model.keyOf(metricColumn);
        if (name.startsWith(QLatin1String("best_")))
            name = name.mid(5);
        table.maximize = !RunSummary::lowerIsBetter(name);
    }
    QList<const QStringList *> axisTexts;
    for (int c : axes)
        axisTexts.append(&texts[c]);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const int row = rows.at(i);
        ParameterTable::Row r;
        r.label = model.index(row, RunsTableModel::JobColumn).data().toString();
        for (const QStringList *column : std::as_const(axisTexts))
            r.values.append(valueOf(column->at(i)));
        if (metricColumn >= 0 && !table.metric.isEmpty()) {
            const QVariant v = model.index(row, metricColumn).data(RunsTableModel::SortRole);
            if (v.isValid() && !v.isNull())
                r.metric = v.toDouble();
        }
        r.color = model.colorOf(model.index(row, 0).data(RunsTableModel::JobIdRole).toLongLong());
        table.rows.append(r);
    }
    return table;
}

} // namespace RunsParameterTable

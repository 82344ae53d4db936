#include "RunsParameterTable.h"

#include "RunsTableModel.h"
#include "metrics/RunSummary.h"

#include <QHash>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace TrainDesk::Ui::RunsParameterTable {

namespace {

// A setting's cell as a plot axis reads it: a number, a word, or null where the run has none.
QVariant valueOf(const QString &text)
{
    if (text.isEmpty())
        return {};
    // Most are plain numbers in ASCII: read straight (QString::toDouble goes through the
    // locale's parser). Anything else (spaces, a sign, a word) as before.
    char ascii[64];
    if (text.size() < qsizetype(sizeof ascii)) {
        qsizetype n = 0;
        for (; n < text.size() && text.at(n).unicode() < 128; ++n)
            ascii[n] = char(text.at(n).unicode());
        double value = 0;
        if (n == text.size()) {
            const auto [end, error] = std::from_chars(ascii, ascii + n, value);
            if (error == std::errc() && end == ascii + n && std::isfinite(value))
                return value;
        }
    }
    bool number = false;
    const double value = text.toDouble(&number);
    return number ? QVariant(value) : QVariant(text);
}

} // namespace

Settings settingsOf(const RunsTableModel &model)
{
    Settings settings;
    settings.rowCount = model.rowCount();
    QList<QHash<QString, int>> known;  // per column: its texts' indexes
    for (int c = RunsTableModel::FixedColumns; c < model.columnCount(); ++c) {
        if (model.isMetricColumn(c))
            continue;
        // Index 0: no value ("" where a run has none: the table shows it so).
        settings.columns.append({model.keyOf(c), {QString()}, {QVariant()}, QList<int>(settings.rowCount, 0)});
        known.append({{QString(), 0}});
    }
    // Each run's settings (maps by name) walked beside the column names in the same order.
    QList<std::pair<QString, int>> sorted;  // (name, its column)
    for (qsizetype c = 0; c < settings.columns.size(); ++c)
        sorted.append({settings.columns.at(c).name, int(c)});
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    auto take = [&](const QMap<QString, QString> &values, int row) {
        auto name = sorted.cbegin();
        for (auto it = values.cbegin(); it != values.cend() && name != sorted.cend(); ++it) {
            int order = 1;
            while (name != sorted.cend() && (order = QString::compare(name->first, it.key())) < 0)
                ++name;
            if (order != 0)
                continue;
            Settings::Column &column = settings.columns[name->second];
            int index = known[name->second].value(it.value(), -1);
            if (index < 0) {
                index = int(column.texts.size());
                known[name->second].insert(it.value(), index);
                column.texts.append(it.value());
                column.values.append(valueOf(it.value()));
            }
            column.ofRow[row] = index;
        }
    };
    for (int row = 0; row < settings.rowCount; ++row) {
        const RunsTableModel::RowView view = model.rowView(row);
        take(*view.commandLine, row);
        if (view.summary)
            take(view.summary->info, row);  // the info record wins
    }
    return settings;
}

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
    return of(model, settingsOf(model), jobIds, metricKey, hiddenKeys);
}

ParameterTable of(const RunsTableModel &model, const Settings &settings, const QList<qint64> &jobIds,
                  const QString &metricKey, const QStringList &hiddenKeys)
{
    QList<int> rows;
    rows.reserve(jobIds.size());
    for (qint64 id : jobIds) {
        if (const int row = model.rowOf(id); row >= 0 && row < settings.rowCount)
            rows.append(row);
    }
    // The settings shown in the table, and which of them tell these runs apart.
    QList<const Settings::Column *> differing;
    QList<const Settings::Column *> withValue;
    for (const Settings::Column &column : settings.columns) {
        if (hiddenKeys.contains(column.name, Qt::CaseInsensitive))
            continue;
        const int first = rows.isEmpty() ? 0 : column.ofRow.at(rows.first());
        const bool differs = std::any_of(rows.cbegin(), rows.cend(), [&](int row) { return column.ofRow.at(row) != first; });
        if (differs)
            differing.append(&column);
        if (differs || rows.isEmpty() || first != 0)
            withValue.append(&column);
    }
    const QList<const Settings::Column *> axes = differing.isEmpty() ? withValue : differing;

    ParameterTable table;
    for (const Settings::Column *column : axes)
        table.parameters.append(column->name);
    table.rows.reserve(rows.size());
    for (int row : std::as_const(rows)) {
        const RunsTableModel::RowView view = model.rowView(row);
        ParameterTable::Row r;
        r.id = view.job->id;
        r.label = view.job->name;
        r.values.reserve(axes.size());
        for (const Settings::Column *column : axes)
            r.values.append(column->values.at(column->ofRow.at(row)));
        r.color = model.colorOf(view.job->id);
        table.rows.append(std::move(r));
    }
    setMetric(table, model, metricKey);
    return table;
}

void setMetric(ParameterTable &table, const RunsTableModel &model, const QString &metricKey)
{
    table.metric.clear();
    table.maximize = true;
    const int metricColumn = metricKey.isEmpty() ? -1 : model.columnOfKey(metricKey);
    const bool isMetric = metricColumn >= 0 && model.isMetricColumn(metricColumn);
    if (isMetric) {
        table.metric = model.headerData(metricColumn, Qt::Horizontal).toString();
        QString name = model.keyOf(metricColumn);
        if (name.startsWith(QLatin1String("best_")))
            name = name.mid(5);
        table.maximize = !RunSummary::lowerIsBetter(name);
    }
    for (ParameterTable::Row &r : table.rows) {
        r.metric.reset();
        const int row = model.rowOf(r.id);
        if (!isMetric || row < 0)
            continue;
        const QVariant v = model.index(row, metricColumn).data(RunsTableModel::SortRole);
        if (v.isValid() && !v.isNull())
            r.metric = v.toDouble();
    }
}

} // namespace RunsParameterTable

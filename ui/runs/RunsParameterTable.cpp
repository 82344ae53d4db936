#include "RunsParameterTable.h"

#include "RunsTableModel.h"
#include "metrics/RunSummary.h"

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
    // locale's parser: a third of making the table of 10,000 runs). Anything else (spaces,
    // a sign, a word) as before.
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

// The settings of `rows` as their columns show them (the info record's over the command
// line's), one list per column of `names` (in that order), read from the rows directly:
// each run's settings (a map by name) walked once beside the names in the same order
// (10,000 runs x 28 settings through data() were 280,000 QVariants of text and map
// look-ups: 440 ms; a hash look-up per setting, 28 ms).
QList<QStringList> settingTexts(const RunsTableModel &model, const QList<int> &rows, const QStringList &names)
{
    QList<std::pair<QString, int>> sorted;  // (name, its column), by name as a map orders them
    for (qsizetype c = 0; c < names.size(); ++c)
        sorted.append({names.at(c), int(c)});
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<QStringList> texts(names.size());
    for (QStringList &column : texts)
        column.resize(rows.size());
    auto take = [&](const QMap<QString, QString> &settings, qsizetype i) {
        auto name = sorted.cbegin();
        for (auto it = settings.cbegin(); it != settings.cend() && name != sorted.cend(); ++it) {
            int order = 1;
            while (name != sorted.cend() && (order = QString::compare(name->first, it.key())) < 0)
                ++name;
            if (order == 0)
                texts[name->second][i] = it.value();
        }
    };
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const RunsTableModel::RowView row = model.rowView(rows.at(i));
        take(*row.commandLine, i);
        if (row.summary)
            take(row.summary->info, i);  // the info record wins
    }
    return texts;
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
    rows.reserve(jobIds.size());
    for (qint64 id : jobIds) {
        if (const int row = model.rowOf(id); row >= 0)
            rows.append(row);
    }
    // The settings shown in the table, and which of them tell these runs apart.
    QStringList names;
    for (int c = RunsTableModel::FixedColumns; c < model.columnCount(); ++c) {
        if (!model.isMetricColumn(c) && !hiddenKeys.contains(model.keyOf(c), Qt::CaseInsensitive))
            names.append(model.keyOf(c));
    }
    const QList<QStringList> texts = settingTexts(model, rows, names);
    QList<int> differing;
    QList<int> withValue;
    for (qsizetype c = 0; c < names.size(); ++c) {
        const QStringList &column = texts.at(c);
        // "" where a run has none: a difference too.
        const bool differs = std::any_of(column.cbegin(), column.cend(), [&column](const QString &t) { return t != column.first(); });
        if (differs)
            differing.append(int(c));
        if (differs || column.isEmpty() || !column.first().isEmpty())
            withValue.append(int(c));
    }
    const QList<int> axes = differing.isEmpty() ? withValue : differing;

    ParameterTable table;
    for (int c : axes)
        table.parameters.append(names.at(c));
    table.rows.reserve(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const RunsTableModel::RowView row = model.rowView(rows.at(i));
        ParameterTable::Row r;
        r.id = row.job->id;
        r.label = row.job->name;
        r.values.reserve(axes.size());
        for (int c : axes)
            r.values.append(valueOf(texts.at(c).at(i)));
        r.color = model.colorOf(row.job->id);
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

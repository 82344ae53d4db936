#include "MetricSeries.h"

#include "metrics/MetricRecord.h"

#include <cmath>

namespace TrainDesk::Cli {

namespace {

// The cells of the series' rows, in the order of the headers below.
QList<QStringList> seriesRows(const QList<QPair<qint64, QByteArray>> &records)
{
    const auto number = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 6); };
    const auto counter = [](qint64 v) { return v < 0 ? QString() : QString::number(v); };
    QList<QStringList> rows;
    for (const auto &[id, json] : records) {
        const auto m = MetricRecord::fromJson(json);
        if (!m || (m->kind != QLatin1String("train") && m->kind != QLatin1String("val") && m->kind != QLatin1String("epoch")))
            continue;
        rows.append({QString::number(m->time, 'f', 3), m->kind, counter(m->rank), counter(m->epoch), counter(m->step),
                     number(m->loss), number(m->acc), number(m->valLoss), number(m->valAcc)});
    }
    return rows;
}

} // namespace

Table metricSeriesTable(const QList<QPair<qint64, QByteArray>> &records)
{
    return {{"Time", "Kind", "Rank", "Epoch", "Step", "Loss", "Accuracy", "Val loss", "Val accuracy"}, seriesRows(records)};
}

QString metricSeriesCsv(const QList<QPair<qint64, QByteArray>> &records)
{
    // Every cell is a number or a kind name: nothing to quote.
    QString csv = QStringLiteral("time,kind,rank,epoch,step,loss,accuracy,val_loss,val_accuracy\n");
    for (const QStringList &row : seriesRows(records))
        csv += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    return csv;
}

} // namespace TrainDesk::Cli

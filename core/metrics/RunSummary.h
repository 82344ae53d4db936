#pragma once

#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QMetaType>
#include <QSet>
#include <QString>

namespace TrainDesk {

struct MetricRecord;

// What the runs table shows of one job besides its record: its settings (hyperparameters)
// and the last and best value of each metric: the values the job's charts draw. Built from the job's metric records (the
// lines of metrics.jsonl, or the records parsed from Keras progress) one at a time, so a
// reader can go on from where it stopped.
struct RunSummary
{
    struct Value
    {
        double last = 0;
        double best = 0;
    };

    // The settings the trainer reported in its `info` record (numbers and words as text).
    QMap<QString, QString> info;
    // By metric name: loss, acc, val_loss, val_acc, images_per_sec and any other number a
    // train, val, epoch or done record carries that is not a counter.
    QMap<QString, Value> metrics;
    // The metrics train and val records carry: epoch and done records do not overwrite them.
    QSet<QString> chartedMetrics;

    // Adds one record; a stored row is read as MetricRecord reads it (rows that are no
    // record are ignored).
    void add(const MetricRecord &record);
    void add(const QByteArray &row);
    // Adds one point of a named series (a "scalar" record's name and value) without JSON:
    // how an imported TensorBoard run's summary is kept up to date as its files are read.
    void addScalar(const QString &name, double value);

    // The summary kept in the store (an imported run's, updated with each read): info,
    // metrics and charted ones, so that a later read goes on from it.
    QByteArray toJson() const;
    static RunSummary fromJson(const QByteArray &json);

    // Loss-like metrics are best when lowest, the others (accuracy, throughput) when highest.
    static bool lowerIsBetter(const QString &metric);
};

// By job id.
using RunSummaries = QHash<qint64, RunSummary>;

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::RunSummary)
Q_DECLARE_METATYPE(TrainDesk::RunSummaries)

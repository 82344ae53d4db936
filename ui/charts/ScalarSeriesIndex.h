#pragma once

#include "MetricSeries.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace TrainDesk::Ui {

// The series among a job's records that the loss and accuracy charts do not draw by
// themselves: the trainer's learning rate and images/s (fields of its "train" records) and
// the named scalars (kind "scalar": TensorBoard tags, progress lines; docs/METRICS.md), kept
// up to date as records arrive without walking them again: what a chart's series picker
// offers and draws. A named series is one name from one file and rank; a key is stable
// while the job runs.
class ScalarSeriesIndex
{
public:
    // Looks at the records not seen yet (the list only grows, or starts over: reset).
    void update(const QList<MetricRecord> &records);

    QStringList keys() const { return m_keys; }  // in the order the series first appeared
    QString name(const QString &key) const;
    QString file(const QString &key) const;
    // "Loss (rank 1)", "lr (TensorBoard)".
    QString label(const QString &key) const;
    // x: the step (else the epoch), the epoch (else the step), or seconds since `startTime`.
    QList<QPointF> points(const QString &key, MetricSeries::XAxis x, double startTime) const;
    // The first series whose name holds `word` (any case), the job's rank 0 first: a
    // chart's choice when the job has no train records of its own.
    QString find(const QString &word) const;

private:
    // Where a series' values are: the scalar's value, or a field of a train record.
    enum class Field { Value, Lr, ImagesPerSec };
    struct Series
    {
        Field field = Field::Value;
        QString name;
        QString file;
        int rank = -1;
        QList<qsizetype> members;  // positions in the records
    };
    void add(const QString &key, const Series &series, qsizetype position);

    const QList<MetricRecord> *m_records = nullptr;
    qsizetype m_seen = 0;
    double m_firstTime = NAN;  // of the records read: a list started over starts otherwise
    QStringList m_keys;
    QHash<QString, Series> m_series;
};

} // namespace TrainDesk::Ui

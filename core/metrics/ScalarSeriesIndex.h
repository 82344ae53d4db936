#pragma once

#include "MetricRecord.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// The series among a job's records that the loss and accuracy charts do not draw by
// themselves: the trainer's learning rate and images/s (fields of its "train" records) and
// the named scalars (kind "scalar": TensorBoard tags, progress lines; docs/METRICS.md), kept
// up to date as records arrive without walking them again. The one grouping of those series:
// the charts' series pickers offer it, `job metrics --scalars` and `--series` print it
// (ScalarSeries). A named series is one name from one file and rank (docs/METRICS.md); a key
// is stable while the job runs.
class ScalarSeriesIndex
{
public:
    enum class X { Step, Epoch, Time };

    // Looks at the records not seen yet (the list only grows, or starts over: reset). The
    // index keeps a pointer to `records`: it must outlive the index's reads of it.
    void update(const QList<MetricRecord> &records);

    QStringList keys() const { return m_keys; }  // in the order the series first appeared
    // The keys of the named scalars only (not the train records' fields).
    QStringList scalarKeys() const;
    QString name(const QString &key) const;
    QString file(const QString &key) const;
    // "Loss (rank 1)", "lr (TensorBoard)", "learning rate": short, for a combo box and a
    // chart's title.
    QString label(const QString &key) const;
    // The records of a series, in the order stored.
    QList<const MetricRecord *> records(const QString &key) const;
    // x: the step (else the epoch), the epoch (else the step), or seconds since `startTime`.
    QList<QPointF> points(const QString &key, X x, double startTime) const;
    // The first series whose name holds `word` (any case), the job's rank 0 first: a
    // chart's choice when the job has no train records of its own.
    QString find(const QString &word) const;

    // A scalar record's series key: its name, file and rank.
    static QString scalarKey(const MetricRecord &record);

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

} // namespace TrainDesk

#pragma once

#include "MetricRecord.h"
#include "ScalarPoint.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// A named series with its points: one name from one file and rank, in the order stored, as
// ScalarSeriesIndex groups them (the charts' series pickers offer the same series under the
// same label). `job metrics --scalars` lists them; `--series NAME` prints their points.
struct ScalarSeries
{
    QString name;
    QString source;
    QString file;
    int rank = -1;
    QString tag;    // the first point's
    QString label;  // as the charts' pickers show it: "Loss (rank 1)", "lr (TensorBoard)"
    QList<ScalarPoint> points;

    double last() const { return points.isEmpty() ? NAN : points.last().value; }
    double minimum() const;
    double maximum() const;

    // The scalar records among a job's records (MetricRows), grouped, in the order each
    // series first appeared.
    static QList<ScalarSeries> fromRecords(const QList<MetricRecord> &records);
    // The records of kind "error" (a damaged event file), as their messages, each once.
    static QStringList problems(const QList<MetricRecord> &records);
};

} // namespace TrainDesk

#pragma once

#include "ScalarPoint.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace TrainDesk {

// A named series: the points of one name from one file and rank (one tag), in the order
// they were stored. `job metrics --series` prints them; the charts' series picker offers them.
struct ScalarSeries
{
    QString name;
    QString source;
    QString file;
    int rank = -1;
    QString tag;
    QList<ScalarPoint> points;

    // "Loss: stdouterr/stdout-1.txt (rank 1)", for people and as a picker's id.
    QString label() const;
    double last() const { return points.isEmpty() ? NAN : points.last().value; }
    double minimum() const;
    double maximum() const;

    // The scalar records among a job's stored records (Store::jobMetrics), grouped, in the
    // order each series first appeared.
    static QList<ScalarSeries> fromRecords(const QList<QPair<qint64, QByteArray>> &records);
    // The records of kind "error" (a damaged event file), as their messages.
    static QStringList problems(const QList<QPair<qint64, QByteArray>> &records);
};

} // namespace TrainDesk

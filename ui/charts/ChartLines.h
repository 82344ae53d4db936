#pragma once

#include "ChartLine.h"
#include "MetricSeries.h"

namespace TrainDesk::Ui {

// Another job of the experiment drawn over the shown one's charts.
struct ComparedJob
{
    qint64 jobId = 0;
    QString name;
    const MetricSeries *series = nullptr;
};

// The extra lines of a chart, made from series without widgets (so they are tested alone).
namespace ChartLines {

// Distinct colours that are neither the job's train blue nor its validation orange; compared
// jobs take them from the other end than ranks, so the two seldom share a colour.
QColor rankColor(int rank);
QColor comparedColor(int index);
// The shown run's training line (the job's Charts tab, the first run chosen in the runs table).
QColor mainRunColor();
// A run's own colour wherever runs are drawn together (the runs table's swatch and charts,
// a job's compared runs, a sweep's charts and plots): the same for the same job in every
// view and whatever its place in a selection; the one the user chose (RunColors) where
// there is one, else automaticRunColor().
QColor runColor(qint64 jobId);
// The colour a run has by its id alone: no two ids share one.
QColor automaticRunColor(qint64 jobId);
// A job's own page, drawn alone (its Charts tab): the colour the user chose for it, else
// mainRunColor().
QColor shownRunColor(qint64 jobId);
// A node's "sent" network line: far from its colour (rankColor), which "received" takes.
QColor sentColor(int node);

// Each rank's own `metric` (smoothed like the job's series), thin lines "rank N".
QList<ChartLine> ranks(const MetricSeries &series, MetricSeries::Metric metric, MetricSeries::XAxis x, double smoothing);
// Per compared job: its training series smoothed ("name") and its validation values dashed
// ("name (val)").
QList<ChartLine> compared(const QList<ComparedJob> &jobs, MetricSeries::Metric train, MetricSeries::Metric val,
                          MetricSeries::XAxis x, double smoothing);

} // namespace ChartLines
} // namespace TrainDesk::Ui

#pragma once

#include "OutputFormat.h"

#include "common/CsvField.h"
#include "metrics/ScalarSeries.h"

#include <QJsonArray>

namespace TrainDesk::Cli {

// `job metrics --scalars`: every named series of a job (name, source, file, rank, points,
// last, min, max); `job metrics --series NAME`: the points of the series of that name
// (from every file and rank), as a table, as CSV or as JSON.
Table scalarSeriesList(const QList<ScalarSeries> &series);
QJsonArray scalarSeriesListJson(const QList<ScalarSeries> &series);
Table scalarSeriesPoints(const QList<ScalarSeries> &series);
QString scalarSeriesPointsCsv(const QList<ScalarSeries> &series, CsvText mode = CsvText::Safe);
QJsonArray scalarSeriesPointsJson(const QList<ScalarSeries> &series);

} // namespace TrainDesk::Cli

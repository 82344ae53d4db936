#pragma once

#include "OutputFormat.h"

#include <QByteArray>
#include <QList>
#include <QPair>

namespace TrainDesk::Cli {

// `job metrics`: a job's train and validation series (records of kind train, val and
// epoch, the others left out) as a table or as CSV. `records` are the store's rows.
Table metricSeriesTable(const QList<QPair<qint64, QByteArray>> &records);
// A header line, then one line per record: time,kind,rank,epoch,step,loss,accuracy,
// val_loss,val_accuracy (empty where the record has no such value).
QString metricSeriesCsv(const QList<QPair<qint64, QByteArray>> &records);

} // namespace TrainDesk::Cli

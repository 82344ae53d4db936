#pragma once

#include "metrics/MetricRecord.h"

#include <QByteArray>
#include <QString>

namespace TrainDesk::MetricCsv {

// The one CSV form of a job's training metrics, written by `traindesk job metrics --csv` and
// by the GUI's chart export alike, byte for byte (docs/METRICS.md, "CSV"):
//   run,kind,time,epoch,step,global_step,loss,acc,val_loss,val_acc,lr,images_per_sec,rank
// one row per train, val, epoch and rank record, in the order they were stored. `run` is the
// job's name, so that the rows of several jobs (the GUI's compared runs) make one table.
// Numbers are the shortest text that reads back as the same double (nothing is rounded;
// the shorter of the plain and the exponent form: 0.0002 is "2e-04");
// a field the record does not carry is empty.

QByteArray header();
// Whether a record is a row of the table (info, done, scalar and system records are not).
bool isRow(const MetricRecord &record);
// One row, with its newline.
QByteArray row(const QString &run, const MetricRecord &record);
// A double as the table writes it: empty for NaN, else the shortest exact text.
QString number(double value);

} // namespace TrainDesk::MetricCsv

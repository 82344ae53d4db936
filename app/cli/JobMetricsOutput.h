#pragma once

#include "OutputFormat.h"
#include "common/Result.h"

#include <QTextStream>

namespace TrainDesk {
class Store;
struct Job;
}

namespace TrainDesk::Cli {

// `job metrics`: a job's train and validation series (the table: records of kind train, val
// and epoch; the CSV: metrics/MetricCsv, rank records too), or every record as JSON. Printed as the store reads the
// records, one at a time, so that a job of millions of records takes constant memory: the
// table keeps its rows in a temporary file while it measures the column widths.
enum class JobMetricsFormat {
    Table,  // times readable (local time, milliseconds)
    Csv,    // metrics/MetricCsv: the GUI's export, byte for byte
    Json,   // every metric record stored for the job, as an indented array
};

VoidResult printJobMetrics(const Store &store, const Job &job, JobMetricsFormat format, QTextStream &out);

// A record's time (Unix seconds) as the table shows it: "2026-11-26 11:10:12.345".
QString readableTime(double unixSeconds);

} // namespace TrainDesk::Cli

#pragma once

#include "common/Result.h"
#include "metrics/MetricRecord.h"

#include <functional>

namespace TrainDesk {

class Store;

// The one reader of a job's stored metric records (the rows the agent stores of metrics.jsonl
// and of parsed progress text, Store::appendJobOutput): the CLI, the GUI's charts, the runs
// table and sweeps read them here. Rows are JSON objects (docs/METRICS.md); `Record` readers
// get them parsed, rows that are no metric record left out.
namespace MetricRows {

// Every row of the job, in the order stored, one at a time (constant memory for millions);
// `each` returns false to stop.
VoidResult forEachRow(const Store &store, qint64 jobId, const std::function<bool(const QByteArray &row)> &each);
// The same with each row's id, after row `afterId` (0: from the first). A run imported from a
// TensorBoard folder is read from its files (metrics/ImportedRunRows): its ids count its points.
VoidResult forEachRowWithId(const Store &store, qint64 jobId, qint64 afterId,
                            const std::function<bool(qint64 id, const QByteArray &row)> &each);
// The job's records of the given kinds, held in memory (`job metrics --scalars`: "scalar" and
// "error"); rows of other kinds are skipped without being decoded.
QList<MetricRecord> recordsOf(const Store &store, qint64 jobId, const QStringList &kinds);
VoidResult forEachRecord(const Store &store, qint64 jobId, const std::function<bool(const MetricRecord &)> &each);

// The rows stored after row `*lastId` (0: from the first); `*lastId` moves to the last one
// read, so that a reader that keeps it reads each row once.
QList<QByteArray> newRows(const Store &store, qint64 jobId, qint64 *lastId);
QList<MetricRecord> newRecords(const Store &store, qint64 jobId, qint64 *lastId);

// After a resumed attempt's first rows: the earlier attempts' rows it replaces
// (metrics/ResumedAttempt, in SQL) removed, once per attempt; the rows removed.
Result<int> removeRepeated(Store &store, qint64 jobId);

} // namespace MetricRows
} // namespace TrainDesk

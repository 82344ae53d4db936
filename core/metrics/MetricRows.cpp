#include "MetricRows.h"

#include "store/Store.h"

namespace TrainDesk::MetricRows {

VoidResult forEachRow(const Store &store, qint64 jobId, const std::function<bool(const QByteArray &)> &each)
{
    return store.forEachJobMetric(jobId, [&each](qint64, const QByteArray &row) { return each(row); });
}

VoidResult forEachRecord(const Store &store, qint64 jobId, const std::function<bool(const MetricRecord &)> &each)
{
    return forEachRow(store, jobId, [&each](const QByteArray &row) {
        const auto record = MetricRecord::fromJson(row);
        return !record || each(*record);
    });
}

QList<QByteArray> newRows(const Store &store, qint64 jobId, qint64 *lastId)
{
    QList<QByteArray> rows;
    for (const auto &[id, row] : store.jobMetrics(jobId, *lastId)) {
        rows.append(row);
        *lastId = id;
    }
    return rows;
}

QList<MetricRecord> newRecords(const Store &store, qint64 jobId, qint64 *lastId)
{
    QList<MetricRecord> records;
    for (const QByteArray &row : newRows(store, jobId, lastId)) {
        if (auto record = MetricRecord::fromJson(row))
            records.append(*record);
    }
    return records;
}

} // namespace TrainDesk::MetricRows

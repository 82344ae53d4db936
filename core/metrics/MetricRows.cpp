#include "MetricRows.h"

#include "ImportedRunRows.h"

#include "common/ResultLog.h"

#include "store/Store.h"

namespace TrainDesk::MetricRows {

VoidResult forEachRow(const Store &store, qint64 jobId, const std::function<bool(const QByteArray &)> &each)
{
    return forEachRowWithId(store, jobId, 0, [&each](qint64, const QByteArray &row) { return each(row); });
}

VoidResult forEachRowWithId(const Store &store, qint64 jobId, qint64 afterId,
                            const std::function<bool(qint64 id, const QByteArray &row)> &each)
{
    // A run imported from a TensorBoard folder: its rows are read from its event files.
    if (const auto imported = store.importedRun(jobId))
        return ImportedRunRows::forEach(store, *imported, afterId, each);
    if (afterId == 0)
        return store.forEachJobMetric(jobId, each);
    for (const auto &[id, row] : store.jobMetrics(jobId, afterId)) {
        if (!each(id, row))
            break;
    }
    return {};
}

QList<QPair<qint64, QByteArray>> allRows(const Store &store, qint64 jobId)
{
    QList<QPair<qint64, QByteArray>> rows;
    ignoreResult(forEachRowWithId(store, jobId, 0, [&rows](qint64 id, const QByteArray &row) {
        rows.append({id, row});
        return true;
    }), "a read that failed half-way gives the rows read");
    return rows;
}

VoidResult forEachRecord(const Store &store, qint64 jobId, const std::function<bool(const MetricRecord &)> &each)
{
    // An imported run's points become records without a trip through JSON.
    if (const auto imported = store.importedRun(jobId)) {
        return ImportedRunRows::forEachItem(store, *imported, 0, [&each](const ImportedRunRows::Item &item) {
            return !item.point || each(MetricRecord::fromScalar(*item.point));
        });
    }
    return forEachRow(store, jobId, [&each](const QByteArray &row) {
        const auto record = MetricRecord::fromJson(row);
        return !record || each(*record);
    });
}

QList<QByteArray> newRows(const Store &store, qint64 jobId, qint64 *lastId)
{
    QList<QByteArray> rows;
    ignoreResult(forEachRowWithId(store, jobId, *lastId, [&](qint64 id, const QByteArray &row) {
        rows.append(row);
        *lastId = id;
        return true;
    }), "a read that failed half-way gives the rows read; the rest come next time");
    return rows;
}

QList<MetricRecord> newRecords(const Store &store, qint64 jobId, qint64 *lastId)
{
    if (const auto imported = store.importedRun(jobId)) {
        QList<MetricRecord> records;
        ignoreResult(ImportedRunRows::forEachItem(store, *imported, *lastId, [&](const ImportedRunRows::Item &item) {
            if (item.point)
                records.append(MetricRecord::fromScalar(*item.point));
            *lastId = item.id;
            return true;
        }), "a read that failed half-way gives the records read; the rest come next time");
        return records;
    }
    QList<MetricRecord> records;
    for (const QByteArray &row : newRows(store, jobId, lastId)) {
        if (auto record = MetricRecord::fromJson(row))
            records.append(*record);
    }
    return records;
}

} // namespace TrainDesk::MetricRows

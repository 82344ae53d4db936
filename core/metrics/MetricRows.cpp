#include "MetricRows.h"

#include "ImportedRunRows.h"
#include "MetricRecordSql.h"
#include "ResumedAttempt.h"

#include "common/ResultLog.h"

#include "store/Store.h"

#include <algorithm>

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

QList<MetricRecord> recordsOf(const Store &store, qint64 jobId, const QStringList &kinds)
{
    QList<MetricRecord> records;
    const auto keep = [&](const MetricRecord &record) {
        if (kinds.contains(record.kind))
            records.append(record);
        return true;
    };
    if (store.importedRun(jobId)) {
        ignoreResult(forEachRecord(store, jobId, keep), "a read that failed half-way gives the records read");
        return records;
    }
    QList<QByteArray> utf8Kinds;
    for (const QString &kind : kinds)
        utf8Kinds << kind.toUtf8();
    ignoreResult(forEachRow(store, jobId, [&](const QByteArray &row) {
        // Most rows are the trainer's: a row that names none of the kinds is not parsed.
        if (std::none_of(utf8Kinds.cbegin(), utf8Kinds.cend(), [&row](const QByteArray &kind) {
                return MetricRecord::mayBe(row, kind);
            }))
            return true;
        const auto record = MetricRecord::fromJson(row);
        return !record || keep(*record);
    }), "a read that failed half-way gives the records read");
    return records;
}

VoidResult forEachRecord(const Store &store, qint64 jobId, const std::function<bool(const MetricRecord &)> &each)
{
    // An imported run's points become records without a trip through JSON (its errors are
    // JSON already).
    if (const auto imported = store.importedRun(jobId)) {
        return ImportedRunRows::forEachItem(store, *imported, 0, [&each](const ImportedRunRows::Item &item) {
            if (item.point)
                return each(MetricRecord::fromScalar(*item.point));
            const auto error = MetricRecord::fromJson(item.error);
            return !error || each(*error);
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

Result<int> removeRepeated(Store &store, qint64 jobId)
{
    return store.removeRepeatedMetrics(jobId, ResumedAttempt::replacedKindSql(), ResumedAttempt::marksResumptionSql(),
                                       MetricRecordSql::epoch);
}

} // namespace TrainDesk::MetricRows

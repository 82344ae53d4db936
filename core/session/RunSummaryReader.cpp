#include "RunSummaryReader.h"

#include "common/ResultLog.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"

namespace TrainDesk {

RunSummaries RunSummaryReader::read(const QList<qint64> &jobIds)
{
    // A handful of queries for all the jobs, not four a job (10,000 runs: 40,000 queries).
    // A run imported from a TensorBoard folder has its summary kept in the store by the
    // import (its points are in its files, not in rows to go through).
    const QHash<qint64, QByteArray> imported = m_store.importedRunSummaries();
    bool unknown = false;
    for (qint64 id : jobIds)
        unknown = unknown || (!imported.contains(id) && !m_cache.contains(id));
    // A new session goes on from the summaries an earlier one kept in the store; afterwards
    // only which ones the store still keeps is asked.
    const auto stored = m_store.runSummaries(unknown);
    QHash<qint64, qint64> lastIds;
    for (qint64 id : jobIds) {
        if (imported.contains(id))
            continue;
        auto cached = m_cache.find(id);
        if (cached == m_cache.end()) {
            Entry entry;
            if (const auto it = stored.constFind(id); it != stored.cend()) {
                entry.stored = true;
                entry.lastId = it->first;
                entry.summary = RunSummary::fromJson(it->second);
            }
            cached = m_cache.insert(id, entry);
        } else if (cached->stored && !stored.contains(id)) {
            // A summary this reader kept that the store dropped (retries removed rows it
            // counted): built again from the rows left.
            *cached = Entry{};
        }
        lastIds.insert(id, cached->lastId);
    }
    // Only the jobs with rows after the last one counted are read (a running job's new rows).
    const QSet<qint64> grown = m_store.jobsWithMetricsAfter(lastIds);
    RunSummaries summaries;
    for (qint64 id : jobIds) {
        if (const auto it = imported.constFind(id); it != imported.cend()) {
            summaries.insert(id, RunSummary::fromJson(*it));
            continue;
        }
        Entry &entry = m_cache[id];
        if (grown.contains(id)) {
            const qint64 before = entry.lastId;
            for (const MetricRecord &record : MetricRows::newRecords(m_store, id, &entry.lastId))
                entry.summary.add(record);
            if (entry.lastId != before)
                entry.stored = logFailure(m_store.saveRunSummary(id, entry.lastId, entry.summary.toJson()),
                                          QStringLiteral("the runs table's summary"));
        }
        summaries.insert(id, entry.summary);
    }
    return summaries;
}

} // namespace TrainDesk

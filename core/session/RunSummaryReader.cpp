#include "RunSummaryReader.h"

#include "common/ResultLog.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"

namespace TrainDesk {

RunSummaries RunSummaryReader::read(const QList<qint64> &jobIds)
{
    RunSummaries summaries;
    for (qint64 id : jobIds) {
        // A run imported from a TensorBoard folder has its summary kept in the store by the
        // import (its points are in its files, not in rows to go through).
        if (const auto imported = m_store.importedRun(id)) {
            summaries.insert(id, RunSummary::fromJson(imported->summary));
            continue;
        }
        auto cached = m_cache.find(id);
        if (cached == m_cache.end()) {
            // A new session goes on from the summary an earlier one kept in the store.
            Entry entry;
            if (const auto stored = m_store.runSummary(id)) {
                entry.stored = true;
                entry.lastId = stored->first;
                entry.summary = RunSummary::fromJson(stored->second);
            }
            cached = m_cache.insert(id, entry);
        }
        Entry &entry = *cached;
        // A summary this reader kept that the store dropped (retries removed rows it counted):
        // built again from the rows left.
        if (entry.stored && !m_store.runSummary(id))
            entry = Entry{};
        const qint64 before = entry.lastId;
        for (const MetricRecord &record : MetricRows::newRecords(m_store, id, &entry.lastId))
            entry.summary.add(record);
        if (entry.lastId != before)
            entry.stored = logFailure(m_store.saveRunSummary(id, entry.lastId, entry.summary.toJson()),
                                      QStringLiteral("the runs table's summary"));
        summaries.insert(id, entry.summary);
    }
    return summaries;
}

} // namespace TrainDesk

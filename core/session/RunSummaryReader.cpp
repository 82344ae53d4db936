#include "RunSummaryReader.h"

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
        Entry &entry = m_cache[id];
        for (const QByteArray &record : MetricRows::newRows(m_store, id, &entry.lastId))
            entry.summary.add(record);
        summaries.insert(id, entry.summary);
    }
    return summaries;
}

} // namespace TrainDesk

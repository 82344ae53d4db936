#include "RunSummaryReader.h"

#include "store/Store.h"

namespace TrainDesk {

RunSummaries RunSummaryReader::read(const QList<qint64> &jobIds)
{
    RunSummaries summaries;
    for (qint64 id : jobIds) {
        Entry &entry = m_cache[id];
        for (const auto &[rowId, record] : m_store.jobMetrics(id, entry.lastId)) {
            entry.summary.add(record);
            entry.lastId = rowId;
        }
        summaries.insert(id, entry.summary);
    }
    return summaries;
}

} // namespace TrainDesk

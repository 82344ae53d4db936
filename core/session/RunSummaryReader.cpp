#include "RunSummaryReader.h"

#include "metrics/MetricRows.h"

namespace TrainDesk {

RunSummaries RunSummaryReader::read(const QList<qint64> &jobIds)
{
    RunSummaries summaries;
    for (qint64 id : jobIds) {
        Entry &entry = m_cache[id];
        for (const QByteArray &record : MetricRows::newRows(m_store, id, &entry.lastId))
            entry.summary.add(record);
        summaries.insert(id, entry.summary);
    }
    return summaries;
}

} // namespace TrainDesk

#pragma once

#include "metrics/RunSummary.h"

#include <QList>

namespace TrainDesk {

class Store;

// The runs table's summaries of jobs, read from the metric records in the Store. Each job's
// summary is kept with the last record it has seen, here and in the store (run_summaries),
// so asking again, or in a later session, reads only what the agent stored since: a table
// of 10,000 finished runs costs no metric row. Imported TensorBoard runs have theirs kept by
// the import.
class RunSummaryReader
{
public:
    explicit RunSummaryReader(Store &store) : m_store(store) {}

    RunSummaries read(const QList<qint64> &jobIds);
    // A deleted job: its summary goes with it.
    void forget(qint64 jobId) { m_cache.remove(jobId); }

private:
    struct Entry
    {
        qint64 lastId = 0;
        RunSummary summary;
        bool stored = false;  // kept in the store too
    };

    Store &m_store;
    QHash<qint64, Entry> m_cache;
};

} // namespace TrainDesk

#pragma once

#include "jobspec/JobSpec.h"
#include "store/Entities.h"

#include <QHash>

#include <memory>

namespace TrainDesk {

// The agent's parsed job.json of each job it looks after: parsed the first time it is needed
// and kept, parsed again only when the stored bytes differ (the agent's tick reads no JSON:
// it ran watchProgress and the scheduler on every job, every 500 ms). Forget a job when it
// ends, so the cache holds only the queued and running ones.
class JobSpecCache
{
public:
    // The job's stored spec, parsed without context (the checks against its cluster were made
    // at submit). Shared: it outlives a forget() (finish() forgets while a caller holds it).
    std::shared_ptr<const ParsedJobSpec> of(const Job &job);
    void forget(qint64 jobId) { m_entries.remove(jobId); }
    qsizetype size() const { return m_entries.size(); }

private:
    struct Entry
    {
        QByteArray bytes;  // compared whole: a few hundred bytes, and no collisions to reason about
        std::shared_ptr<const ParsedJobSpec> parsed;
    };
    QHash<qint64, Entry> m_entries;
};

} // namespace TrainDesk

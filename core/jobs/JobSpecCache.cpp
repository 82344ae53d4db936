#include "JobSpecCache.h"

namespace TrainDesk {

std::shared_ptr<const ParsedJobSpec> JobSpecCache::of(const Job &job)
{
    Entry &entry = m_entries[job.id];
    if (!entry.parsed || entry.bytes != job.spec) {
        entry.parsed = std::make_shared<const ParsedJobSpec>(parseJobSpec(job.spec));
        entry.bytes = job.spec;
    }
    return entry.parsed;
}

} // namespace TrainDesk

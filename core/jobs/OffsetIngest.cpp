#include "OffsetIngest.h"

#include "store/Store.h"
#include "transport/Transport.h"

namespace TrainDesk::OffsetIngest {

Result<int> ingest(Store &store, const Job &job, Transport &transport, const QString &path, const QString &key,
                   const Parse &parse, bool *storeFailed)
{
    int total = 0;
    qint64 want = readChunk;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const qint64 offset = store.jobFileOffset(job.id, key);
        const auto data = transport.readAt(path, offset, want);
        if (!data)
            return transport.stat(path) ? Result<int>(data.failure()) : Result<int>(total);  // not written yet, or gone
        const Chunk chunk = parse(*data, offset);
        if (chunk.consumed == 0 && chunk.state.isEmpty()) {
            // A record larger than one read: read it whole next time round.
            if (chunk.nextRecordSize > want && data->size() == want) {
                want = chunk.nextRecordSize;
                continue;
            }
            return total;
        }
        const auto stored = store.appendJobOutput(job.id, key, offset, offset + chunk.consumed, chunk.records, chunk.state);
        if (!stored) {
            if (storeFailed)
                *storeFailed = true;
            return stored.failure();
        }
        // (false: another reader stored this chunk first; the loop goes on from its offset.)
        if (*stored)
            total += chunk.counted >= 0 ? chunk.counted : int(chunk.records.size());
        if (chunk.last || (*stored && data->size() < want))
            return total;
        want = readChunk;
    }
    return total;
}

} // namespace TrainDesk::OffsetIngest

#include "OffsetIngest.h"

#include "store/Store.h"
#include "transport/Transport.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::OffsetIngest {

namespace {

// Where the line that starts at `offset` ends (the offset after its newline), reading on
// a chunk at a time; 0 while its newline is not written yet.
Result<qint64> endOfLongLine(Transport &transport, const QString &path, qint64 offset)
{
    for (qint64 at = offset;;) {
        const auto data = transport.readAt(path, at, readChunk);
        if (!data)
            return data.failure();
        if (const qsizetype newline = data->indexOf('\n'); newline >= 0)
            return at + newline + 1;
        if (data->size() < readChunk)
            return qint64(0);
        at += data->size();
    }
}

} // namespace

QByteArray longLineRecord(const QString &path, qint64 offset, qint64 length)
{
    const QString message = QStringLiteral("%1: the line at offset %2 is %3 bytes long, over the %4 MiB a line may have: "
                                           "skipped, the lines after it are read")
                                .arg(path).arg(offset).arg(length).arg(readChunk >> 20);
    return QJsonDocument(QJsonObject{{"time", QDateTime::currentMSecsSinceEpoch() / 1000.0}, {"kind", "error"},
                                     {"file", path}, {"offset", double(offset)}, {"message", message}})
        .toJson(QJsonDocument::Compact);
}

Result<int> ingest(Store &store, const Job &job, Transport &transport, const QString &path, const QString &key,
                   const Parse &parse, bool *storeFailed, Framing framing)
{
    auto storeChunk = [&](qint64 offset, const Chunk &chunk) -> Result<bool> {
        auto stored = store.appendJobOutput(job.id, key, offset, offset + chunk.consumed, chunk.records, chunk.state);
        if (!stored && storeFailed)
            *storeFailed = true;
        return stored;
    };
    int total = 0;
    qint64 want = readChunk;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const qint64 offset = store.jobFileOffset(job.id, key);
        const auto data = transport.readAt(path, offset, want);
        if (!data)
            return transport.stat(path) ? Result<int>(data.failure()) : Result<int>(total);  // not written yet, or gone
        Chunk chunk = parse(*data, offset);
        if (chunk.consumed == 0 && chunk.state.isEmpty()) {
            const bool full = data->size() == want;
            if (framing == Framing::Records) {
                // A record larger than one read: read it whole next time round, once the
                // file holds it (its size comes from the file's bytes: never asked blindly).
                if (!full || chunk.nextRecordSize <= want)
                    return total;
                // Only for a record larger than a read: one stat, not one a tick per file.
                if (const auto info = transport.stat(path); info && info->size - offset >= chunk.nextRecordSize) {
                    want = chunk.nextRecordSize;
                    continue;
                }
                return total;
            }
            if (!full)
                return total;  // the line's end is not written yet
            // A whole read without a line end: the line is named and skipped to its end.
            const auto end = endOfLongLine(transport, path, offset + data->size());
            if (!end)
                return end.failure();
            if (*end == 0)
                return total;  // read again once its newline is written
            Chunk skipped;
            skipped.consumed = *end - offset;
            const QString shown = path.startsWith(job.jobDir + QLatin1Char('/')) ? path.mid(job.jobDir.size() + 1) : path;
            skipped.records << longLineRecord(shown, offset, *end - offset);
            skipped.counted = 0;
            skipped.state = store.jobFileReaderState(job.id, key);
            const auto stored = storeChunk(offset, skipped);
            if (!stored)
                return stored.failure();
            continue;
        }
        const auto stored = storeChunk(offset, chunk);
        if (!stored)
            return stored.failure();
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

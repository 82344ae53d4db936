#pragma once
// The one read-at-offset loop of a job's output files (trainer metrics, Keras progress text,
// scripts' own scalars): from the offset saved in the Store, a chunk at a time, each chunk's
// records stored together with its new offset in one transaction, so a killed reader, a
// second reader or a full disk never stores a record twice or loses one.
#include "common/Result.h"
#include "store/Entities.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

namespace TrainDesk {

class Store;
class Transport;

namespace OffsetIngest {

constexpr qint64 readChunk = 4 * 1024 * 1024;

// How a file's records end. A text line longer than a whole read is named (an "error"
// record with the file, its offset and length) and skipped to its newline, so the lines
// after it are read; a framed record (TFRecord) is read whole, its size asked by the parser.
enum class Framing { Lines, Records };

// What one chunk gave the file's reader.
struct Chunk
{
    qsizetype consumed = 0;     // bytes of whole records (0 with no state: nothing yet)
    QList<QByteArray> records;  // to store
    int counted = -1;           // how many of them count as read (-1: all)
    QByteArray state;           // the reader's state after them, saved with the offset
    qint64 nextRecordSize = 0;  // a record longer than the chunk: read this much next time
    bool last = false;          // store this chunk, then read no further (a damaged file)
};
using Parse = std::function<Chunk(const QByteArray &data, qint64 offset)>;

// Reads `path` (on the job's node) at the offset saved under `key`; returns how many records
// counted were stored. `storeFailed` (optional) tells a failed write from a failed read.
Result<int> ingest(Store &store, const Job &job, Transport &transport, const QString &path, const QString &key,
                   const Parse &parse, bool *storeFailed = nullptr, Framing framing = Framing::Lines);

// The record stored for a line skipped as too long (exposed for the tests).
QByteArray longLineRecord(const QString &path, qint64 offset, qint64 length);

} // namespace OffsetIngest
} // namespace TrainDesk

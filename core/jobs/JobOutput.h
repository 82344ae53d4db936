#pragma once

#include "common/Result.h"
#include "metrics/MetricRecord.h"
#include "store/Entities.h"
#include "transport/Transport.h"

#include <functional>
#include <memory>

namespace TrainDesk {

class Store;
class ScalarIngest;

// The agent's ingest of a job's metrics from its head node (the job's files are read for
// the CLI and the GUI by JobFiles; the stored records by metrics/MetricRows). Metrics are
// read at the offset saved in the Store and stored with the new offset in one transaction,
// so a dropped connection or a restarted agent picks up where it left off with nothing
// lost and nothing read twice.
class JobOutput
{
public:
    explicit JobOutput(Store &store);
    ~JobOutput();

    static QString metricsFileName() { return QStringLiteral("metrics.jsonl"); }

    // Reads what was appended to stdouterr/metrics.jsonl since the saved offset; returns
    // the number of new records.
    // For jobs that do not run the bundled trainer (Keras or Horovod scripts), the Keras
    // progress text in stdouterr/stdout.txt is read the same way and stored as records.
    // Then the named scalars the job's script writes (ScalarIngest): TensorBoard event
    // files, and (not for the trainer) progress lines of each task's stdout-<i>.txt.
    // A failure to store (`storeFailed`: the data directory's disk is full, ...) stores
    // nothing of the chunk and leaves the offset where it was: the next call reads it again.
    Result<int> ingestMetrics(const Job &job, bool *storeFailed = nullptr);
    // The error a job shows while its metrics cannot be stored for lack of space in the
    // data directory (DiskFull, naming the folder); the agent takes it away once they are.
    static JobError metricsWaitingError(const QString &dataDirectory);
    static bool isMetricsWaiting(const JobError &error);

private:
    // What one chunk of a file gave: the length of its whole lines (0: none yet), the records
    // they hold and the reader's state after them.
    struct Parsed
    {
        qsizetype consumed = 0;
        QList<QByteArray> records;
        QByteArray state;
    };
    // The one read-at-offset loop: stdouterr/`file` from its saved offset, a chunk at a time,
    // each chunk's records stored with its new offset in one transaction.
    Result<int> ingestFile(const Job &job, Transport &transport, const QString &file,
                           const std::function<Parsed(const QByteArray &chunk)> &parse, bool *storeFailed);
    Result<int> ingestTrainerMetrics(const Job &job, Transport &transport, bool *storeFailed);
    Result<int> ingestKerasProgress(const Job &job, Transport &transport, bool *storeFailed);

    Store &m_store;
    std::unique_ptr<ScalarIngest> m_scalars;  // keeps where each job's files are between reads
};

} // namespace TrainDesk

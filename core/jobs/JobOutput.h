#pragma once

#include "OffsetIngest.h"
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
    // stdouterr/`file` through the one read-at-offset loop (OffsetIngest).
    Result<int> ingestFile(const Job &job, Transport &transport, const QString &file, const OffsetIngest::Parse &parse,
                           bool *storeFailed)
    {
        return OffsetIngest::ingest(m_store, job, transport, job.jobDir + QStringLiteral("/stdouterr/") + file, file, parse,
                                    storeFailed);
    }
    Result<int> ingestTrainerMetrics(const Job &job, Transport &transport, bool *storeFailed);
    Result<int> ingestKerasProgress(const Job &job, Transport &transport, bool *storeFailed);

    Store &m_store;
    std::unique_ptr<ScalarIngest> m_scalars;  // keeps where each job's files are between reads
};

} // namespace TrainDesk

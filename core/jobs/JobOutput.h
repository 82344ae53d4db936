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

// Reads a job's files on its head node. Metrics are read at the offset saved in the
// Store and stored with the new offset in one transaction, so a dropped connection or
// a restarted app picks up where it left off with nothing lost and nothing read twice.
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

    // `directory` is "stdouterr" or an output directory's path relative to the job dir.
    Result<QList<RemoteFileInfo>> listFiles(const Job &job, const QString &directory = QStringLiteral("stdouterr"));
    // Up to maxBytes of a file relative to the job directory, from `offset`.
    Result<QByteArray> readFile(const Job &job, const QString &relativePath, qint64 offset, qint64 maxBytes);
    // Whether a file of the job directory is a symbolic link (asked on the node).
    bool isSymbolicLink(const Job &job, const QString &relativePath);
    // The symbolic links at or under a path of the job directory (relative to it), in one
    // command on the node; fails when the path itself leads out of the job directory
    // (naming it `shownAs` when given, as the user wrote it).
    Result<QStringList> linksUnder(const Job &job, const QString &relativePath, const QString &shownAs = {});
    // The execution log of the job's node `nodeIndex` (job.nodes), relative to the job
    // directory: named after the node, or on Slurm after its place in the allocation
    // (node-0, node-1, ...: the launch script is written before Slurm picks the hosts).
    QString executionLogPath(const Job &job, int nodeIndex) const;
    // The files of stdouterr that appear while a job runs (stdout.txt, the per-node logs, ...).
    static bool isWrittenLater(const QString &name);
    // The head node of a started job, where its directory is (fails for a job not started).
    Result<std::shared_ptr<Transport>> headTransport(const Job &job);

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

#pragma once

#include "common/Result.h"
#include "store/Entities.h"
#include "transport/Transport.h"

#include <memory>

namespace TrainDesk {

class Store;

// A started job's files on its head node, for the CLI and the GUI: listings, reads at an
// offset, the links under a path, the execution logs' names. (The agent's ingest of the
// job's metrics is JobOutput's.)
class JobFiles
{
public:
    explicit JobFiles(const Store &store) : m_store(store) {}

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
    const Store &m_store;
};

} // namespace TrainDesk

#pragma once

#include "common/Result.h"
#include "store/Entities.h"

#include <QHash>
#include <QStringList>

namespace TrainDesk {

class Store;
class Transport;

// Stores the named scalars a job's own script writes (docs/METRICS.md) as metric records of
// kind "scalar" (ScalarPoint), each file read from its saved offset as JobOutput reads
// metrics.jsonl: TensorBoard event files anywhere under the job directory and its output
// directories, and the progress lines of each task's stdout-<i>.txt (stdout.txt when the
// job has no task files). A damaged event file is named once (a record of kind "error")
// and not read further.
class ScalarIngest
{
public:
    explicit ScalarIngest(Store &store);

    // `withText`: read progress lines too (not for jobs whose metrics.jsonl says it all).
    // `storeFailed` (optional) is set when a read chunk could not be stored (a full disk):
    // its offset stays, and it is read again.
    Result<int> ingest(const Job &job, Transport &transport, bool withText, bool *storeFailed = nullptr);

    // The store's key of a file read for scalars.
    static QString storeKey(const QString &file) { return QStringLiteral("scalars:") + file; }

private:
    struct Found
    {
        QStringList textFiles;   // relative to the job directory
        QStringList eventFiles;  // relative to it, or absolute outside it
        bool taskFiles = false;  // the launch script writes each task's own files
        qint64 scannedAtMs = -1;
    };
    const Found &discover(const Job &job, Transport &transport);
    Result<int> readEvents(const Job &job, Transport &transport, const QString &file, bool *storeFailed);
    Result<int> readText(const Job &job, Transport &transport, const QString &file, bool *storeFailed);

    Store &m_store;
    QHash<qint64, Found> m_found;  // per job: looked for every few seconds, not at each read
};

} // namespace TrainDesk

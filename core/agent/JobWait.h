#pragma once
// Waiting for a job the agent runs, for any client (the CLI's `job wait`, `job terminate`,
// `job create` on Slurm; a GUI worker): the store is read again on each change the agent
// pushes, or every second without one; an agent that went away is started again.
#include "common/Result.h"
#include "store/Entities.h"

#include <QString>

#include <functional>

namespace TrainDesk {

class Store;

namespace JobWait {

// Until the job has ended or `reached` says so, or `timeoutMs` passed (-1: no limit): the
// job as last read. Blocks; run it off a GUI thread.
Result<Job> until(Store &store, const QString &dataDirectory, qint64 jobId,
                  const std::function<bool(const Job &)> &reached, qint64 timeoutMs = -1);
Result<Job> untilEnded(Store &store, const QString &dataDirectory, qint64 jobId, qint64 timeoutMs = -1);
// On a Slurm cluster: until sbatch took the job or refused it (a failure with Slurm's own
// message), as sbatch itself would return; any other cluster's job comes back as it is.
Result<Job> untilSlurmSubmitted(Store &store, const QString &dataDirectory, const Job &job);

} // namespace JobWait
} // namespace TrainDesk

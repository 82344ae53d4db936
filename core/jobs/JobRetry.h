#pragma once

#include "store/Entities.h"
#include "store/ReliabilityRecords.h"
#include "jobspec/ReliabilitySettings.h"
#include "jobspec/JobSpec.h"

#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

class Store;

// Retries of failed attempts (job.json constraints.maxRetries, a TrainDesk extension). An
// attempt that failed from a lost node, a rank killed by a signal (exit code 128 + N), a
// hang with failOnHang, or an exit code in retryOnExitCodes is queued again as the next
// attempt, in its own job directory (a new uuid), while attempts are left; nothing else is
// retried (a bad job.json never starts, an exit code not listed is the script's answer).
class JobRetry
{
public:
    explicit JobRetry(Store &store);

    // Why `errors`/`exitCode` of an attempt may be retried under `settings`, or nothing.
    static std::optional<QString> retryReason(const ReliabilitySettings &settings, const QList<JobError> &errors,
                                              std::optional<int> exitCode);
    // The detail that names the node lost during an attempt (NodeUnreachable's).
    static QString lostNodeDetail(const QString &node);
    static QStringList lostNodes(const QList<JobError> &errors);

    // The attempt a job is on (1: its first run).
    int attemptOf(qint64 jobId) const;
    // `job` has just failed (its fields say how; the Store still holds it running): queued
    // again as the next attempt when its settings allow, after its last metrics were read.
    // True when it was; `job` is then the queued job as stored.
    // `spec` is the job's, parsed (JobSpecCache).
    bool requeueIfRetryable(Job &job, const JobSpec &spec);
    // `idle` with the nodes lost in the job's earlier attempts moved to the end, so the
    // scheduler takes them only when no other node is idle.
    QList<Node> preferNodes(const Job &job, QList<Node> idle) const;

private:
    Store &m_store;
};

} // namespace TrainDesk

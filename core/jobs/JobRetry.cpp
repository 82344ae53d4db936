#include "JobRetry.h"

#include "common/ResultLog.h"
#include "JobOutput.h"
#include "jobspec/JobSpec.h"
#include "store/Store.h"

#include <QSet>
#include <QUuid>

namespace TrainDesk {

namespace {
const QString lostNodePrefix = QStringLiteral("lost node: ");
}

JobRetry::JobRetry(Store &store) : m_store(store) {}

std::optional<QString> JobRetry::retryReason(const ReliabilitySettings &settings, const QList<JobError> &errors,
                                             std::optional<int> exitCode)
{
    if (settings.maxRetries <= 0 || errors.isEmpty())
        return std::nullopt;
    const QString code = errors.first().code;
    if (code == QLatin1String("NodeUnreachable"))
        return QStringLiteral("a node was lost");
    if (code == QLatin1String("JobHung"))
        return QStringLiteral("the job stopped making progress");
    if (code != QLatin1String("JobFailed") || !exitCode)
        return std::nullopt;
    if (settings.retryOnExitCodes.contains(*exitCode))
        return QStringLiteral("exit code %1 is in retryOnExitCodes").arg(*exitCode);
    // mpirun (and a shell) exit with 128 + N when a process was killed by signal N.
    if (*exitCode > 128 && *exitCode <= 128 + 64)
        return QStringLiteral("a process was killed by signal %1 (exit code %2)").arg(*exitCode - 128).arg(*exitCode);
    return std::nullopt;
}

QString JobRetry::lostNodeDetail(const QString &node) { return lostNodePrefix + node; }

QStringList JobRetry::lostNodes(const QList<JobError> &errors)
{
    QStringList nodes;
    for (const JobError &e : errors) {
        for (const QString &d : e.details) {
            if (d.startsWith(lostNodePrefix))
                nodes << d.mid(lostNodePrefix.size());
        }
    }
    return nodes;
}

int JobRetry::attemptOf(qint64 jobId) const { return int(m_store.jobAttempts(jobId).size()) + 1; }

bool JobRetry::requeueIfRetryable(Job &job, const JobSpec &spec)
{
    const ReliabilitySettings settings = ReliabilitySettings::of(spec);
    const int attempt = attemptOf(job.id);
    if (attempt > settings.maxRetries)
        return false;
    const auto reason = retryReason(settings, job.errors, job.exitCode);
    if (!reason)
        return false;
    // The attempt's last records (written just before it ended) are read before its files
    // are left behind: the next attempt's reads start over in its own directory. (Not from
    // a head node that was lost: it would only time out.)
    if (!job.jobDir.isEmpty() && !lostNodes(job.errors).contains(job.nodes.value(0)))
        logFailure(JobOutput(m_store).ingestMetrics(job),
                   QStringLiteral("job '%1': cannot read the last metrics of its attempt").arg(job.name));
    JobAttempt ended;
    ended.jobId = job.id;
    ended.attempt = attempt;
    ended.uuid = job.uuid;
    ended.jobDir = job.jobDir;
    ended.nodes = job.nodes;
    ended.rankNodes = job.rankNodes;
    ended.started = job.started;
    ended.ended = job.ended;
    ended.exitCode = job.exitCode;
    ended.errors = job.errors;
    ended.errors.first().details << QStringLiteral("queued again as attempt %1 of %2: %3")
                                        .arg(attempt + 1).arg(settings.maxRetries + 1).arg(*reason);
    ended.lostNodes = lostNodes(job.errors);
    const auto requeued = m_store.requeueAttempt(job, ended, QUuid::createUuid().toString(QUuid::WithoutBraces));
    if (!requeued || !*requeued)
        return false;
    if (auto stored = m_store.jobById(job.id))
        job = *stored;
    return true;
}

QList<Node> JobRetry::preferNodes(const Job &job, QList<Node> idle) const
{
    QSet<QString> lost;
    for (const JobAttempt &a : m_store.jobAttempts(job.id)) {
        for (const QString &n : a.lostNodes)
            lost.insert(n);
    }
    if (lost.isEmpty())
        return idle;
    std::stable_partition(idle.begin(), idle.end(), [&](const Node &n) { return !lost.contains(n.name); });
    return idle;
}

} // namespace TrainDesk

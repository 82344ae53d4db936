#include "JobWait.h"

#include "AgentClient.h"
#include "common/ResultLog.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QJsonObject>

namespace TrainDesk::JobWait {

Result<Job> until(Store &store, const QString &dataDirectory, qint64 jobId,
                  const std::function<bool(const Job &)> &reached, qint64 timeoutMs)
{
    AgentClient agent(dataDirectory);
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        auto job = store.jobById(jobId);
        if (!job || isFinished(job->state) || reached(*job) || (timeoutMs >= 0 && timer.elapsed() > timeoutMs))
            return job;
        if (!agent.isConnected()) {
            // A new agent (the old one was killed) picks up where the old one stopped.
            if (auto connected = agent.connectOrStart(); !connected)
                return connected.failure();
            if (auto subscribed = agent.request({{"op", "subscribe"}}); !subscribed)
                return subscribed.failure();
        }
        // A pushed change, or a second without one: read the store again.
        ignoreResult(agent.nextEvent(1000), "a dropped connection shows in isConnected() on the next turn");
    }
}

Result<Job> untilEnded(Store &store, const QString &dataDirectory, qint64 jobId, qint64 timeoutMs)
{
    return until(store, dataDirectory, jobId, [](const Job &) { return false; }, timeoutMs);
}

Result<Job> untilSlurmSubmitted(Store &store, const QString &dataDirectory, const Job &job)
{
    const auto cluster = store.clusterById(job.clusterId);
    if (!cluster || cluster->kind != ClusterKind::Slurm)
        return job;
    auto submitted = until(store, dataDirectory, job.id, [](const Job &j) {
        return !j.schedulerId.isEmpty() && !j.schedulerId.startsWith(QLatin1String("submitting:"));
    }, 120000);
    // Refused: failed before Slurm took it (sbatch said no). One that Slurm ran and that
    // failed at once (its node setup) was submitted: `job show` tells how it ended.
    const bool slurmTookIt = submitted && !submitted->schedulerId.isEmpty()
        && !submitted->schedulerId.startsWith(QLatin1String("submitting:"));
    if (submitted && submitted->state == JobState::Failed && !submitted->errors.isEmpty() && !slurmTookIt)
        return fail(QStringLiteral("job '%1' was refused: %2").arg(submitted->name, submitted->errors.first().message));
    return submitted;
}

} // namespace TrainDesk::JobWait

// JobRunner on Slurm clusters: Slurm allocates, queues and runs; TrainDesk writes the
// job's scripts on the shared file system, submits each queued job once (sbatch), reads
// the states of all of a cluster's jobs with one squeue (and sacct for those squeue has
// forgotten), and cancels with scancel. The job's files are read as on SSH clusters.
#include "JobRunner.h"

#include "common/ResultLog.h"
#include "jobspec/JobSpec.h"
#include "JobPlans.h"
#include "launch/SlurmBatchScript.h"
#include "cluster/SlurmQueries.h"
#include "common/ShellQuote.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

#include <QCoreApplication>

namespace TrainDesk {

namespace {

Result<std::shared_ptr<Transport>> loginTransport(const Cluster &cluster)
{
    return openTransport(cluster, Node{});
}

bool isPending(const QString &state)
{
    static const QStringList pending{QStringLiteral("PENDING"), QStringLiteral("REQUEUED"), QStringLiteral("REQUEUE_HOLD"),
                                     QStringLiteral("REQUEUE_FED"), QStringLiteral("RESV_DEL_HOLD")};
    return pending.contains(state);
}

bool isRunning(const QString &state)
{
    static const QStringList running{QStringLiteral("RUNNING"), QStringLiteral("CONFIGURING"), QStringLiteral("COMPLETING"),
                                     QStringLiteral("SIGNALING"), QStringLiteral("STAGE_OUT"), QStringLiteral("SUSPENDED"),
                                     QStringLiteral("STOPPED"), QStringLiteral("RESIZING")};
    return running.contains(state);
}

} // namespace

void JobRunner::submitToSlurm(const Cluster &cluster)
{
    QList<Job> queued;
    for (const Job &j : liveJobsOn(cluster.id)) {
        if (j.state == JobState::Queued && j.schedulerId.isEmpty())
            queued << j;
    }
    std::stable_sort(queued.begin(), queued.end(), [](const Job &a, const Job &b) {
        return a.priority != b.priority ? a.priority > b.priority : a.created < b.created;
    });
    const QString claim = QStringLiteral("submitting:%1").arg(QCoreApplication::applicationPid());
    for (Job &job : queued) {
        // Of several processes looking at once, one submits.
        const auto claimed = m_store.claimSchedulerSubmit(job.id, claim);
        if (!claimed || !*claimed)
            continue;
        job.schedulerId = claim;
        if (auto submitted = submitOneToSlurm(job, cluster); !submitted) {
            job.schedulerState.clear();
            finish(job, JobState::Failed, std::nullopt, {JobError{QStringLiteral("JobStartFailed"), submitted.error(), {}}});
        }
    }
}

VoidResult JobRunner::submitOneToSlurm(Job &job, const Cluster &cluster)
{
    const auto parsed = m_specs.of(job);
    if (parsed->hasErrors())
        return fail(parsed->errorTexts().join(QStringLiteral("; ")));
    const auto plan = JobPlans::ofJob(m_store, job, parsed->spec, cluster, slurmAllocationNodes(parsed->spec));
    if (!plan)
        return plan.failure();
    auto batch = slurmBatchScript(*plan, parsed->spec, cluster.slurm, job.name);
    if (!batch)
        return batch.failure();
    auto transport = loginTransport(cluster);
    if (!transport)
        return transport.failure();
    if (auto linked = linkShares(cluster, {Node{}}); !linked)
        return linked;
    Transport &login = **transport;
    if (auto ok = login.makeDirectories(plan->stdOutErrDir); !ok)
        return ok;
    const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    if (auto ok = login.writeFile(plan->launchScriptPath(), plan->launchScript.toUtf8(), ownerOnly); !ok)
        return ok;
    if (!plan->secretsFile.isEmpty()) {  // read and removed by the launch script
        if (auto ok = login.writeFile(plan->secretsFilePath(), plan->secretsFile.toUtf8(),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            !ok)
            return ok;
    }
    if (auto ok = login.writeFile(plan->outputDirectoriesPath(), plan->outputDirectoriesText()); !ok)
        return ok;
    if (auto ok = login.writeFile(plan->batchScriptPath(), batch->toUtf8(), ownerOnly); !ok)
        return ok;
    const auto submitted = login.exec(QStringLiteral("sbatch --parsable %1").arg(shellQuote(plan->batchScriptPath())), 60000);
    if (!submitted)
        return submitted.failure();
    if (submitted->exitCode != 0) {
        const QString message = QString::fromLocal8Bit(submitted->stdErr).trimmed();
        return fail(message.isEmpty() ? QStringLiteral("sbatch exited with code %1").arg(submitted->exitCode) : message);
    }
    // --parsable: "<id>" or "<id>;<cluster>".
    const QString id = QString::fromUtf8(submitted->stdOut).trimmed().section(QLatin1Char(';'), 0, 0);
    if (id.isEmpty())
        return fail(QStringLiteral("sbatch printed no job id"));
    job.schedulerId = id;
    job.schedulerState = QStringLiteral("PENDING");
    job.jobDir = plan->jobDir;
    job.rankNodes = plan->rankNodes;  // node-i until the allocation is known
    return m_store.updateJob(job);
}

void JobRunner::refreshSlurm(const Cluster &cluster)
{
    QList<Job> watched;
    QStringList ids;
    for (const Job &j : liveJobsOn(cluster.id)) {
        const bool submitted = !j.schedulerId.isEmpty() && !j.schedulerId.startsWith(QLatin1String("submitting:"));
        if (submitted && (j.state == JobState::Queued || isActive(j.state))) {
            watched << j;
            ids << j.schedulerId;
        }
    }
    if (watched.isEmpty())
        return;
    auto transport = loginTransport(cluster);
    if (!transport)
        return;  // login node unreachable for now: look again next time
    Transport &login = **transport;
    const auto queue = login.exec(SlurmQueries::jobsCommand(ids), 30000);
    if (!queue || queue->exitCode != 0)
        return;
    QHash<QString, SlurmQueries::JobStatus> statuses = SlurmQueries::parseJobs(queue->stdOut);
    QStringList forgotten;
    for (const QString &id : ids) {
        if (!statuses.contains(id))
            forgotten << id;
    }
    if (!forgotten.isEmpty()) {
        if (const auto accounted = login.exec(SlurmQueries::accountingCommand(forgotten), 30000))
            statuses.insert(SlurmQueries::parseAccounting(accounted->stdOut));
    }
    for (Job &job : watched) {
        const auto status = statuses.constFind(job.schedulerId);
        if (status == statuses.constEnd()) {
            // Slurm forgot it and has no accounting: its exit code file is all there is.
            if (const auto code = readExitCode(login, job.jobDir + QStringLiteral("/exit_code")))
                finishWithExitCode(job, login, code->first, code->second);
            else
                finish(job, JobState::Failed, std::nullopt,
                       {JobError{QStringLiteral("JobProcessVanished"),
                                 QStringLiteral("Slurm job %1 is no longer known to Slurm and recorded no exit code")
                                     .arg(job.schedulerId),
                                 {}}});
            continue;
        }
        applySlurmStatus(job, login, *status);
    }
}

void JobRunner::applySlurmStatus(Job &job, Transport &login, const SlurmJobState &status)
{
    const QString &state = status.state;
    const QString &reason = status.reason;
    const QStringList &nodes = status.nodes;
    if (!job.started.isValid() && status.started.isValid())
        job.started = status.started;
    const QString shown = reason.isEmpty() ? state : QStringLiteral("%1 (%2)").arg(state, reason);
    if (isPending(state)) {
        if (job.schedulerState != shown) {
            job.schedulerState = shown;
            logFailure(m_store.updateJob(job), QStringLiteral("job '%1': cannot store Slurm's state").arg(job.name));
        }
        return;
    }
    if (isRunning(state)) {
        bool changed = job.schedulerState != shown;
        job.schedulerState = shown;
        if (job.state == JobState::Queued) {
            job.state = JobState::Running;
            if (!job.started.isValid())
                job.started = QDateTime::currentDateTimeUtc();
            changed = true;
        }
        if (!nodes.isEmpty() && job.nodes != nodes) {
            // node-i of the plan is the allocation's i-th node.
            for (QString &rankNode : job.rankNodes) {
                const int i = rankNode.mid(5).toInt();
                if (rankNode.startsWith(QLatin1String("node-")) && i < nodes.size())
                    rankNode = nodes.at(i);
            }
            job.nodes = nodes;
            changed = true;
        }
        if (changed) {
            // Still Queued in the store on failure: the next refresh sees it running again.
            logFailure(m_store.updateJob(job), QStringLiteral("job '%1': cannot store that it runs").arg(job.name));
            setNodesState(job, NodeState::Running);
        }
        return;
    }
    job.schedulerState = shown;
    if (!nodes.isEmpty() && job.nodes.isEmpty())
        job.nodes = nodes;
    const auto exitCode = readExitCode(login, job.jobDir + QStringLiteral("/exit_code"));
    if (state == QLatin1String("CANCELLED") && job.state == JobState::Terminating) {
        finish(job, JobState::Failed, exitCode ? std::optional<int>(exitCode->first) : std::nullopt,
               {terminatedError(job, {QStringLiteral("Slurm job %1 cancelled").arg(job.schedulerId)})});
        return;
    }
    if (state == QLatin1String("TIMEOUT")) {
        finish(job, JobState::Failed, exitCode ? std::optional<int>(exitCode->first) : std::nullopt,
               {JobError{QStringLiteral("MaxWallClockTimeExceeded"),
                         QStringLiteral("the job ran past constraints.maxWallClockTime and Slurm stopped it"),
                         {QStringLiteral("Slurm job %1: TIMEOUT").arg(job.schedulerId)}}});
        return;
    }
    // The launch script ran to its end: its exit code and failed step say how the job went.
    if (exitCode && (state == QLatin1String("COMPLETED") || state == QLatin1String("FAILED"))) {
        finishWithExitCode(job, login, exitCode->first, exitCode->second);
        return;
    }
    static const QHash<QString, QString> codes{{QStringLiteral("NODE_FAIL"), QStringLiteral("NodeFailed")},
                                               {QStringLiteral("OUT_OF_MEMORY"), QStringLiteral("OutOfMemory")},
                                               {QStringLiteral("BOOT_FAIL"), QStringLiteral("NodeFailed")},
                                               {QStringLiteral("PREEMPTED"), QStringLiteral("JobPreempted")},
                                               {QStringLiteral("DEADLINE"), QStringLiteral("JobDeadlinePassed")},
                                               {QStringLiteral("CANCELLED"), QStringLiteral("JobCancelled")}};
    const QString code = codes.value(state, QStringLiteral("JobFailed"));
    const QString message = state == QLatin1String("CANCELLED")
        ? QStringLiteral("Slurm cancelled the job (scancel outside TrainDesk, or an administrator)")
        : QStringLiteral("Slurm ended the job: %1").arg(shown);
    finish(job, JobState::Failed, exitCode ? std::optional<int>(exitCode->first) : std::nullopt,
           {JobError{code, message, {QStringLiteral("Slurm job %1; see stdouterr/slurm-%1.txt").arg(job.schedulerId)}}});
}

VoidResult JobRunner::cancelOnSlurm(Job &job, const Cluster &cluster)
{
    if (job.schedulerId.startsWith(QLatin1String("submitting:")))
        return fail(QStringLiteral("job '%1' is being submitted to Slurm right now; terminate it again in a moment").arg(job.name));
    auto transport = loginTransport(cluster);
    if (!transport)
        return transport.failure();
    job.state = JobState::Terminating;
    if (auto ok = m_store.updateJob(job); !ok)
        return ok;
    const auto cancelled = (*transport)->exec(QStringLiteral("scancel %1").arg(shellQuote(job.schedulerId)), 30000);
    if (!cancelled)
        return cancelled.failure();
    if (cancelled->exitCode != 0)
        return fail(QStringLiteral("scancel %1: %2").arg(job.schedulerId, QString::fromLocal8Bit(cancelled->stdErr).trimmed()));
    return {};
}

} // namespace TrainDesk

#include "JobSubmission.h"

#include "JobDemand.h"
#include "JobPlans.h"
#include "jobspec/JobSpec.h"
#include "jobspec/Secrets.h"
#include "launch/JobSpecContext.h"
#include "launch/RunWithoutContainer.h"
#include "store/Store.h"

#include <QUuid>

namespace TrainDesk {

Result<Job> JobSubmission::submit(const SubmitRequest &request)
{
    const auto ws = m_store.workspace(request.workspace);
    if (!ws)
        return ws.failure();
    const auto exp = m_store.experiment(ws->id, request.experiment);
    if (!exp)
        return exp.failure();
    const auto cluster = m_store.cluster(ws->id, request.cluster);
    if (!cluster)
        return cluster.failure();
    // A sweep's trial is found by its name: no other job may take it.
    if (const auto held = m_store.sweepHoldingJobName(exp->id, request.job); held && held->first != request.sweep)
        return fail(QStringLiteral("job name '%1' is trial %2 of sweep '%3' in experiment '%4'; pick another name")
                        .arg(request.job).arg(held->second).arg(held->first, exp->name));
    const QByteArray spec = request.noContainer ? RunWithoutContainer::apply(request.spec) : request.spec;
    // The same checks as `job validate`, plus the cluster's size and the workspace's shares.
    const ParsedJobSpec parsed = parseJobSpec(spec, specContextFor(m_store, *ws, *cluster));
    if (parsed.hasErrors())
        return fail(QStringLiteral("job.json is not valid: %1").arg(parsed.errorTexts().join(QStringLiteral("; "))));
    // Build the plan now so that a job that could never start is refused at submit.
    if (auto plan = JobPlans::ofSpec(m_store, parsed.spec, *ws, *cluster, request.experiment, request.job); !plan)
        return plan.failure();
    // An image the nodes cannot run would fail at node setup: refused now, saying what to do.
    if (const auto refused = RunWithoutContainer::refusal(parsed.spec, m_store.nodes(cluster->id)))
        return fail(*refused);
    // More GPUs than any node has would wait for ever.
    if (const auto refused = JobDemand::refusal(parsed.spec, *cluster, m_store.nodes(cluster->id)))
        return fail(*refused);
    // Secret values never reach the database in clear.
    const auto stored = Secrets::sealForStore(spec, parsed.spec, m_store.path());
    if (!stored)
        return stored.failure();

    Job job;
    job.experimentId = exp->id;
    job.clusterId = cluster->id;
    job.name = request.job;
    job.spec = *stored;
    job.state = request.draft ? JobState::Draft : JobState::Queued;
    job.priority = parsed.spec.priorityRank();
    job.uuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    auto created = m_store.createJob(job);
    if (!created)
        return created;
    // The agent schedules it (only the agent starts jobs); the caller wakes it.
    return m_store.jobById(created->id);
}

Result<Job> JobSubmission::queue(qint64 jobId)
{
    auto job = m_store.jobById(jobId);
    if (!job)
        return job;
    if (job->state != JobState::Draft)
        return fail(QStringLiteral("job '%1' is %2, not a draft").arg(job->name, toString(job->state)));
    job->state = JobState::Queued;
    job->created = QDateTime::currentDateTimeUtc();
    if (auto ok = m_store.updateJob(*job); !ok)
        return ok.failure();
    return m_store.jobById(jobId);
}

VoidResult JobSubmission::remove(qint64 jobId)
{
    const auto job = m_store.jobById(jobId);
    if (!job)
        return job.failure();
    if (job->state == JobState::Queued || isActive(job->state))
        return fail(QStringLiteral("job '%1' is %2: terminate it first").arg(job->name, toString(job->state)));
    // A draft or an ended job: the agent's JobSpecCache (queued and running jobs) has it not.
    return m_store.deleteJob(jobId);
}

Result<LaunchPlan> JobSubmission::plan(const QString &workspace, const QString &clusterName, const QByteArray &spec,
                                       const QString &experiment, const QString &jobName)
{
    const auto ws = m_store.workspace(workspace);
    if (!ws)
        return ws.failure();
    const auto cluster = m_store.cluster(ws->id, clusterName);
    if (!cluster)
        return cluster.failure();
    const ParsedJobSpec parsed = parseJobSpec(spec, specContextFor(m_store, *ws, *cluster));
    if (parsed.hasErrors())
        return fail(QStringLiteral("job.json is not valid: %1").arg(parsed.errorTexts().join(QStringLiteral("; "))));
    return JobPlans::ofSpec(m_store, parsed.spec, *ws, *cluster, experiment, jobName);
}

Result<LaunchPlan> JobSubmission::planOf(const Job &job)
{
    const auto cluster = m_store.clusterById(job.clusterId);
    if (!cluster)
        return cluster.failure();
    QList<Node> nodes = m_store.nodes(cluster->id);
    if (!job.nodes.isEmpty()) {
        // The nodes it ran on, head node first.
        QList<Node> assigned;
        for (const QString &name : job.nodes) {
            for (const Node &n : nodes) {
                if (n.name == name)
                    assigned.append(n);
            }
        }
        nodes = assigned;
    }
    // Parsed as the agent parses it (without context: the checks were made at submit).
    const ParsedJobSpec parsed = parseJobSpec(job.spec);
    if (parsed.hasErrors())
        return fail(parsed.errorTexts().join(QStringLiteral("; ")));
    return JobPlans::ofJob(m_store, job, parsed.spec, *cluster, nodes);
}

} // namespace TrainDesk

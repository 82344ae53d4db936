#include "JobPlans.h"

#include "jobspec/JobSpec.h"
#include "jobspec/Secrets.h"
#include "launch/JobSpecContext.h"
#include "launch/SlurmBatchScript.h"
#include "store/Store.h"

namespace TrainDesk::JobPlans {

Result<LaunchPlan> ofSpec(const Store &store, const JobSpec &spec, const Workspace &ws, const Cluster &cluster,
                          const QString &experiment, const QString &jobName)
{
    const auto opened = Secrets::openFromStore(spec, store.path());
    if (!opened)
        return opened.failure();
    LaunchContext context = launchContextFor(store, ws, cluster);
    context.experiment = experiment;
    context.job = jobName;
    context.uuid = QStringLiteral("<uuid>");
    if (cluster.kind != ClusterKind::Slurm) {
        context.nodes = store.nodes(cluster.id);
        return buildLaunchPlan(*opened, context);
    }
    // Slurm: the allocation's nodes stand in as node-0, node-1, ...; the batch script too.
    context.nodes = slurmAllocationNodes(spec);
    auto plan = buildLaunchPlan(*opened, context);
    if (!plan)
        return plan;
    auto batch = slurmBatchScript(*plan, spec, cluster.slurm, jobName);
    if (!batch)
        return batch.failure();
    plan->batchScript = *batch;
    return plan;
}

Result<LaunchPlan> ofJob(const Store &store, const Job &job, const JobSpec &spec, const Cluster &cluster,
                         const QList<Node> &nodes)
{
    const auto exp = store.experimentById(job.experimentId);
    if (!exp)
        return exp.failure();
    const auto ws = store.workspaceById(exp->workspaceId);
    if (!ws)
        return ws.failure();
    // The stored spec has its secrets sealed; the plan (and only the launch script) has them open.
    const auto opened = Secrets::openFromStore(spec, store.path());
    if (!opened)
        return opened.failure();
    LaunchContext context = launchContextFor(store, *ws, cluster);
    context.experiment = exp->name;
    context.job = job.name;
    context.uuid = job.uuid;
    context.nodes = nodes;
    if (!job.placement.isEmpty())
        context.grant = job.placement.first();  // a packed job: one node
    if (const QList<JobAttempt> attempts = store.jobAttempts(job.id); !attempts.isEmpty()) {
        context.attempt = int(attempts.size()) + 1;
        context.previousUuid = attempts.last().uuid;
    }
    return buildLaunchPlan(*opened, context);
}

} // namespace TrainDesk::JobPlans

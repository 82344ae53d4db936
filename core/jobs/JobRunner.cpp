#include "JobRunner.h"

#include "common/ResultLog.h"
#include "jobspec/JobSpec.h"
#include "JobDemand.h"
#include "JobPlans.h"
#include "JobRetry.h"
#include "NodeBurnIn.h"
#include "JobScope.h"
#include "SpaceReserve.h"
#include "StrayProcessCleanup.h"
#include "cluster/ClusterMesh.h"
#include "cluster/TrainerDeployment.h"
#include "launch/MultiNodeJob.h"
#include "cluster/NodeInterfaces.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace TrainDesk {

namespace {

// Exit status 0 while any process of the group (or the process) is alive and not a
// zombie: in containers PID 1 may never reap the orphaned launch script, and a zombie
// still answers kill -0.
QString aliveCommand(qint64 pid, bool wholeGroup)
{
    const QString column = wholeGroup ? QStringLiteral("pgid") : QStringLiteral("pid");
    return QStringLiteral("ps -eo %1=,stat= | awk '$1 == %2 && $2 !~ /^Z/ { found = 1 } END { exit !found }'")
        .arg(column)
        .arg(pid);
}

// Whether the job's launch process still runs (a zombie does not): read from /proc on this
// machine (the local cluster: no `ps` started twice a second per job), else asked of the node.
// Nothing when the node did not answer.
std::optional<bool> launchAlive(const Cluster &cluster, Transport &transport, qint64 pid)
{
    if (cluster.kind == ClusterKind::Local) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return false;
        // "pid (comm) S ...": the state follows the last ')' (comm may hold one).
        const QByteArray line = stat.read(4096);
        const qsizetype close = line.lastIndexOf(')');
        return close >= 0 && close + 2 < line.size() && line.at(close + 2) != 'Z';
    }
    const auto alive = transport.exec(aliveCommand(pid, false), 15000);
    if (!alive)
        return std::nullopt;
    return alive->exitCode == 0;
}

JobError jobError(const QString &code, const QString &message, const QStringList &details = {})
{
    return JobError{code, message, details};
}

// The lines of the job's stderr.txt from its nodes' setup ("node <name> (<host>): ..."), with
// mpirun's tags taken off: at most 10 lines of 400 characters, from the file's first 16 KiB
// (the setup writes before anything else of the job does).
QStringList nodeSetupMessages(Transport &transport, const QString &jobDir)
{
    const auto text = transport.readAt(jobDir + QStringLiteral("/stdouterr/stderr.txt"), 0, 16 * 1024);
    if (!text)
        return {};
    static const QRegularExpression tag(QStringLiteral("^\\[[0-9]+,[0-9]+\\]<std(?:err|out)>:"));
    QStringList lines;
    for (QString line : QString::fromUtf8(*text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        line.remove(tag);
        line = line.trimmed();
        if (line.startsWith(QLatin1String("node ")) && lines.size() < 10)
            lines << line.left(400);
    }
    return lines;
}

} // namespace

std::optional<std::pair<int, QDateTime>> readExitCode(Transport &transport, const QString &path)
{
    const auto info = transport.stat(path);
    if (!info)
        return std::nullopt;
    const auto text = transport.readAt(path, 0, 64);
    if (!text)
        return std::nullopt;
    bool ok = false;
    const int code = text->trimmed().toInt(&ok);
    return std::make_pair(ok ? code : -1, info->modified);
}

JobRunner::JobRunner(Store &store) : m_store(store) {}

void JobRunner::schedule(qint64 clusterId)
{
    const auto cluster = m_store.clusterById(clusterId);
    if (!cluster)
        return;
    if (cluster->kind == ClusterKind::Slurm) {
        submitToSlurm(*cluster);
        return;
    }
    const QList<Node> allNodes = m_store.nodes(clusterId);
    QList<ResourcePlacement::Offer> offers;
    for (const Node &n : allNodes)
        offers.append({n.name, n.slotCount, n.gpuCount});
    ResourcePlacement placement(offers);
    QList<Job> queued;
    for (const Job &j : liveJobsOn(clusterId)) {
        if (isActive(j.state))
            placement.hold(j.nodes, j.placement);
        else if (j.state == JobState::Queued)
            queued.append(j);
    }
    std::stable_sort(queued.begin(), queued.end(), [](const Job &a, const Job &b) {
        if (a.priority != b.priority)
            return a.priority > b.priority;
        return a.created < b.created;
    });
    QString heldBack;  // the first job that does not fit holds back those behind it
    for (Job &job : queued) {
        if (!heldBack.isEmpty()) {
            waitFor(job, QStringLiteral("behind job '%1'").arg(heldBack));
            continue;
        }
        const auto parsed = m_specs.of(job);
        QList<Node> ready;
        for (const Node &n : allNodes) {
            // Nodes past the cluster's target are leaving and take no new work.
            if (n.index < cluster->targetNodeCount && (n.state == NodeState::Idle || n.state == NodeState::Running))
                ready.append(n);
        }
        ready = JobRetry(m_store).preferNodes(job, ready);  // a retried job avoids the nodes it lost
        QStringList candidates;
        for (const Node &n : ready)
            candidates << n.name;
        const ResourceDemand demand = JobDemand::of(parsed->spec, cluster->kind);
        QSet<QString> freeBefore;
        for (const QString &n : candidates) {
            if (placement.isFree(n))
                freeBefore.insert(n);
        }
        const auto placed = placement.place(demand, candidates);
        if (!placed) {
            waitFor(job, placement.whyNot(demand, candidates));
            heldBack = job.name;
            continue;
        }
        QList<Node> assigned;
        QList<Node> burnIn;  // a node is burnt in only while nothing runs on it
        for (const QString &name : placed->nodes) {
            for (const Node &n : ready) {
                if (n.name == name) {
                    assigned.append(n);
                    if (freeBefore.contains(name))
                        burnIn.append(n);
                }
            }
        }
        if (!burnIn.isEmpty() && !NodeBurnIn(m_store).passesBeforeJob(*cluster, burnIn)) {
            placement.release(placed->grants);
            heldBack = job.name;  // a node failed its burn-in and is unusable now: the job waits for others
            continue;
        }
        job.placement = placed->wholeNodes ? QList<NodeGrant>{} : placed->grants;
        if (auto started = start(job, parsed->spec, *cluster, assigned); !started) {
            placement.release(placed->grants);
            finish(job, JobState::Failed, std::nullopt,
                   {jobError(QStringLiteral("JobStartFailed"), started.error())});
            continue;
        }
    }
}

QList<Job> JobRunner::liveJobsOn(qint64 clusterId) const
{
    QList<Job> live;
    for (const Job &j : m_store.jobsInStates({JobState::Queued, JobState::Running, JobState::Terminating})) {
        if (j.clusterId == clusterId)
            live.append(j);
    }
    return live;
}

void JobRunner::waitFor(const Job &job, const QString &reason)
{
    if (job.schedulerState != reason)
        logFailure(m_store.setJobWaitReason(job.id, reason), QStringLiteral("job '%1'").arg(job.name));
}

VoidResult JobRunner::linkShares(const Cluster &cluster, const QList<Node> &nodes)
{
    // Every share of the workspace appears under the mount root, as the service mounted
    // Azure file shares there, so a job.json written for it runs unchanged.
    QString command = QStringLiteral("mkdir -p %1").arg(shellQuote(cluster.mountRoot));
    for (const Share &share : m_store.shares(cluster.workspaceId)) {
        command += QStringLiteral(" && ln -sfn %1 %2")
                       .arg(shellQuote(share.path), shellQuote(cluster.mountRoot + QLatin1Char('/') + share.name));
    }
    for (const Node &node : nodes) {
        auto transport = openTransport(cluster, node);
        if (!transport)
            return transport.failure();
        const auto result = (*transport)->exec(command);
        if (!result)
            return result.failure();
        if (result->exitCode != 0) {
            return fail(QStringLiteral("node %1: cannot link shares under %2: %3")
                            .arg(node.name, cluster.mountRoot, QString::fromLocal8Bit(result->stdErr).trimmed()));
        }
    }
    return {};
}

VoidResult JobRunner::deployTrainer(const Cluster &cluster, const QList<Node> &nodes)
{
    if (cluster.kind != ClusterKind::Ssh)
        return {};  // the local cluster runs it where it is; Slurm's nodes share its file system
    const auto bundle = TrainerDeployment::localBundle(DataPaths::trainerDirectory());
    if (!bundle)
        return {};  // nothing to copy: the nodes' own traindesk-trainer, if any, runs
    return TrainerDeployment::ensureOnNodes(cluster, nodes, *bundle);
}

VoidResult JobRunner::start(Job &job, const JobSpec &spec, const Cluster &cluster, const QList<Node> &assigned)
{
    // The network the nodes share is known before the plan sets Gloo's, NCCL's and Open MPI's
    // interfaces: read now where nothing recorded it (a cluster never probed).
    const QList<Node> nodes = cluster.kind == ClusterKind::Ssh && assigned.size() > 1
        ? NodeInterfaces::recordMissing(m_store, cluster, assigned)
        : assigned;
    const auto plan = JobPlans::ofJob(m_store, job, spec, cluster, nodes);
    if (!plan)
        return plan.failure();
    // Claimed before anything happens on a node: a second scheduler finds it running.
    const auto claimed = m_store.claimQueuedJob(job.id);
    if (!claimed)
        return claimed.failure();
    if (!*claimed)
        return {};
    job.state = JobState::Running;
    job.started = QDateTime::currentDateTimeUtc();
    job.jobDir = plan->jobDir;
    job.pid = 0;  // known once the launch process runs
    job.nodes.clear();
    for (const Node &n : nodes)
        job.nodes << n.name;
    job.rankNodes = plan->rankNodes;
    job.schedulerState.clear();  // it waits no more
    if (auto ok = m_store.updateJob(job); !ok)
        return ok;
    setNodesState(job, NodeState::Running);

    if (auto linked = linkShares(cluster, nodes); !linked)
        return linked;
    if (auto deployed = deployTrainer(cluster, nodes); !deployed)
        return deployed;
    auto head = openTransport(cluster, nodes.first());
    if (!head)
        return head.failure();
    Transport &transport = **head;
    if (auto ok = transport.makeDirectories(plan->stdOutErrDir); !ok)
        return ok;
    // Several SSH nodes: the launch script's mpirun logs in from the head node to the
    // others with ssh; a node it cannot reach fails the start with the node named.
    if (nodes.size() > 1 && cluster.kind == ClusterKind::Ssh) {
        // The head node's cluster folder missing (removed, or named before cluster folders
        // carried the data directory's id): made again first, as `cluster setup` would.
        const auto config = transport.exec(QStringLiteral("test -f \"$HOME\"/%1").arg(shellQuote(ClusterMesh::configRelativePath(cluster))), 15000);
        if (config && config->exitCode != 0) {
            if (auto meshed = ClusterMesh::setUp(cluster, m_store.allNodes(cluster.id),
                                                 [&](const Node &n) { return openTransport(cluster, n); });
                !meshed)
                return meshed;
        }
        if (auto reached = MultiNodeJob::checkHeadReachesWorkers(cluster, nodes, transport); !reached)
            return reached;
    }
    if (auto ok = transport.writeFile(plan->hostfilePath(), plan->hostfile.toUtf8()); !ok)
        return ok;
    if (auto ok = transport.writeFile(plan->outputDirectoriesPath(), plan->outputDirectoriesText()); !ok)
        return ok;
    if (auto ok = transport.writeFile(plan->launchScriptPath(), plan->launchScript.toUtf8(),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        !ok)
        return ok;
    // The secrets' values: read and removed by the launch script before its first step.
    if (!plan->secretsFile.isEmpty()) {
        if (auto ok = transport.writeFile(plan->secretsFilePath(), plan->secretsFile.toUtf8(),
                                          QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            !ok)
            return ok;
    }
    // The launch token: mkdir is atomic on the node, so of two launches of one job (a
    // scheduler killed after this point and started again) only the first goes on.
    const QString token = shellQuote(plan->jobDir + QLatin1Char('/') + launchTokenName());
    const auto tokenMade = transport.exec(QStringLiteral("mkdir %1").arg(token), 15000);
    if (!tokenMade)
        return tokenMade.failure();
    if (tokenMade->exitCode != 0)
        return {};  // launched before: refresh() adopts the launch script's pid file
    // The launch script carries the job's marker from its start (and runs in the job's scope
    // where the node has one), so the stray-process clean-up waits for it and its clean-up steps too.
    const auto pid = transport.startDetached(MultiNodeJob::launchPrefix(cluster)
                                             + JobScope::launchCommand(job.uuid, plan->jobDir, plan->launchScriptPath(),
                                                                       m_terminateGraceMs / 1000));
    if (!pid) {
        // Nothing will read it. The launch's own failure is the one to report: a node that
        // cannot start a command likely cannot remove a file either.
        logFailure(transport.remove(plan->secretsFilePath()),
                   QStringLiteral("job '%1': cannot remove its secrets file").arg(job.name));
        return pid.failure();
    }
    job.pid = *pid;
    return m_store.updateJob(job);
}

void JobRunner::setNodesState(const Job &job, NodeState state)
{
    // A node another job still runs on stays running when this one ends.
    QSet<QString> stillRunning;
    if (state == NodeState::Idle) {
        for (const Job &other : liveJobsOn(job.clusterId)) {
            if (other.id != job.id && isActive(other.state))
                stillRunning.unite(QSet<QString>(other.nodes.cbegin(), other.nodes.cend()));
        }
    }
    for (const Node &n : m_store.nodes(job.clusterId)) {
        if (job.nodes.contains(n.name) && !stillRunning.contains(n.name) && n.state != NodeState::Unusable
            && n.state != NodeState::Leaving)
            logFailure(m_store.setNodeState(n.id, state),
                       QStringLiteral("job '%1': cannot store the state of node %2").arg(job.name, n.name));
    }
}

void JobRunner::finish(Job &job, JobState state, std::optional<int> exitCode, const QList<JobError> &errors,
                       const QDateTime &ended)
{
    job.state = state;
    job.exitCode = exitCode;
    job.errors = errors;
    job.ended = ended.isValid() ? ended : QDateTime::currentDateTimeUtc();
    // A failed attempt that may run again is queued as the next one instead (JobRetry);
    // its nodes are freed and swept all the same.
    const Job attempt = job;
    const bool requeued = state == JobState::Failed && JobRetry(m_store).requeueIfRetryable(job, m_specs.of(job)->spec);
    // A full data directory must not keep a job "running" after it ended: the reserve goes.
    if (!requeued) {
        if (auto stored = m_store.updateJob(job); !stored) {
            if (m_reserve && m_reserve->release())
                stored = m_store.updateJob(job);
            if (!stored)
                qWarning("traindesk: cannot store the end of job '%s': %s", qPrintable(job.name), qPrintable(stored.error()));
        }
    }
    if (!attempt.nodes.isEmpty()) {
        setNodesState(attempt, NodeState::Idle);
        // A node out of reach now is cleaned up when it comes back (retryPendingCleanups), by
        // this agent or the next one.
        for (const QString &node : StrayProcessCleanup::startOnNodes(m_store, attempt, m_terminateGraceMs / 1000))
            logFailure(m_store.addPendingCleanup({attempt.clusterId, node, attempt.uuid}),
                       QStringLiteral("job '%1': cannot remember to clean up node %2").arg(attempt.name, node));
    }
    m_nodeWatch.forget(job.id);
    m_progressWatch.forget(job.id);
    if (!requeued)
        m_specs.forget(job.id);  // it ends: its spec is read again only if it is shown
}

Result<Job> JobRunner::refresh(qint64 jobId)
{
    auto job = m_store.jobById(jobId);
    if (!job || !(isActive(job->state) || (job->state == JobState::Queued && !job->schedulerId.isEmpty())))
        return job;
    const auto cluster = m_store.clusterById(job->clusterId);
    if (!cluster)
        return cluster.failure();
    if (cluster->kind == ClusterKind::Slurm) {
        refreshSlurm(*cluster);
        return m_store.jobById(jobId);
    }
    const QList<Node> nodes = m_store.nodes(cluster->id);
    const auto headNode = std::find_if(nodes.begin(), nodes.end(),
                                       [&](const Node &n) { return !job->nodes.isEmpty() && n.name == job->nodes.first(); });
    if (headNode == nodes.end()) {
        finish(*job, JobState::Failed, std::nullopt,
               {jobError(QStringLiteral("NodeRemoved"), QStringLiteral("the job's head node left the cluster"))});
        return job;
    }
    if (cluster->kind == ClusterKind::Ssh && m_nodeWatch.dueForLook(job->id)) {
        if (const auto lost = lostNode(*job, *cluster, nodes)) {
            finish(*job, JobState::Failed, std::nullopt,
                   {jobError(QStringLiteral("NodeUnreachable"),
                             QStringLiteral("node %1 could not be reached for %2 s (the cluster allows %3 s)")
                                 .arg(lost->first)
                                 .arg(lost->second)
                                 .arg(cluster->nodeLostGraceSeconds),
                             {QStringLiteral("the job's processes on the other nodes were ended; those on %1 are "
                                             "ended when it can be reached again").arg(lost->first),
                              JobRetry::lostNodeDetail(lost->first)})});
            // The node says so until it answers again (retryPendingCleanups), and takes no job meanwhile.
            for (const Node &n : nodes) {
                if (n.name == lost->first && n.state != NodeState::Leaving)
                    logFailure(m_store.setNodeState(n.id, NodeState::Unusable,
                                                    unreachablePrefix()
                                                        + QStringLiteral("no answer for %1 s; job '%2' failed "
                                                                         "NodeUnreachable; back in service when it answers")
                                                              .arg(lost->second)
                                                              .arg(job->name)),
                               QStringLiteral("node %1: cannot set it aside as unreachable").arg(n.name));
            }
            return job;
        }
    }
    if (cluster->kind == ClusterKind::Ssh && headOutOfReach(*job))
        return job;  // looked at again when it answers
    auto transport = openTransport(*cluster, *headNode);
    if (!transport)
        return transport.failure();
    if (job->pid <= 0)
        return adoptLaunch(*job, **transport);
    const QString exitCodePath = job->jobDir + QStringLiteral("/exit_code");
    auto exitCode = readExitCode(**transport, exitCodePath);
    // The job has ended when its launch process has, not when the exit code is written:
    // under the reaper (JobReaper) that is when nothing the job started is left.
    const auto alive = launchAlive(*cluster, **transport, job->pid);
    if (!alive)
        return job;  // node unreachable for now: look again next time
    if (*alive) {
        if (job->state == JobState::Terminating)
            killAfterGrace(*job, **transport);
        else
            watchProgress(*job, **transport);
        return job;  // still running
    }
    if (!exitCode)
        exitCode = readExitCode(**transport, exitCodePath);  // it may have ended between the two looks
    if (job->state == JobState::Terminating) {
        finish(*job, JobState::Failed, exitCode ? std::optional<int>(exitCode->first) : std::nullopt,
               {terminatedError(*job)},
               exitCode ? exitCode->second : QDateTime());
        return job;
    }
    if (!exitCode) {
        // On a full disk the script could not write its exit code (issue #38): say so, and
        // take away the empty files it left.
        JobError error = jobError(QStringLiteral("JobProcessVanished"),
                                  QStringLiteral("the launch process on %1 ended without recording an exit code").arg(headNode->name));
        if (jobDiskFull(**transport, job->jobDir)) {
            ignoreResult((*transport)->exec(QStringLiteral("rm -f %1/exit_code.tmp %1/failed_step.tmp").arg(shellQuote(job->jobDir)),
                                            15000),
                         "empty files on a full disk: litter, not state");
            error = diskFullError(QStringLiteral("the launch process on %1 could not record its exit code").arg(headNode->name),
                                  job->jobDir);
        }
        finish(*job, JobState::Failed, std::nullopt, {error});
        return job;
    }
    finishWithExitCode(*job, **transport, exitCode->first, exitCode->second);
    return job;
}

Result<Job> JobRunner::adoptLaunch(Job &job, Transport &transport)
{
    // Claimed, but the scheduler that claimed it stopped before it saved the launch's pid.
    if (const auto pidText = transport.readAt(job.jobDir + QStringLiteral("/pid"), 0, 32)) {
        if (const qint64 pid = pidText->trimmed().toLongLong(); pid > 0) {
            job.pid = pid;
            if (auto ok = m_store.updateJob(job); !ok)
                return ok.failure();
            return refresh(job.id);
        }
    }
    const auto token = transport.stat(job.jobDir + QLatin1Char('/') + launchTokenName());
    if (!token) {
        // Nothing was launched: back to the queue, as if never claimed.
        setNodesState(job, NodeState::Idle);
        job.state = JobState::Queued;
        job.nodes.clear();
        job.rankNodes.clear();
        job.started = {};
        if (auto ok = m_store.updateJob(job); !ok)
            return ok.failure();
        return job;
    }
    if (token->modified.secsTo(QDateTime::currentDateTimeUtc()) > launchPidWaitSeconds) {
        finish(job, JobState::Failed, std::nullopt,
               {jobError(QStringLiteral("JobProcessVanished"),
                         QStringLiteral("the launch on %1 was begun but its script never started").arg(job.nodes.value(0)))});
    }
    return job;
}

std::optional<std::pair<QString, qint64>> JobRunner::lostNode(const Job &job, const Cluster &cluster,
                                                             const QList<Node> &nodes)
{
    // Every node of the job answers a trivial command, or its time out of reach grows; a
    // drop shorter than the cluster's grace period changes nothing.
    std::optional<std::pair<QString, qint64>> longest;
    for (const Node &node : nodes) {
        if (!job.nodes.contains(node.name))
            continue;
        auto transport = openTransport(cluster, node);
        const bool reached = transport && (*transport)->exec(QStringLiteral("true"), reachTimeoutMs);
        const qint64 lostFor = m_nodeWatch.record(job.id, node.name, reached);
        if (lostFor >= cluster.nodeLostGraceSeconds && (!longest || lostFor > longest->second))
            longest = std::make_pair(node.name, lostFor);
    }
    return longest;
}

void JobRunner::retryPendingCleanups()
{
    if (!m_nodeWatch.cleanupsDue())
        return;
    for (const PendingCleanup &cleanup : m_store.pendingCleanups()) {
        if (!StrayProcessCleanup::startOnNode(m_store, cleanup.clusterId, cleanup.node, cleanup.jobUuid, m_terminateGraceMs / 1000))
            continue;
        // Kept on failure: the clean-up runs again (it is harmless twice).
        logFailure(m_store.removePendingCleanup(cleanup),
                   QStringLiteral("node %1: cannot forget its done clean-up").arg(cleanup.node));
        if (const auto job = m_store.jobByUuid(cleanup.jobUuid))
            m_nodesAnsweredFor.append(job->id);
        // It answered: a node set aside as unreachable (refresh()) takes jobs again.
        for (const Node &n : m_store.nodes(cleanup.clusterId)) {
            if (n.name == cleanup.node && n.state == NodeState::Unusable && n.stateReason.startsWith(unreachablePrefix()))
                logFailure(m_store.setNodeState(n.id, NodeState::Idle),
                           QStringLiteral("node %1: cannot put it back in service").arg(n.name));
        }
    }
}

bool JobRunner::jobDiskFull(Transport &transport, const QString &jobDir)
{
    const auto free = transport.exec(QStringLiteral("df -Pk %1 | awk 'NR == 2 { print $4 }'").arg(shellQuote(jobDir)), 15000);
    if (!free || free->exitCode != 0)
        return false;
    bool ok = false;
    const qint64 kib = free->stdOut.trimmed().toLongLong(&ok);
    // Under 64 KiB: full when the job wrote, less the few blocks the launch script's own
    // small files give back as it ends (its reserved failed_step.tmp, 4 KiB).
    return ok && kib < 64;
}

JobError JobRunner::diskFullError(const QString &what, const QString &jobDir)
{
    return jobError(QStringLiteral("DiskFull"),
                    QStringLiteral("%1; the file system of %2 is full (ENOSPC: no space left on device)").arg(what, jobDir),
                    {QStringLiteral("free space there and run the job again; what it could not write (stderr.txt too) "
                                    "is lost")});
}

void JobRunner::finishWithExitCode(Job &job, Transport &transport, int code, const QDateTime &ended)
{
    if (code == 0) {
        finish(job, JobState::Succeeded, 0, {}, ended);
        return;
    }
    const auto failedStep = transport.readAt(job.jobDir + QStringLiteral("/failed_step"), 0, 64);
    const QByteArray step = failedStep ? failedStep->trimmed() : QByteArray();
    JobError error;
    if (step == "job_prep") {
        error = jobError(QStringLiteral("JobPreparationFailed"),
                         QStringLiteral("job preparation exited with code %1").arg(code),
                         {QStringLiteral("see stdouterr/stdout-job_prep-<node>.txt and stderr-job_prep-<node>.txt")});
    } else if (step == "node_setup") {
        // What the nodes' setup said (each line names its node: a mount, the container's image
        // and the engine's own message), then where to read more.
        QStringList details = nodeSetupMessages(transport, job.jobDir);
        details << QStringLiteral("see stdouterr/execution-<node>.log and stderr.txt");
        error = jobError(QStringLiteral("NodeSetupFailed"),
                         QStringLiteral("setting up the nodes (mounts, container) failed with code %1").arg(code), details);
    } else if (step == "max_wall_clock_time") {
        error = jobError(QStringLiteral("MaxWallClockTimeExceeded"),
                         QStringLiteral("the job ran past constraints.maxWallClockTime and was stopped"),
                         {QStringLiteral("exit code %1").arg(code)});
    } else {
        error = jobError(QStringLiteral("JobFailed"), QStringLiteral("the job exited with code %1").arg(code),
                         {QStringLiteral("see stdouterr/stderr.txt")});
        // A full disk is the likely cause when the job's file system has no space left.
        if (jobDiskFull(transport, job.jobDir))
            error = diskFullError(QStringLiteral("the job exited with code %1").arg(code), job.jobDir);
    }
    finish(job, JobState::Failed, code, {error}, ended);
}

void JobRunner::refreshAll()
{
    retryPendingCleanups();
    QSet<qint64> clusters;
    QSet<qint64> slurmClusters;
    for (const Job &job : m_store.jobsInStates({JobState::Running, JobState::Terminating, JobState::Queued})) {
        const auto cluster = m_store.clusterById(job.clusterId);
        if (cluster && cluster->kind == ClusterKind::Slurm)
            slurmClusters.insert(job.clusterId);  // one squeue for all its jobs, below
        else if (isActive(job.state))
            logFailure(refresh(job.id), QStringLiteral("job '%1': cannot refresh its state").arg(job.name));
        clusters.insert(job.clusterId);
    }
    for (qint64 id : slurmClusters) {
        if (const auto cluster = m_store.clusterById(id))
            refreshSlurm(*cluster);
    }
    for (qint64 id : clusters)
        schedule(id);
}

JobError JobRunner::terminatedError(const Job &job, const QStringList &details)
{
    for (const JobError &e : job.errors) {
        if (e.code == QLatin1String("JobTerminated"))
            return JobError{e.code, e.message, details};
    }
    return jobError(QStringLiteral("JobTerminated"), QStringLiteral("the job was terminated by the user"), details);
}

Result<Job> JobRunner::requestTerminate(qint64 jobId, const QString &why)
{
    auto job = refresh(jobId);
    if (!job)
        return job;
    if (isFinished(job->state))
        return fail(QStringLiteral("job '%1' has already %2").arg(job->name, toString(job->state)));
    if ((job->state == JobState::Queued && job->schedulerId.isEmpty()) || job->state == JobState::Draft) {
        finish(*job, JobState::Failed, std::nullopt,
               {jobError(QStringLiteral("JobTerminated"),
                         why.isEmpty() ? QStringLiteral("the job was terminated before it started") : why)});
        return job;
    }
    if (!why.isEmpty()) {
        job->errors.erase(std::remove_if(job->errors.begin(), job->errors.end(),
                                         [](const JobError &e) { return e.code == QLatin1String("JobTerminated"); }),
                          job->errors.end());
        job->errors.append(jobError(QStringLiteral("JobTerminated"), why));
        if (auto stored = m_store.updateJob(*job); !stored)
            return stored.failure();
    }
    if (const auto cluster = m_store.clusterById(job->clusterId); cluster && cluster->kind == ClusterKind::Slurm) {
        if (auto cancelled = cancelOnSlurm(*job, *cluster); !cancelled)
            return cancelled.failure();
        return refresh(jobId);
    }
    job->state = JobState::Terminating;
    if (auto stored = m_store.updateJob(*job); !stored)
        return stored.failure();
    const auto head = openHeadTransport(m_store, *job);
    if (!head || job->pid <= 0)  // (pid 0: not launched yet; refresh adopts it, then kills)
        return refresh(jobId);
    // The launch script leads its own process group (setsid): mpirun and the ranks are in it.
    // (dash, the usual /bin/sh, takes "kill -SIG -PGID" but not "kill -SIG -- -PGID".) The
    // request time goes into the job directory, so whoever refreshes next (this process or
    // another) knows when the grace period ends.
    // A node out of reach now: the refresh below sees it (NodeUnreachable).
    logFailure((*head)->exec(QStringLiteral("date +%s > %1; kill -TERM -%2")
                                 .arg(shellQuote(job->jobDir + QStringLiteral("/terminate_requested")))
                                 .arg(job->pid),
                             15000),
               QStringLiteral("job '%1': cannot ask its processes to end").arg(job->name));
    return refresh(jobId);
}

Result<Job> JobRunner::terminate(qint64 jobId, int graceMs)
{
    auto job = requestTerminate(jobId);
    QElapsedTimer timer;
    timer.start();
    const int savedGrace = m_terminateGraceMs;
    m_terminateGraceMs = graceMs;
    while (job && !isFinished(job->state) && timer.elapsed() < graceMs + 15000) {
        QThread::msleep(200);
        job = refresh(jobId);
    }
    m_terminateGraceMs = savedGrace;
    return job;
}

void JobRunner::killAfterGrace(const Job &job, Transport &transport)
{
    // Past the grace period since terminate was asked for: SIGKILL what is left.
    const QString requestedFile = job.jobDir + QStringLiteral("/terminate_requested");
    const auto requested = transport.readAt(requestedFile, 0, 32);
    if (!requested || job.pid <= 0)
        return;
    const qint64 since = QDateTime::currentSecsSinceEpoch() - requested->trimmed().toLongLong();
    // The reaper (JobReaper) kills all the job holds on SIGUSR1, itself last; killing its
    // process group would kill it first and leave what left the group.
    if (since * 1000 >= m_terminateGraceMs)
        logFailure(transport.exec(QStringLiteral("if grep -qs '^reaper' %1; then kill -USR1 %2; else kill -KILL -%2; fi "
                                                 "2>/dev/null; true")
                                      .arg(shellQuote(job.jobDir + QLatin1Char('/') + JobScope::trackingFileName()))
                                      .arg(job.pid),
                                  15000),
                   QStringLiteral("job '%1': cannot kill what is left after the grace period").arg(job.name));
}

} // namespace TrainDesk

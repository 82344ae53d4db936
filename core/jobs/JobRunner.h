#pragma once

#include "JobSpecCache.h"
#include "NodeWatch.h"
#include "ResourcePlacement.h"
#include "ProgressWatch.h"
#include "common/Result.h"
#include "store/Entities.h"
#include "transport/Transport.h"

#include <memory>
#include <utility>

namespace TrainDesk {

class SpaceReserve;
class Store;
namespace SlurmQueries { struct JobStatus; }
using SlurmJobState = SlurmQueries::JobStatus;

// A job's exit_code file (written by its launch script): the code and when it was written.
std::optional<std::pair<int, QDateTime>> readExitCode(Transport &transport, const QString &path);

// What the agent (agent/Agent) does with jobs: schedules, starts, watches and terminates
// them. Clients store, queue, delete and plan jobs with JobSubmission and wake the agent.
// The state lives in the Store and in files in the job directory, so an agent started
// after another was killed picks up where it left off. Calls block on the nodes.
class JobRunner
{
public:
    explicit JobRunner(Store &store);
    // The agent's reserve on the data directory's disk: let go when a job's end cannot be
    // stored for lack of space, so that it can.
    void setSpaceReserve(SpaceReserve *reserve) { m_reserve = reserve; }

    // Queued jobs in priority then submit order start when what they ask is free: whole
    // nodes (gang scheduling), or cores and GPUs of one node (JobDemand, ResourcePlacement);
    // the first that does not fit waits, says why, and holds back those behind it.
    void schedule(qint64 clusterId);
    // Looks at every active job's files and moves its state on; then schedules.
    void refreshAll();
    Result<Job> refresh(qint64 jobId);
    // Whether the job's head node did not answer its last look: its files are not read
    // until it does (each try would wait for a timeout while the agent answers nobody).
    bool headOutOfReach(const Job &job) const { return !job.nodes.isEmpty() && m_nodeWatch.isLost(job.id, job.nodes.first()); }
    // The ended jobs one of whose nodes answered again since the last call (the stray-process
    // clean-up it waited for ran): what they wrote while it was cut is there to read now.
    QList<qint64> takeJobsWhoseNodesAnswered() { return std::exchange(m_nodesAnsweredFor, {}); }
    // SIGTERM to the job's process group now; a refresh after the grace period sends
    // SIGKILL to what is left. Does not wait. `why`: what the job's JobTerminated error
    // says when it has ended (an early-stopped trial's rule), kept on the job while it
    // terminates so that its first report already says it; empty: terminated by the user.
    Result<Job> requestTerminate(qint64 jobId, const QString &why = QString());
    // requestTerminate, then waits until the job has ended (at most graceMs + 15 s).
    Result<Job> terminate(qint64 jobId, int graceMs = terminateGraceMs);
    // Between SIGTERM and SIGKILL when a job is terminated.
    static constexpr int terminateGraceMs = 10000;
    // A node that does not answer `true` within this long is out of reach for the moment.
    static constexpr int reachTimeoutMs = 10000;
    // The folder made on the head node just before the launch (see start()).
    static QString launchTokenName() { return QStringLiteral("launch.token"); }
    // The start of the reason of a node set aside because it did not answer (as
    // ClusterService::refresh writes it too, and clears it when the node answers).
    static QString unreachablePrefix() { return QStringLiteral("unreachable: "); }
    // How long a launch token may stand without the launch script's pid file.
    static constexpr int launchPidWaitSeconds = 60;

private:
    // The JobTerminated error a terminated job ends with (requestTerminate's `why`).
    static JobError terminatedError(const Job &job, const QStringList &details = {});
    // A claimed job without a saved pid: adopt the launch script's pid, or requeue the job
    // when nothing was launched, or fail it when the launch never got going.
    Result<Job> adoptLaunch(Job &job, Transport &transport);
    // The job's node out of reach for longer than the cluster's grace period, with seconds.
    std::optional<std::pair<QString, qint64>> lostNode(const Job &job, const Cluster &cluster, const QList<Node> &nodes);
    // Stray-process clean-ups of ended jobs whose node was out of reach (in the Store), tried again.
    void retryPendingCleanups();
    // The queued, running and terminating jobs of a cluster: the ended ones (thousands after
    // a sweep) are not read on every tick.
    QList<Job> liveJobsOn(qint64 clusterId) const;
    VoidResult start(Job &job, const JobSpec &spec, const Cluster &cluster, const QList<Node> &nodes);
    VoidResult linkShares(const Cluster &cluster, const QList<Node> &nodes);
    // SSH nodes get a copy of this machine's trainer (TrainerDeployment).
    VoidResult deployTrainer(const Cluster &cluster, const QList<Node> &nodes);
    void finish(Job &job, JobState state, std::optional<int> exitCode, const QList<JobError> &errors,
                const QDateTime &ended = {});
    void setNodesState(const Job &job, NodeState state);
    // Stores what a queued job waits for when it changed (`job show` says it).
    void waitFor(const Job &job, const QString &reason);
    void killAfterGrace(const Job &job, Transport &transport);
    // The job's launch script wrote `code` to exit_code: succeeded, or failed with the error
    // of the step that failed (failed_step).
    void finishWithExitCode(Job &job, Transport &transport, int code, const QDateTime &ended);
    // Whether the file system of the job's folder has no space left (df on its node).
    static bool jobDiskFull(Transport &transport, const QString &jobDir);
    static JobError diskFullError(const QString &what, const QString &jobDir);

    // Slurm clusters (JobRunnerSlurm.cpp): Slurm queues and runs; TrainDesk submits each
    // queued job once, reads every job's state with one squeue per cluster, and cancels.
    void submitToSlurm(const Cluster &cluster);
    VoidResult submitOneToSlurm(Job &job, const Cluster &cluster);
    void refreshSlurm(const Cluster &cluster);
    void applySlurmStatus(Job &job, Transport &login, const SlurmJobState &status);
    VoidResult cancelOnSlurm(Job &job, const Cluster &cluster);

    // A running job silent past its progress timeout (JobRunnerProgress.cpp): its silent
    // ranks stored for `job show` and the GUI, and with failOnHang the attempt failed (JobHung).
    void watchProgress(Job &job, Transport &head);

    Store &m_store;
    JobSpecCache m_specs;  // each job's job.json parsed once (the tick reads no JSON)
    NodeWatch m_nodeWatch;  // lives as long as the runner: the agent's
    ProgressWatch m_progressWatch;
    int m_terminateGraceMs = terminateGraceMs;
    SpaceReserve *m_reserve = nullptr;
    QList<qint64> m_nodesAnsweredFor;  // see takeJobsWhoseNodesAnswered
};

} // namespace TrainDesk

#pragma once

#include "LaunchPlan.h"
#include "common/Result.h"
#include "store/Entities.h"
#include "transport/Transport.h"

#include <memory>

namespace TrainDesk {

class Store;
namespace SlurmQueries { struct JobStatus; }
using SlurmJobState = SlurmQueries::JobStatus;

// A job's exit_code file (written by its launch script): the code and when it was written.
std::optional<std::pair<int, QDateTime>> readExitCode(Transport &transport, const QString &path);

struct SubmitRequest
{
    QString workspace;
    QString experiment;
    QString job;
    QString cluster;
    QByteArray spec;     // job.json text
    bool draft = false;  // save without queueing (the demo job starts like this)
};

// Submits, schedules, starts, watches and terminates jobs. There is no daemon: every
// caller (GUI worker thread, each CLI command) calls refresh() and schedule(), and the
// state lives in the Store and in files in the job directory, so any of them can pick up
// where another left off. Calls block on the nodes: run them off the GUI thread.
class JobRunner
{
public:
    explicit JobRunner(Store &store);

    Result<Job> submit(const SubmitRequest &request);
    // Draft -> queued, then schedule.
    Result<Job> queue(qint64 jobId);
    // Gang scheduling: queued jobs in priority then submit order start when nodeCount
    // nodes are idle; the first that does not fit waits and holds back those behind it.
    void schedule(qint64 clusterId);
    // Looks at every active job's files and moves its state on; then schedules.
    void refreshAll();
    Result<Job> refresh(qint64 jobId);
    // SIGTERM to the job's process group now; a refresh after the grace period sends
    // SIGKILL to what is left. Does not wait.
    Result<Job> requestTerminate(qint64 jobId);
    // requestTerminate, then waits until the job has ended (at most graceMs + 15 s).
    Result<Job> terminate(qint64 jobId, int graceMs = 10000);
    // What would run for `spec` on `cluster` (nothing is started).
    Result<LaunchPlan> plan(const QString &workspace, const QString &cluster, const QByteArray &spec,
                            const QString &experiment = QStringLiteral("<experiment>"),
                            const QString &job = QStringLiteral("<job>"));

    // The plan of a job that exists (its directories, outputs, command).
    Result<LaunchPlan> planOf(const Job &job);

private:
    Result<LaunchPlan> planFor(const Job &job, const Cluster &cluster, const QList<Node> &nodes);
    VoidResult start(Job &job, const Cluster &cluster, const QList<Node> &nodes);
    VoidResult linkShares(const Cluster &cluster, const QList<Node> &nodes);
    void finish(Job &job, JobState state, std::optional<int> exitCode, const QList<JobError> &errors,
                const QDateTime &ended = {});
    void setNodesState(const Job &job, NodeState state);
    Result<std::shared_ptr<Transport>> headTransport(const Job &job);
    void killAfterGrace(const Job &job, Transport &transport);
    // The job's launch script wrote `code` to exit_code: succeeded, or failed with the error
    // of the step that failed (failed_step).
    void finishWithExitCode(Job &job, Transport &transport, int code, const QDateTime &ended);

    // Slurm clusters (JobRunnerSlurm.cpp): Slurm queues and runs; TrainDesk submits each
    // queued job once, reads every job's state with one squeue per cluster, and cancels.
    void submitToSlurm(const Cluster &cluster);
    VoidResult submitOneToSlurm(Job &job, const Cluster &cluster);
    void refreshSlurm(const Cluster &cluster);
    void applySlurmStatus(Job &job, Transport &login, const SlurmJobState &status);
    VoidResult cancelOnSlurm(Job &job, const Cluster &cluster);

    Store &m_store;
    int m_terminateGraceMs = 10000;
};

} // namespace TrainDesk

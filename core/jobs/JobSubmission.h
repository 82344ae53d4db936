#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "store/Entities.h"

namespace TrainDesk {

class Store;

struct SubmitRequest
{
    QString workspace;
    QString experiment;
    QString job;
    QString cluster;
    QByteArray spec;     // job.json text
    bool draft = false;  // save without queueing (the demo job starts like this)
    bool noContainer = false;  // run on the nodes as they are (RunWithoutContainer::apply)
    QString sweep;       // the sweep whose trial this is: the one job that may take a trial's name
};

// What clients do with a job before and after the agent runs it: store it checked (queued,
// or a draft), queue a draft, delete a draft or an ended job, and show what would run. Only
// the store is written; the agent (JobRunner) starts, watches and ends jobs, and the caller
// wakes it when a job was queued. The CLI, the GUI's session, sweep creation, the embedded
// demo job and the agent's sweep scheduler (which submits trials as a client would) use it.
class JobSubmission
{
public:
    explicit JobSubmission(Store &store) : m_store(store) {}

    // Stores the job, queued (or a draft); it starts when the agent next schedules. Refused
    // when it could never start: the same checks as `job validate`, plus the cluster's size
    // and the workspace's shares, a plan that cannot be built, an image no node can run,
    // more GPUs than any node has, and a sweep trial's name taken by another job.
    Result<Job> submit(const SubmitRequest &request);
    // Draft -> queued.
    Result<Job> queue(qint64 jobId);
    // Deletes a draft or finished job's record, its metrics and read offsets (its files on
    // the share stay); refused while it is queued, running or terminating.
    VoidResult remove(qint64 jobId);
    // What would run for `spec` on `cluster` (nothing is started).
    Result<LaunchPlan> plan(const QString &workspace, const QString &cluster, const QByteArray &spec,
                            const QString &experiment = QStringLiteral("<experiment>"),
                            const QString &job = QStringLiteral("<job>"));
    // The plan of a job that exists (its directories, outputs, command), on the nodes it
    // ran on when it has run.
    Result<LaunchPlan> planOf(const Job &job);

private:
    Store &m_store;
};

} // namespace TrainDesk

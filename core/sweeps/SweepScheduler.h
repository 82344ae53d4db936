#pragma once

#include "SweepStore.h"
#include "jobs/JobSubmission.h"
#include "store/Entities.h"
#include "TrialMetric.h"

#include <QHash>
#include <QSet>

#include <memory>
#include <optional>

namespace TrainDesk {

class JobRunner;
class Store;

// The agent's part of sweeps: on every tick, for each running sweep, it adopts a trial's
// job that an earlier agent submitted just before it was killed (found by its name), ends
// what early stopping says to end, and submits pending trials while fewer than the sweep's
// limit are queued or running. Everything it knows is in the store, so an agent started
// after another was killed submits no trial twice and loses none.
class SweepScheduler
{
public:
    SweepScheduler(Store &store, JobRunner &runner);
    ~SweepScheduler();

    // Moves every active sweep on; returns how many are still active (the agent stays up
    // while one is). The jobs it submits are queued: the runner's schedule starts them.
    int tick();
    // Trials queued or running of `sweep` (the limit counts them).
    static int activeTrials(const Store &store, const QList<SweepTrial> &trials);

private:
    // What the scheduler keeps of an active sweep between ticks: its trials, read from the
    // store once (while a sweep is active the agent is their one writer, and it writes every
    // change it makes here too; those in flight are read again at each look), and those
    // settled: their job ended and nothing is left to do about it. A tick looks at the jobs
    // and records of the trials in flight only, not at all 2,000.
    struct Watch
    {
        QList<SweepTrial> trials;
        QSet<int> settled;       // trial indexes
        bool adoptDue = true;    // adopt() once per agent, and again after a lost setTrialJob
        QHash<qint64, std::optional<Job>> looked;  // the in-flight trials' jobs as this look found them
    };

    void advance(const Sweep &sweep, Watch &watch);
    // The trials whose job may still move (not settled, with a job).
    QList<SweepTrial *> inFlight(Watch &watch);
    // Of the in-flight trials' jobs, those queued or running (as looked at, or read now).
    int activeInFlight(Watch &watch, bool fresh = false);
    void adopt(const Sweep &sweep, QList<SweepTrial> &trials);
    void resubmitUnlaunched(const Sweep &sweep, Watch &watch);
    void stopAll(const Sweep &sweep, Watch &watch);
    void stopEarly(const Sweep &sweep, Watch &watch);
    // Trials whose job ended (or is gone) with nothing left to do: settled for good.
    void settle(Watch &watch);
    void submit(const Sweep &sweep, Watch &watch, SweepTrial &trial);

    Store &m_store;
    JobRunner &m_runner;  // ends trials (requestTerminate)
    JobSubmission m_jobs;  // submits and removes trials' jobs, as a client would
    SweepStore m_sweeps;
    QHash<qint64, Watch> m_watches;                         // sweep id -> what is kept of it
    QHash<qint64, std::shared_ptr<TrialMetric>> m_metrics;  // sweep id -> its metric's series
};

} // namespace TrainDesk

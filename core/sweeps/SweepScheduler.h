#pragma once

#include "SweepStore.h"
#include "TrialMetric.h"

#include <QHash>
#include <QSet>

#include <memory>

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
    void advance(const Sweep &sweep);
    void adopt(const Sweep &sweep, QList<SweepTrial> &trials);
    void resubmitUnlaunched(const Sweep &sweep, QList<SweepTrial> &trials);
    void stopAll(const Sweep &sweep, const QList<SweepTrial> &trials);
    void stopEarly(const Sweep &sweep, QList<SweepTrial> &trials);
    void submit(const Sweep &sweep, SweepTrial &trial);

    Store &m_store;
    JobRunner &m_runner;
    SweepStore m_sweeps;
    QHash<qint64, std::shared_ptr<TrialMetric>> m_metrics;  // sweep id -> its metric's series
};

} // namespace TrainDesk

#pragma once

#include "Sweep.h"
#include "common/Result.h"

#include <QSqlDatabase>

namespace TrainDesk {

class Store;

// The sweeps and their trials, in the Store's database (tables `sweeps` and `sweep_trials`,
// made by the Store's migrations) through a connection of its own, so that the Store's
// class stays as it is. Use it from the thread that made it, as a Store.
class SweepStore
{
public:
    explicit SweepStore(const Store &store);
    ~SweepStore();
    SweepStore(const SweepStore &) = delete;
    SweepStore &operator=(const SweepStore &) = delete;

    // The sweep and all its trials (pending), in one transaction.
    Result<Sweep> create(const Sweep &sweep, const QList<QJsonObject> &trialParams);
    Result<Sweep> sweep(qint64 experimentId, const QString &name) const;
    Result<Sweep> sweepById(qint64 id) const;
    QList<Sweep> sweeps(qint64 experimentId) const;
    QList<Sweep> activeSweeps() const;  // running or stopping
    QList<SweepTrial> trials(qint64 sweepId) const;
    // One trial's job, status and reason (its values are not read again).
    VoidResult reread(SweepTrial &trial) const;
    // The sweep of a job that is one of its trials, with the trial's index.
    std::optional<std::pair<Sweep, int>> sweepOfJob(qint64 jobId) const;

    // Pending -> submitted with the trial's job; false when it was not pending any more.
    Result<bool> setTrialJob(qint64 sweepId, int index, qint64 jobId);
    VoidResult setTrialStatus(qint64 sweepId, int index, TrialStatus status, const QString &reason);
    // Running -> stopping (the agent ends the trials); false when it was not running.
    Result<bool> requestStop(qint64 sweepId);
    // Running or stopping -> `state` (stopped, completed), with the time.
    VoidResult finish(qint64 sweepId, SweepState state);
    // The sweep and its trial records (its trials' jobs stay); refused while it is active.
    VoidResult remove(qint64 sweepId);

private:
    QSqlDatabase m_db;
    QString m_connectionName;
};

} // namespace TrainDesk

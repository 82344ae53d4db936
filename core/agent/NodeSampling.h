#pragma once

#include "metrics/SystemSample.h"
#include "common/Result.h"
#include "store/Entities.h"

#include <QDateTime>
#include <QFuture>
#include <QHash>
#include <QList>
#include <QSet>
#include <QThreadPool>

namespace TrainDesk {

class Store;

// The agent's system metrics: every few seconds, each node of each running job is sampled
// (metrics/SystemSampler over the node's Transport) in a pool of its own, so a slow node
// never holds up the agent's loop; finished samples are stored with the job on the agent's
// thread at its next tick. Slurm jobs are left out: TrainDesk reaches only their login node.
class NodeSampling
{
public:
    // `intervalSeconds` 0: TRAINDESK_SYSTEM_SAMPLE_SECONDS, else defaultIntervalSeconds.
    explicit NodeSampling(Store &store, int intervalSeconds = 0);
    ~NodeSampling();  // waits for samples under way

    static constexpr int defaultIntervalSeconds = 5;
    int intervalSeconds() const { return m_intervalSeconds; }

    // Stores the samples that arrived and starts those of `running` jobs that are due.
    // Returns the jobs that got new samples.
    QSet<qint64> tick(const QList<Job> &running);
    // Samples started and not stored yet (a tick stores those that finished).
    qsizetype samplesUnderWay() const { return m_pending.size(); }

private:
    struct Pending
    {
        qint64 jobId = 0;
        QFuture<Result<SystemSample>> sample;
    };
    void start(const Job &job);

    Store &m_store;
    int m_intervalSeconds;
    QThreadPool m_pool;
    QHash<qint64, QDateTime> m_lastStart;  // job id -> when its nodes were last sampled
    QList<Pending> m_pending;
    QSet<QString> m_reported;              // failures said once in the agent's log
};

} // namespace TrainDesk

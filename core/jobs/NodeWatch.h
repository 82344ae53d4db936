#pragma once

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

namespace TrainDesk {

// Whether the nodes of running jobs can be reached, as the agent's JobRunner last saw
// them (kept in memory: a restarted agent starts its clocks again), and when to try the
// stray-process clean-ups of ended jobs that wait for a node to come back (those are in
// the Store).
class NodeWatch
{
public:
    // How often the nodes of one job are looked at.
    static constexpr qint64 lookIntervalMs = 5000;

    bool dueForLook(qint64 jobId);
    // Records a look; returns the seconds the node has been out of reach (0: reached).
    qint64 record(qint64 jobId, const QString &node, bool reached);
    void forget(qint64 jobId);
    // Whether the node's last look failed (it has not answered since).
    bool isLost(qint64 jobId, const QString &node) const { return m_lostSince.contains(qMakePair(jobId, node)); }

    // Whether it is time to try the pending clean-ups again (every lookIntervalMs; at once
    // for a new agent).
    bool cleanupsDue();

private:
    QHash<qint64, QDateTime> m_lastLook;                  // job id -> when its nodes were looked at
    QHash<QPair<qint64, QString>, QDateTime> m_lostSince; // (job id, node) -> first failed look
    QDateTime m_lastCleanupTry;
};

} // namespace TrainDesk

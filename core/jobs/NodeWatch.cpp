#include "NodeWatch.h"

namespace TrainDesk {

bool NodeWatch::dueForLook(qint64 jobId)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime last = m_lastLook.value(jobId);
    if (last.isValid() && last.msecsTo(now) < lookIntervalMs)
        return false;
    m_lastLook.insert(jobId, now);
    return true;
}

qint64 NodeWatch::record(qint64 jobId, const QString &node, bool reached)
{
    const auto key = qMakePair(jobId, node);
    if (reached) {
        m_lostSince.remove(key);
        return 0;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime since = m_lostSince.value(key, now);
    m_lostSince.insert(key, since);
    return std::max<qint64>(1, since.secsTo(now));
}

void NodeWatch::forget(qint64 jobId)
{
    m_lastLook.remove(jobId);
    for (auto it = m_lostSince.begin(); it != m_lostSince.end();) {
        if (it.key().first == jobId)
            it = m_lostSince.erase(it);
        else
            ++it;
    }
}

bool NodeWatch::cleanupsDue()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (m_lastCleanupTry.isValid() && m_lastCleanupTry.msecsTo(now) < lookIntervalMs)
        return false;
    m_lastCleanupTry = now;
    return true;
}

} // namespace TrainDesk

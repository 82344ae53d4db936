#include "StallMeter.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
#include <chrono>

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

StallMeter::StallMeter(int periodMs, QObject *parent) : QObject(parent), m_periodMs(periodMs) {}

StallMeter::~StallMeter()
{
    stop();
}

void StallMeter::start()
{
    if (m_running.exchange(true))
        return;
    m_thread = std::thread([this] {
        while (m_running.load()) {
            const qint64 sent = nowNs();
            QMetaObject::invokeMethod(this, [this, sent] { record(sent); }, Qt::QueuedConnection);
            std::this_thread::sleep_for(std::chrono::milliseconds(m_periodMs));
        }
    });
}

void StallMeter::stop()
{
    if (!m_running.exchange(false))
        return;
    m_thread.join();
}

void StallMeter::record(qint64 sentNs)
{
    m_latencies.append(double(nowNs() - sentNs) / 1e6);
}

double StallMeter::maxMs() const
{
    return m_latencies.isEmpty() ? 0 : *std::max_element(m_latencies.cbegin(), m_latencies.cend());
}

double StallMeter::percentileMs(double p) const
{
    if (m_latencies.isEmpty())
        return 0;
    QList<double> sorted = m_latencies;
    std::sort(sorted.begin(), sorted.end());
    return sorted.at(std::min<qsizetype>(sorted.size() - 1, qsizetype(p / 100.0 * double(sorted.size()))));
}

int StallMeter::countOver(double overMs) const
{
    return int(std::count_if(m_latencies.cbegin(), m_latencies.cend(), [overMs](double l) { return l > overMs; }));
}

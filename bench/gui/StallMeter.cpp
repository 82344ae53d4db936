#include "StallMeter.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
#include <chrono>

#include <pthread.h>

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

qint64 cpuNs(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values.at(std::min<qsizetype>(values.size() - 1, qsizetype(p / 100.0 * double(values.size()))));
}

} // namespace

// Constructed in the GUI thread: that is the thread whose CPU clock it reads.
StallMeter::StallMeter(int periodMs, QObject *parent) : QObject(parent), m_periodMs(periodMs)
{
    pthread_getcpuclockid(pthread_self(), &m_guiClock);
}

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
            const qint64 cpu = cpuNs(m_guiClock);
            QMetaObject::invokeMethod(this, [this, sent, cpu] { record(sent, cpu); }, Qt::QueuedConnection);
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

void StallMeter::record(qint64 sentNs, qint64 guiCpuAtSendNs)
{
    m_latencies.append(double(nowNs() - sentNs) / 1e6);
    m_cpu.append(double(cpuNs(CLOCK_THREAD_CPUTIME_ID) - guiCpuAtSendNs) / 1e6);
}

double StallMeter::maxCpuMs() const
{
    return m_cpu.isEmpty() ? 0 : *std::max_element(m_cpu.cbegin(), m_cpu.cend());
}

double StallMeter::percentileCpuMs(double p) const
{
    return percentile(m_cpu, p);
}

double StallMeter::maxMs() const
{
    return m_latencies.isEmpty() ? 0 : *std::max_element(m_latencies.cbegin(), m_latencies.cend());
}

double StallMeter::percentileMs(double p) const
{
    return percentile(m_latencies, p);
}

int StallMeter::countOver(double overMs) const
{
    return int(std::count_if(m_latencies.cbegin(), m_latencies.cend(), [overMs](double l) { return l > overMs; }));
}

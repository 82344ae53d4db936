#pragma once

#include <QObject>
#include <QList>

#include <atomic>
#include <ctime>
#include <thread>

// How long the GUI thread keeps events waiting: a thread of its own posts a small event to
// the GUI thread every periodMs and the GUI thread notes how late it ran it. The lateness
// of the worst one is the longest stall of the event loop (to within the period).
// Each probe also notes the CPU time the GUI thread spent while it waited: the part of the
// stall that is the app's own work, apart from waiting for a core on a busy machine.
class StallMeter : public QObject
{
    Q_OBJECT

public:
    explicit StallMeter(int periodMs = 2, QObject *parent = nullptr);
    ~StallMeter() override;

    void start();
    void stop();
    // Since the last reset: the worst lateness, the 99th percentile, and how many were late
    // by more than `overMs`.
    double maxMs() const;
    double percentileMs(double p) const;
    int countOver(double overMs) const;
    double maxCpuMs() const;  // the GUI thread's own work while a probe waited, worst
    double percentileCpuMs(double p) const;
    int samples() const { return int(m_latencies.size()); }
    void reset()
    {
        m_latencies.clear();
        m_cpu.clear();
    }

private:
    void record(qint64 sentNs, qint64 guiCpuAtSendNs);

    int m_periodMs;
    clockid_t m_guiClock;
    std::atomic_bool m_running{false};
    std::thread m_thread;
    QList<double> m_latencies;  // ms
    QList<double> m_cpu;        // ms
};

#pragma once

#include <QObject>
#include <QList>

#include <atomic>
#include <thread>

// How long the GUI thread keeps events waiting: a thread of its own posts a small event to
// the GUI thread every periodMs and the GUI thread notes how late it ran it. The lateness
// of the worst one is the longest stall of the event loop (to within the period).
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
    int samples() const { return int(m_latencies.size()); }
    void reset() { m_latencies.clear(); }

private:
    void record(qint64 sentNs);

    int m_periodMs;
    std::atomic_bool m_running{false};
    std::thread m_thread;
    QList<double> m_latencies;  // ms
};

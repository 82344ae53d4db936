#pragma once

#include <QString>

#include <atomic>
#include <thread>

// What a fast training job writes, from a thread of its own: metrics.jsonl lines (the
// trainer's contract) at `recordsPerSecond` and an MPI-tagged stdout.txt that reaches
// `logBytes` in `seconds`, both in the job's stdouterr folder, every 10 ms.
class JobStreamer
{
public:
    JobStreamer(const QString &stdouterrDir, int recordsPerSecond, qint64 logBytes, double seconds);
    ~JobStreamer();

    void start();
    void stop();
    qint64 recordsWritten() const { return m_records.load(); }
    qint64 logBytesWritten() const { return m_logBytes.load(); }

private:
    void run();

    QString m_dir;
    int m_recordsPerSecond;
    qint64 m_logTarget;
    double m_seconds;
    std::atomic_bool m_running{false};
    std::atomic<qint64> m_records{0};
    std::atomic<qint64> m_logBytes{0};
    std::thread m_thread;
};

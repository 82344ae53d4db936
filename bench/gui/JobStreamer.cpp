#include "JobStreamer.h"

#include <QDateTime>
#include <QFile>

#include <chrono>
#include <cmath>

JobStreamer::JobStreamer(const QString &stdouterrDir, int recordsPerSecond, qint64 logBytes, double seconds)
    : m_dir(stdouterrDir), m_recordsPerSecond(recordsPerSecond), m_logTarget(logBytes), m_seconds(seconds)
{
}

JobStreamer::~JobStreamer()
{
    stop();
}

void JobStreamer::start()
{
    if (m_running.exchange(true))
        return;
    m_thread = std::thread([this] { run(); });
}

void JobStreamer::stop()
{
    if (!m_running.exchange(false))
        return;
    m_thread.join();
}

void JobStreamer::run()
{
    QFile metrics(m_dir + QStringLiteral("/metrics.jsonl"));
    QFile log(m_dir + QStringLiteral("/stdout.txt"));
    if (!metrics.open(QIODevice::Append) || !log.open(QIODevice::Append))
        return;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const qint64 stepsPerEpoch = 50000;
    qint64 step = 0;
    int tick = 0;
    QByteArray out;
    QByteArray logOut;
    while (m_running.load()) {
        ++tick;
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        // Records due by now: the rate holds even when a tick comes late.
        const qint64 due = qint64(elapsed * m_recordsPerSecond);
        out.clear();
        const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        while (m_records.load() < due) {
            ++step;
            const int epoch = int(step / stepsPerEpoch) + 1;
            const double loss = 2.3 * std::exp(-double(step) / 200000.0) + 0.05 * std::sin(double(step));
            out += QByteArrayLiteral("{\"time\": ") + QByteArray::number(now, 'f', 3)
                + QByteArrayLiteral(", \"kind\": \"train\", \"epoch\": ") + QByteArray::number(epoch)
                + QByteArrayLiteral(", \"step\": ") + QByteArray::number(step % stepsPerEpoch)
                + QByteArrayLiteral(", \"global_step\": ") + QByteArray::number(step)
                + QByteArrayLiteral(", \"loss\": ") + QByteArray::number(loss, 'f', 5)
                + QByteArrayLiteral(", \"acc\": ") + QByteArray::number(1.0 - loss / 2.5, 'f', 5)
                + QByteArrayLiteral(", \"lr\": 0.0002, \"images_per_sec\": 5400.0, \"workers\": 2}\n");
            if (step % stepsPerEpoch == 0) {
                out += QByteArrayLiteral("{\"time\": ") + QByteArray::number(now, 'f', 3)
                    + QByteArrayLiteral(", \"kind\": \"val\", \"epoch\": ") + QByteArray::number(epoch - 1)
                    + QByteArrayLiteral(", \"global_step\": ") + QByteArray::number(step)
                    + QByteArrayLiteral(", \"val_loss\": ") + QByteArray::number(loss * 1.1, 'f', 5)
                    + QByteArrayLiteral(", \"val_acc\": ") + QByteArray::number(1.0 - loss / 2.4, 'f', 5) + "}\n";
            }
            m_records.fetch_add(1);
        }
        metrics.write(out);
        metrics.flush();
        // The log: as much as keeps it on course for logBytes in the given time.
        const qint64 logDue = std::min<qint64>(m_logTarget, qint64(elapsed / m_seconds * double(m_logTarget)));
        logOut.clear();
        int line = 0;
        while (m_logBytes.load() + logOut.size() < logDue) {
            ++line;
            logOut += QByteArrayLiteral("[1,") + QByteArray::number(line % 2)
                + QByteArrayLiteral("]<stdout>:Epoch ") + QByteArray::number(int(step / stepsPerEpoch) + 1)
                + QByteArrayLiteral(" step ") + QByteArray::number(step) + QByteArrayLiteral(" tick ")
                + QByteArray::number(tick) + QByteArrayLiteral(" - loss: 0.4321 - acc: 0.8765 - 5400 img/s\n");
        }
        log.write(logOut);
        log.flush();
        m_logBytes.fetch_add(logOut.size());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

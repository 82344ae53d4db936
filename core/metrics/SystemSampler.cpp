#include "SystemSampler.h"

#include "transport/Transport.h"

#include <QDateTime>
#include <QHash>

namespace TrainDesk {

namespace {

// The same query that cluster probes and the docs name; MiB and percent without units.
const char gpuQuery[] = "nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total "
                        "--format=csv,noheader,nounits";

struct CpuTimes
{
    qint64 total = 0;
    qint64 idle = 0;
};

// "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is
// already inside user and nice, so only the first eight count.
std::optional<CpuTimes> cpuTimes(const QByteArray &line)
{
    const QList<QByteArray> fields = line.simplified().split(' ');
    if (fields.size() < 5 || fields.first() != "cpu")
        return std::nullopt;
    CpuTimes t;
    for (int i = 1; i < std::min<qsizetype>(fields.size(), 9); ++i) {
        bool ok = false;
        const qint64 v = fields.at(i).toLongLong(&ok);
        if (!ok)
            return std::nullopt;
        t.total += v;
        if (i == 4 || i == 5)  // idle, iowait
            t.idle += v;
    }
    return t;
}

// nvidia-smi writes "[N/A]" or "[Not Supported]" for what a GPU cannot report.
double smiNumber(const QByteArray &field)
{
    bool ok = false;
    const double v = field.trimmed().toDouble(&ok);
    return ok ? v : -1;
}

qint64 mib(double v)
{
    return v < 0 ? -1 : qint64(v * 1024 * 1024);
}

} // namespace

QString SystemSampler::command()
{
    return QStringLiteral("echo '#cpu'; head -n 1 /proc/stat; sleep %1; head -n 1 /proc/stat; "
                          "echo '#mem'; grep -E '^(MemTotal|MemAvailable):' /proc/meminfo; "
                          "echo '#net'; cat /proc/net/dev; "
                          "echo '#gpu'; if command -v nvidia-smi >/dev/null 2>&1; then %2 2>/dev/null; fi; true")
        .arg(cpuWindowSeconds)
        .arg(QLatin1String(gpuQuery));
}

Result<SystemSample> SystemSampler::parse(const QByteArray &output, const QString &node, double time)
{
    QHash<QByteArray, QList<QByteArray>> sections;
    QByteArray current;
    for (const QByteArray &line : output.split('\n')) {
        if (line.startsWith('#'))
            current = line.mid(1).trimmed();
        else if (!current.isEmpty() && !line.trimmed().isEmpty())
            sections[current].append(line);
    }
    SystemSample s;
    s.time = time;
    s.node = node;

    const QList<QByteArray> cpu = sections.value("cpu");
    const auto first = cpu.size() == 2 ? cpuTimes(cpu.at(0)) : std::nullopt;
    const auto second = cpu.size() == 2 ? cpuTimes(cpu.at(1)) : std::nullopt;
    if (!first || !second)
        return fail(QStringLiteral("%1: /proc/stat gave no cpu line (is it Linux?)").arg(node));
    const qint64 total = second->total - first->total;
    const qint64 busy = total - (second->idle - first->idle);
    s.cpuPercent = total > 0 ? std::clamp(100.0 * double(busy) / double(total), 0.0, 100.0) : 0.0;

    qint64 memTotalKb = -1, memAvailableKb = -1;
    for (const QByteArray &line : sections.value("mem")) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() >= 2 && f.at(0) == "MemTotal:")
            memTotalKb = f.at(1).toLongLong();
        else if (f.size() >= 2 && f.at(0) == "MemAvailable:")
            memAvailableKb = f.at(1).toLongLong();
    }
    if (memTotalKb > 0) {
        s.memTotalBytes = memTotalKb * 1024;
        if (memAvailableKb >= 0)
            s.memUsedBytes = (memTotalKb - memAvailableKb) * 1024;
    }

    // "  eth0: rx_bytes rx_packets ... (8 receive fields) tx_bytes ..." after two header lines.
    qint64 rx = 0, tx = 0;
    bool anyInterface = false;
    for (const QByteArray &line : sections.value("net")) {
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArray name = line.left(colon).trimmed();
        const QList<QByteArray> f = line.mid(colon + 1).simplified().split(' ');
        if (name == "lo" || f.size() < 9)
            continue;
        rx += f.at(0).toLongLong();
        tx += f.at(8).toLongLong();
        anyInterface = true;
    }
    if (anyInterface) {
        s.netRxBytes = rx;
        s.netTxBytes = tx;
    }

    // "0, 87, 40513, 81559": index, utilization.gpu %, memory.used MiB, memory.total MiB.
    for (const QByteArray &line : sections.value("gpu")) {
        const QList<QByteArray> f = line.split(',');
        if (f.size() < 4)
            continue;
        bool ok = false;
        const int index = f.at(0).trimmed().toInt(&ok);
        if (!ok)
            continue;
        s.gpus.append({index, smiNumber(f.at(1)), mib(smiNumber(f.at(2))), mib(smiNumber(f.at(3)))});
    }
    return s;
}

Result<SystemSample> SystemSampler::sample(Transport &transport, const QString &node)
{
    const double time = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const auto run = transport.exec(command(), (cpuWindowSeconds + 15) * 1000);
    if (!run)
        return run.failure();
    if (run->exitCode != 0)
        return fail(QStringLiteral("%1: the system sample command exited with %2: %3")
                        .arg(node)
                        .arg(run->exitCode)
                        .arg(QString::fromUtf8(run->stdErr).trimmed()));
    return parse(run->stdOut, node, time);
}

} // namespace TrainDesk

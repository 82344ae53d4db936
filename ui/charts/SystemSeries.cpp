#include "SystemSeries.h"

#include "ChartLines.h"

#include <QMap>

namespace TrainDesk::Ui {

namespace {

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

// CPU and RAM in the node's colour; each GPU dashed in the same colour, a dot pattern per GPU.
Qt::PenStyle gpuStyle(int index)
{
    const Qt::PenStyle styles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
    return styles[index % 4];
}

} // namespace

void SystemSeries::reset(const QList<SystemSample> &samples)
{
    m_samples.clear();
    m_origin = 0;
    append(samples);
}

void SystemSeries::append(const QList<SystemSample> &samples)
{
    if (samples.isEmpty() && !m_samples.isEmpty())
        return;
    for (const SystemSample &s : samples) {
        if (m_samples.isEmpty() || s.time < m_origin)
            m_origin = s.time;
        m_samples.append(s);
    }
    Q_EMIT changed();
}

QStringList SystemSeries::nodes() const
{
    QStringList names;
    for (const SystemSample &s : m_samples) {
        if (!names.contains(s.node))
            names << s.node;
    }
    return names;
}

QList<ChartLine> SystemSeries::nodeAndGpuLines(const QString &what, double (*nodeValue)(const SystemSample &),
                                              double (*gpuValue)(const GpuSample &)) const
{
    const QStringList names = nodes();
    QList<ChartLine> lines;
    for (int n = 0; n < names.size(); ++n) {
        ChartLine node{QStringLiteral("%1 %2").arg(names.at(n), what), {}, ChartLines::rankColor(n)};
        QMap<int, ChartLine> gpus;  // by GPU index
        for (const SystemSample &s : m_samples) {
            if (s.node != names.at(n))
                continue;
            if (const double v = nodeValue(s); v >= 0)
                node.points.append({x(s), v});
            for (const GpuSample &g : s.gpus) {
                ChartLine &line = gpus[g.index];
                if (line.name.isEmpty())
                    line = {tr("%1 GPU %2").arg(names.at(n)).arg(g.index), {}, ChartLines::rankColor(n), gpuStyle(g.index)};
                if (const double v = gpuValue(g); v >= 0)
                    line.points.append({x(s), v});
            }
        }
        lines.append(node);
        for (const ChartLine &line : std::as_const(gpus))
            lines.append(line);
    }
    return lines;
}

QList<ChartLine> SystemSeries::usageLines() const
{
    return nodeAndGpuLines(tr("CPU"), [](const SystemSample &s) { return s.cpuPercent; },
                           [](const GpuSample &g) { return g.utilPercent; });
}

QList<ChartLine> SystemSeries::memoryLines() const
{
    return nodeAndGpuLines(
        tr("RAM"), [](const SystemSample &s) { return s.memUsedBytes < 0 ? -1.0 : double(s.memUsedBytes) / gib; },
        [](const GpuSample &g) { return g.memUsedBytes < 0 ? -1.0 : double(g.memUsedBytes) / gib; });
}

QList<ChartLine> SystemSeries::networkLines() const
{
    // Bytes a second between a node's consecutive samples: the counters count since boot.
    const QStringList names = nodes();
    QList<ChartLine> lines;
    for (int n = 0; n < names.size(); ++n) {
        ChartLine rx{tr("%1 received").arg(names.at(n)), {}, ChartLines::rankColor(n)};
        // Sent in a colour of its own (and dashed): received and sent cross all the time.
        ChartLine tx{tr("%1 sent").arg(names.at(n)), {}, ChartLines::sentColor(n), Qt::DashLine};
        const SystemSample *before = nullptr;
        for (const SystemSample &s : m_samples) {
            if (s.node != names.at(n))
                continue;
            if (before && s.time > before->time) {
                const double seconds = s.time - before->time;
                if (s.netRxBytes >= before->netRxBytes && before->netRxBytes >= 0)
                    rx.points.append({x(s), double(s.netRxBytes - before->netRxBytes) / seconds / 1e6});
                if (s.netTxBytes >= before->netTxBytes && before->netTxBytes >= 0)
                    tx.points.append({x(s), double(s.netTxBytes - before->netTxBytes) / seconds / 1e6});
            }
            before = &s;
        }
        lines << rx << tx;
    }
    return lines;
}

} // namespace TrainDesk::Ui

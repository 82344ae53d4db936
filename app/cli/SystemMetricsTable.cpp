#include "SystemMetricsTable.h"

#include "metrics/SystemSample.h"
#include "store/Store.h"

#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

QString gib(qint64 bytes)
{
    return bytes < 0 ? QString() : QString::number(double(bytes) / double(1LL << 30), 'f', 2);
}

QString memory(qint64 used, qint64 total)
{
    return used < 0 ? QString() : QStringLiteral("%1/%2").arg(gib(used), gib(total));
}

QString rate(qint64 now, qint64 before, double seconds)
{
    if (now < 0 || before < 0 || seconds <= 0 || now < before)
        return QString();
    return QString::number(double(now - before) / seconds, 'f', 0);
}

} // namespace

SystemMetricsTable SystemMetricsTable::of(const Store &store, const Job &job)
{
    SystemMetricsTable result;
    result.table.headers = {"Time", "Node", "CPU %", "Memory GiB", "GPU %", "GPU memory GiB", "Net rx B/s",
                            "Net tx B/s"};
    QHash<QString, SystemSample> previous;  // node -> its sample before
    for (const auto &[id, json] : store.systemSamples(job.id)) {
        result.json.append(QJsonDocument::fromJson(json).object());
        const auto s = SystemSample::fromJson(json);
        if (!s)
            continue;
        QStringList gpuUse, gpuMemory;
        for (const GpuSample &g : s->gpus) {
            gpuUse << QStringLiteral("%1:%2").arg(g.index).arg(g.utilPercent < 0 ? QStringLiteral("n/a")
                                                                                 : QString::number(g.utilPercent, 'f', 0));
            gpuMemory << QStringLiteral("%1:%2").arg(g.index).arg(memory(g.memUsedBytes, g.memTotalBytes));
        }
        QString rx, tx;
        if (const auto before = previous.constFind(s->node); before != previous.cend()) {
            const double seconds = s->time - before->time;
            rx = rate(s->netRxBytes, before->netRxBytes, seconds);
            tx = rate(s->netTxBytes, before->netTxBytes, seconds);
        }
        previous.insert(s->node, *s);
        const QString time = QDateTime::fromMSecsSinceEpoch(qint64(s->time * 1000), Qt::UTC).toString(Qt::ISODate);
        result.table.rows.append({time, s->node, s->cpuPercent < 0 ? QString() : QString::number(s->cpuPercent, 'f', 1),
                                  memory(s->memUsedBytes, s->memTotalBytes), gpuUse.join(QLatin1Char(' ')),
                                  gpuMemory.join(QLatin1Char(' ')), rx, tx});
    }
    return result;
}

} // namespace TrainDesk::Cli

#include "SystemSample.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

namespace {

void putIfKnown(QJsonObject &o, const char *key, double value)
{
    if (value >= 0)
        o.insert(QLatin1String(key), value);
}

double numberOr(const QJsonObject &o, const char *key, double otherwise = -1)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : otherwise;
}

} // namespace

QByteArray SystemSample::toJson() const
{
    QJsonObject o{{"time", time}, {"node", node}};
    putIfKnown(o, "cpu_percent", cpuPercent);
    putIfKnown(o, "mem_used", double(memUsedBytes));
    putIfKnown(o, "mem_total", double(memTotalBytes));
    putIfKnown(o, "net_rx", double(netRxBytes));
    putIfKnown(o, "net_tx", double(netTxBytes));
    if (!gpus.isEmpty()) {
        QJsonArray array;
        for (const GpuSample &g : gpus) {
            QJsonObject gpu{{"index", g.index}};
            putIfKnown(gpu, "util_percent", g.utilPercent);
            putIfKnown(gpu, "mem_used", double(g.memUsedBytes));
            putIfKnown(gpu, "mem_total", double(g.memTotalBytes));
            array.append(gpu);
        }
        o.insert(QStringLiteral("gpus"), array);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<SystemSample> SystemSample::fromJson(const QByteArray &json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    SystemSample s;
    s.time = numberOr(o, "time", 0);
    s.node = o.value(QLatin1String("node")).toString();
    s.cpuPercent = numberOr(o, "cpu_percent");
    s.memUsedBytes = qint64(numberOr(o, "mem_used"));
    s.memTotalBytes = qint64(numberOr(o, "mem_total"));
    s.netRxBytes = qint64(numberOr(o, "net_rx"));
    s.netTxBytes = qint64(numberOr(o, "net_tx"));
    for (const QJsonValue &v : o.value(QLatin1String("gpus")).toArray()) {
        const QJsonObject g = v.toObject();
        s.gpus.append({int(numberOr(g, "index", 0)), numberOr(g, "util_percent"), qint64(numberOr(g, "mem_used")),
                       qint64(numberOr(g, "mem_total"))});
    }
    return s;
}

} // namespace TrainDesk

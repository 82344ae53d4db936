#include "RunSummary.h"

#include "MetricRecord.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cmath>

namespace TrainDesk {

namespace {

// Fields that count or time the run rather than measure the model: never a metric column.
const QSet<QString> &counters()
{
    static const QSet<QString> names{
        QStringLiteral("time"), QStringLiteral("epoch"), QStringLiteral("step"), QStringLiteral("global_step"),
        QStringLiteral("workers"), QStringLiteral("rank"), QStringLiteral("seconds"), QStringLiteral("eval_seconds"),
        QStringLiteral("train_seconds"), QStringLiteral("complete"), QStringLiteral("lr")};
    return names;
}

} // namespace

void RunSummary::addScalar(const QString &name, double v)
{
    if (name.isEmpty() || !std::isfinite(v) || counters().contains(name) || chartedMetrics.contains(name))
        return;
    auto found = metrics.find(name);
    if (found == metrics.end()) {
        metrics.insert(name, {v, v});
        return;
    }
    found->last = v;
    found->best = lowerIsBetter(name) ? std::min(found->best, v) : std::max(found->best, v);
}

QByteArray RunSummary::toJson() const
{
    QJsonObject infoObject;
    for (auto it = info.constBegin(); it != info.constEnd(); ++it)
        infoObject.insert(it.key(), it.value());
    QJsonObject metricObject;
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it)
        metricObject.insert(it.key(), QJsonArray{it->last, it->best});
    return QJsonDocument(QJsonObject{{"info", infoObject}, {"metrics", metricObject},
                                     {"charted", QJsonArray::fromStringList(QStringList(chartedMetrics.begin(), chartedMetrics.end()))}})
        .toJson(QJsonDocument::Compact);
}

RunSummary RunSummary::fromJson(const QByteArray &json)
{
    RunSummary s;
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    const QJsonObject infoObject = o.value(QLatin1String("info")).toObject();
    for (auto it = infoObject.constBegin(); it != infoObject.constEnd(); ++it)
        s.info.insert(it.key(), it.value().toString());
    const QJsonObject metricObject = o.value(QLatin1String("metrics")).toObject();
    for (auto it = metricObject.constBegin(); it != metricObject.constEnd(); ++it) {
        const QJsonArray pair = it.value().toArray();
        s.metrics.insert(it.key(), {pair.at(0).toDouble(), pair.at(1).toDouble()});
    }
    for (const QJsonValue &v : o.value(QLatin1String("charted")).toArray())
        s.chartedMetrics.insert(v.toString());
    return s;
}

bool RunSummary::lowerIsBetter(const QString &metric)
{
    return metric.contains(QLatin1String("loss")) || metric.contains(QLatin1String("error"));
}

void RunSummary::add(const QByteArray &row)
{
    if (const auto record = MetricRecord::fromJson(row))
        add(*record);
}

void RunSummary::add(const MetricRecord &record)
{
    const QString &kind = record.kind;
    if (kind == QLatin1String("info")) {
        for (const auto &[key, text] : record.settings())
            info.insert(key, text);
        return;
    }
    if (kind == QLatin1String("scalar")) {
        // A series the job's own script writes (ScalarPoint: a TensorBoard tag, a printed name),
        // by its name, from any file and rank; a name the trainer's records carry stays theirs.
        addScalar(record.name, record.value);
        return;
    }
    // Per-rank records measure one rank, not the job.
    if (kind != QLatin1String("train") && kind != QLatin1String("val") && kind != QLatin1String("epoch")
        && kind != QLatin1String("done"))
        return;
    // The values the charts draw: a metric that train or val records carry is theirs (the
    // last batch's acc, as the chart and its header show it); the epoch's mean or the done
    // record's figure only stands in for a metric no such record carries.
    const bool charted = kind == QLatin1String("train") || kind == QLatin1String("val");
    for (const auto &[name, v] : record.numbers()) {
        if (counters().contains(name) || !std::isfinite(v))
            continue;
        if (!charted && chartedMetrics.contains(name))
            continue;
        auto found = metrics.find(name);
        if (found == metrics.end() || (charted && !chartedMetrics.contains(name))) {
            if (charted)
                chartedMetrics.insert(name);
            metrics.insert(name, {v, v});
            continue;
        }
        found->last = v;
        found->best = lowerIsBetter(name) ? std::min(found->best, v) : std::max(found->best, v);
    }
}

} // namespace TrainDesk

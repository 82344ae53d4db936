#include "TrialMetric.h"

#include "metrics/MetricRows.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace TrainDesk {

void TrialMetric::add(Cache &cache, const QByteArray &record, const QString &metric)
{
    const QJsonObject o = QJsonDocument::fromJson(record).object();
    const QJsonValue v = o.value(metric);
    const QString kind = o.value(QStringLiteral("kind")).toString();
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || kind == QLatin1String("rank"))
        return;
    if (cache.kind.isNull())
        cache.kind = kind;
    if (kind == cache.kind)
        cache.values << v.toDouble();
}

QList<double> TrialMetric::seriesOf(const QList<QByteArray> &records, const QString &metric)
{
    Cache cache;
    for (const QByteArray &r : records)
        add(cache, r, metric);
    return cache.values;
}

const QList<double> &TrialMetric::series(const Store &store, qint64 jobId, Read read)
{
    Cache &cache = m_cache[jobId];
    if (cache.complete)
        return cache.values;
    for (const QByteArray &record : MetricRows::newRows(store, jobId, &cache.lastId))
        add(cache, record, m_metric);
    cache.complete = read == Read::Kept;
    return cache.values;
}

std::optional<double> TrialMetric::best(const QList<double> &series, bool maximize)
{
    if (series.isEmpty())
        return std::nullopt;
    double b = series.first();
    for (double v : series)
        b = maximize ? std::max(b, v) : std::min(b, v);
    return b;
}

} // namespace TrainDesk

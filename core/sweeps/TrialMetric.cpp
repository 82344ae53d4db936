#include "TrialMetric.h"

#include "metrics/MetricRows.h"

#include <cmath>

namespace TrainDesk {

namespace {

// A record's fields that say when and where, never what was measured.
bool isBookkeeping(const QString &field)
{
    static const QSet<QString> names{QStringLiteral("time"), QStringLiteral("epoch"), QStringLiteral("step"),
                                     QStringLiteral("global_step"), QStringLiteral("rank"), QStringLiteral("workers"),
                                     QStringLiteral("epochs"), QStringLiteral("start_epoch"),
                                     QStringLiteral("steps_per_epoch")};
    return names.contains(field);
}

} // namespace

void TrialMetric::add(Cache &cache, const MetricRecord &record, const QString &metric)
{
    if (record.kind == QLatin1String("rank"))
        return;
    const double v = record.number(metric);
    if (!std::isfinite(v)) {
        if (!cache.values.isEmpty() || record.kind == QLatin1String("info"))
            return;
        for (const auto &[name, number] : record.numbers()) {
            if (!isBookkeeping(name))
                cache.fields.insert(name);
        }
        return;
    }
    cache.fields.clear();
    if (cache.kind.isNull())
        cache.kind = record.kind;
    if (record.kind == cache.kind)
        cache.values << v;
}

QList<double> TrialMetric::seriesOf(const QList<QByteArray> &rows, const QString &metric)
{
    Cache cache;
    for (const QByteArray &row : rows) {
        if (const auto record = MetricRecord::fromJson(row))
            add(cache, *record, metric);
    }
    return cache.values;
}

const QList<double> &TrialMetric::series(const Store &store, qint64 jobId, Read read)
{
    Cache &cache = m_cache[jobId];
    if (cache.complete)
        return cache.values;
    for (const MetricRecord &record : MetricRows::newRecords(store, jobId, &cache.lastId))
        add(cache, record, m_metric);
    cache.complete = read == Read::Kept;
    return cache.values;
}

QStringList TrialMetric::fieldsInstead(qint64 jobId) const
{
    const auto it = m_cache.constFind(jobId);
    if (it == m_cache.cend() || !it->values.isEmpty())
        return {};
    QStringList fields(it->fields.begin(), it->fields.end());
    fields.sort();
    return fields;
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

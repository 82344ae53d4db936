#include "ScalarSeries.h"

#include "ScalarSeriesIndex.h"

namespace TrainDesk {

double ScalarSeries::minimum() const
{
    double m = NAN;
    for (const ScalarPoint &p : points) {
        if (!std::isnan(p.value) && !(p.value >= m))  // -inf is a minimum: a series of infinities has one
            m = p.value;
    }
    return m;
}

double ScalarSeries::maximum() const
{
    double m = NAN;
    for (const ScalarPoint &p : points) {
        if (!std::isnan(p.value) && !(p.value <= m))
            m = p.value;
    }
    return m;
}

QList<ScalarSeries> ScalarSeries::fromRecords(const QList<MetricRecord> &records)
{
    ScalarSeriesIndex index;
    index.update(records);
    QList<ScalarSeries> series;
    for (const QString &key : index.scalarKeys()) {
        ScalarSeries s;
        s.label = index.label(key);
        for (const MetricRecord *record : index.records(key)) {
            if (const auto point = record->toScalar())
                s.points.append(*point);
        }
        if (s.points.isEmpty())
            continue;
        const ScalarPoint &first = s.points.first();
        s.name = first.name;
        s.source = first.source;
        s.file = first.file;
        s.rank = first.rank;
        s.tag = first.tag;
        series.append(s);
    }
    return series;
}

QStringList ScalarSeries::problems(const QList<MetricRecord> &records)
{
    QStringList messages;
    for (const MetricRecord &r : records) {
        // (A long line of stdout.txt is met by two readers, the Keras text's and the scalars'.)
        if (r.kind == QLatin1String("error") && !messages.contains(r.message()))
            messages << r.message();
    }
    return messages;
}

} // namespace TrainDesk

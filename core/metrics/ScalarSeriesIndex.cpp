#include "ScalarSeriesIndex.h"

#include "TfEventsReader.h"

#include <QCoreApplication>

#include <algorithm>

namespace TrainDesk {

void ScalarSeriesIndex::update(const QList<MetricRecord> &records)
{
    // Another list, or the same one started over (the charts' MetricSeries::reset): read it whole.
    const double firstTime = records.isEmpty() ? NAN : records.first().time;
    if (m_records != &records || records.size() < m_seen || (m_seen > 0 && !(firstTime == m_firstTime))) {
        m_records = &records;
        m_firstTime = firstTime;
        m_seen = 0;
        m_keys.clear();
        m_series.clear();
    }
    for (; m_seen < records.size(); ++m_seen) {
        const MetricRecord &r = records.at(m_seen);
        if (r.kind == QLatin1String("train")) {
            // The bundled trainer's own fields; their keys cannot clash with a scalar's
            // (those have two line breaks).
            if (std::isfinite(r.lr))
                add(QStringLiteral("train:lr"), {Field::Lr, QStringLiteral("lr"), {}, -1, {}}, m_seen);
            if (std::isfinite(r.imagesPerSec))
                add(QStringLiteral("train:images_per_sec"), {Field::ImagesPerSec, QStringLiteral("images/s"), {}, -1, {}}, m_seen);
            continue;
        }
        if (r.kind != QLatin1String("scalar"))
            continue;
        add(scalarKey(r), {Field::Value, r.name, r.file, r.rank, {}}, m_seen);
    }
}

QString ScalarSeriesIndex::scalarKey(const MetricRecord &r)
{
    return r.name + QLatin1Char('\n') + r.file + QLatin1Char('\n') + QString::number(r.rank);
}

QStringList ScalarSeriesIndex::scalarKeys() const
{
    QStringList keys;
    for (const QString &key : m_keys) {
        if (m_series[key].field == Field::Value)
            keys << key;
    }
    return keys;
}

QList<const MetricRecord *> ScalarSeriesIndex::records(const QString &key) const
{
    QList<const MetricRecord *> records;
    const auto it = m_series.constFind(key);
    if (!m_records || it == m_series.cend())
        return records;
    records.reserve(it->members.size());
    for (qsizetype i : it->members)
        records << &m_records->at(i);
    return records;
}

void ScalarSeriesIndex::add(const QString &key, const Series &series, qsizetype position)
{
    auto it = m_series.find(key);
    if (it == m_series.end()) {
        it = m_series.insert(key, series);
        m_keys << key;
    }
    it->members << position;
}

QString ScalarSeriesIndex::file(const QString &key) const
{
    return m_series.value(key).file;
}

QString ScalarSeriesIndex::name(const QString &key) const
{
    return m_series.value(key).name;
}

QString ScalarSeriesIndex::label(const QString &key) const
{
    // Short, for a combo box: the rank says which task file; TensorBoard files have long names.
    const Series s = m_series.value(key);
    if (s.field == Field::Lr)
        return QCoreApplication::translate("ScalarSeriesIndex", "learning rate");
    if (s.field == Field::ImagesPerSec)
        return QCoreApplication::translate("ScalarSeriesIndex", "images/s");
    if (s.rank >= 0)
        return QStringLiteral("%1 (rank %2)").arg(s.name).arg(s.rank);
    const QString file = s.file.section(QLatin1Char('/'), -1);
    return QStringLiteral("%1 (%2)").arg(s.name, TfEventsReader::isEventFile(file) ? QStringLiteral("TensorBoard") : file);
}

QList<QPointF> ScalarSeriesIndex::points(const QString &key, X x, double startTime) const
{
    QList<QPointF> points;
    if (!m_records)
        return points;
    const auto it = m_series.constFind(key);
    if (it == m_series.cend())
        return points;
    for (qsizetype i : it->members) {
        const MetricRecord &r = m_records->at(i);
        // A train record's epoch is whole: the one it belongs to.
        const double epoch = std::isfinite(r.epochValue)                       ? r.epochValue
                             : it->field != Field::Value && r.epoch >= 0 ? double(r.epoch)
                                                                          : NAN;
        double xValue = NAN;
        switch (x) {
        case X::Step: xValue = r.step >= 0 ? double(r.step) : epoch; break;
        case X::Epoch: xValue = std::isfinite(epoch) ? epoch : double(r.step); break;
        case X::Time: xValue = r.time - startTime; break;
        }
        const double value = it->field == Field::Lr ? r.lr : it->field == Field::ImagesPerSec ? r.imagesPerSec : r.value;
        if (std::isfinite(xValue) && std::isfinite(value))
            points << QPointF(xValue, value);
    }
    // TensorBoard files of a restarted run may go back in step: drawn in x order.
    std::stable_sort(points.begin(), points.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    return points;
}

QString ScalarSeriesIndex::find(const QString &word) const
{
    QString found;
    for (const QString &key : m_keys) {
        const Series &s = m_series[key];
        if (!s.name.contains(word, Qt::CaseInsensitive))
            continue;
        if (s.rank <= 0)
            return key;
        if (found.isEmpty())
            found = key;
    }
    return found;
}

} // namespace TrainDesk

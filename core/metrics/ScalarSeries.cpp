#include "ScalarSeries.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

QString ScalarSeries::label() const
{
    QString text = name + QStringLiteral(": ") + file;
    if (rank >= 0)
        text += QStringLiteral(" (rank %1)").arg(rank);
    return text;
}

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

QList<ScalarSeries> ScalarSeries::fromRecords(const QList<QPair<qint64, QByteArray>> &records)
{
    QList<ScalarSeries> series;
    QHash<QString, qsizetype> index;
    for (const auto &[id, json] : records) {
        if (!json.contains("\"scalar\""))
            continue;  // most records are the trainer's: skipped without parsing
        const auto p = ScalarPoint::fromJson(json);
        if (!p)
            continue;
        const QString key = p->name + QLatin1Char('\n') + p->file + QLatin1Char('\n') + QString::number(p->rank)
            + QLatin1Char('\n') + p->tag;
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.insert(key, series.size());
            series.append({p->name, p->source, p->file, p->rank, p->tag, {}});
        }
        series[*it].points.append(*p);
    }
    return series;
}

QStringList ScalarSeries::problems(const QList<QPair<qint64, QByteArray>> &records)
{
    QStringList messages;
    for (const auto &[id, json] : records) {
        if (!json.contains("\"error\""))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        // (A long line of stdout.txt is met by two readers, the Keras text's and the scalars'.)
        if (o.value("kind").toString() == QLatin1String("error") && !messages.contains(o.value("message").toString()))
            messages << o.value("message").toString();
    }
    return messages;
}

} // namespace TrainDesk

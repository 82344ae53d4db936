#include "ScalarSeriesTables.h"
#include "JobMetricsOutput.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

QString number(double v) { return std::isnan(v) ? QStringLiteral("nan") : QString::number(v, 'g', 6); }
QString counter(qint64 v) { return v < 0 ? QString() : QString::number(v); }
QString rankText(int rank) { return rank < 0 ? QString() : QString::number(rank); }

// `readable`: local date and time, as `job metrics` prints them; else Unix seconds (CSV, as
// `job metrics --csv`).
QList<QStringList> pointRows(const QList<ScalarSeries> &series, bool readable)
{
    QList<QStringList> rows;
    for (const ScalarSeries &s : series) {
        for (const ScalarPoint &p : s.points) {
            rows.append({s.name, counter(p.step), std::isfinite(p.epoch) ? number(p.epoch) : QString(), number(p.value),
                         readable ? readableTime(p.time) : QString::number(p.time, 'f', 3), s.file, rankText(s.rank)});
        }
    }
    return rows;
}

} // namespace

Table scalarSeriesList(const QList<ScalarSeries> &series)
{
    Table t{{"Name", "Source", "File", "Rank", "Points", "Last", "Min", "Max"}, {}};
    for (const ScalarSeries &s : series) {
        t.rows.append({s.name, s.source, s.file, rankText(s.rank), QString::number(s.points.size()), number(s.last()),
                       number(s.minimum()), number(s.maximum())});
    }
    return t;
}

QJsonArray scalarSeriesListJson(const QList<ScalarSeries> &series)
{
    QJsonArray array;
    for (const ScalarSeries &s : series) {
        QJsonObject o{{"name", s.name}, {"source", s.source}, {"file", s.file}, {"tag", s.tag},
                      {"label", s.label}, {"points", int(s.points.size())}};
        if (s.rank >= 0)
            o.insert("rank", s.rank);
        for (const auto &[key, value] : {std::pair{"last", s.last()}, {"min", s.minimum()}, {"max", s.maximum()}}) {
            if (std::isfinite(value))
                o.insert(QLatin1String(key), value);
        }
        array.append(o);
    }
    return array;
}

Table scalarSeriesPoints(const QList<ScalarSeries> &series)
{
    return {{"Name", "Step", "Epoch", "Value", "Time", "File", "Rank"}, pointRows(series, true)};
}

QString scalarSeriesPointsCsv(const QList<ScalarSeries> &series, CsvText mode)
{
    QString csv = QStringLiteral("name,step,epoch,value,time,file,rank\n");
    for (const QStringList &row : pointRows(series, false)) {
        QStringList cells;
        for (const QString &c : row)
            cells << csvField(c, mode);
        csv += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

QJsonArray scalarSeriesPointsJson(const QList<ScalarSeries> &series)
{
    QJsonArray array;
    for (const ScalarSeries &s : series) {
        for (const ScalarPoint &p : s.points)
            array.append(QJsonDocument::fromJson(p.toJson()).object());
    }
    return array;
}

} // namespace TrainDesk::Cli

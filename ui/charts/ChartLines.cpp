#include "ChartLines.h"

#include "RunColors.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui::ChartLines {

namespace {

// Tableau's palette without its blue and orange (the job's own series).
const QColor palette[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd),
                          QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                          QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};
constexpr int paletteSize = int(std::size(palette));

QString tr(const char *text)
{
    return QCoreApplication::translate("TrainDesk::Ui::ChartLines", text);
}

} // namespace

QColor rankColor(int rank)
{
    return palette[((rank % paletteSize) + paletteSize) % paletteSize];
}

QColor mainRunColor()
{
    return QColor(0x2b, 0x7c, 0xd3);
}

QColor runColor(qint64 jobId)
{
    if (const QColor chosen = RunColors::instance()->chosen(jobId); chosen.isValid())
        return chosen;
    return automaticRunColor(jobId);
}

QColor automaticRunColor(qint64 jobId)
{
    // Chosen once, by the run's id, never by its place in a selection: hues a golden angle
    // apart, so no two runs share one (eight colours by id % 8 gave runs 3 and 11 the same
    // olive), with every other run darker so neighbouring hues still differ.
    const double hue = std::fmod(double(jobId) * 0.381966011250105, 1.0);
    // As 8-bit RGB: the colour a pixel, a swatch and a stored "#rrggbb" have.
    return QColor(QColor::fromHsvF(float(hue), 0.72f, jobId % 2 ? 0.80f : 0.62f).rgb());
}

QColor shownRunColor(qint64 jobId)
{
    const QColor chosen = RunColors::instance()->chosen(jobId);
    return chosen.isValid() ? chosen : mainRunColor();
}

QColor sentColor(int node)
{
    // The node's colour turned halfway round the hue circle, as saturated and as dark.
    const QColor c = rankColor(node).toHsv();
    return QColor::fromHsv((c.hue() + 180) % 360, c.saturation(), std::min(c.value(), 200));
}

QColor comparedColor(int index)
{
    return palette[paletteSize - 1 - ((index % paletteSize) + paletteSize) % paletteSize];
}

QList<ChartLine> ranks(const MetricSeries &series, MetricSeries::Metric metric, MetricSeries::XAxis x, double smoothing)
{
    QList<ChartLine> lines;
    for (int rank : series.ranks()) {
        ChartLine line;
        line.name = tr("rank %1").arg(rank);
        line.points = series.smoothedPoints(metric, x, smoothing, rank);
        line.color = rankColor(rank);
        line.width = 1.2;
        lines.append(line);
    }
    return lines;
}

QList<ChartLine> compared(const QList<ComparedJob> &jobs, MetricSeries::Metric train, MetricSeries::Metric val,
                          MetricSeries::XAxis x, double smoothing)
{
    QList<ChartLine> lines;
    for (qsizetype i = 0; i < jobs.size(); ++i) {
        const ComparedJob &job = jobs.at(i);
        ChartLine trainLine;
        trainLine.name = job.name;
        trainLine.points = job.series->smoothedPoints(train, x, smoothing);
        trainLine.color = runColor(job.jobId);
        trainLine.width = 2.0;
        ChartLine valLine;
        valLine.name = tr("%1 (val)").arg(job.name);
        valLine.points = job.series->points(val, x);
        valLine.color = trainLine.color;
        valLine.style = Qt::DashLine;
        valLine.pointsVisible = true;
        valLine.inLegend = false;  // the colour says which job; dashed with dots says validation
        lines << trainLine << valLine;
    }
    return lines;
}

} // namespace TrainDesk::Ui::ChartLines

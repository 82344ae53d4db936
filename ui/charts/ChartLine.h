#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

namespace TrainDesk::Ui {

// A line drawn over a chart besides the job's own series: one MPI rank's values, or
// another job of the experiment to compare with.
struct ChartLine
{
    QString name;  // the legend's text
    QList<QPointF> points;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    qreal width = 1.5;
    bool pointsVisible = false;  // values far apart (once an epoch) show as dots too
    bool inLegend = true;        // a second line of the same thing needs no second entry
};

} // namespace TrainDesk::Ui

#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace TrainDesk::Ui {

// What the parallel-coordinates plot and the parameter scatter draw, with no widget in it:
// one row per run (a sweep's trial, a run of the runs table) with its parameter values
// (numbers or words) and its metric. Whoever has runs fills one; the plots only read it.
struct ParameterTable
{
    struct Row
    {
        QString label;             // "lr-3"
        qint64 id = 0;             // the run's job id, where it has one
        QList<QVariant> values;    // one per parameter: a number, a word, or null (none)
        std::optional<double> metric;
        bool highlighted = false;  // the best run: drawn on top, thicker
        QColor color;              // the run's own colour (the runs table's); none: by its metric
    };

    // An axis of a plot: numbers from min to max (log when all are above 0 and they span
    // two decades or more: learning rates) or words in the order they first appear.
    struct Axis
    {
        QString name;
        bool numeric = true;
        bool log = false;
        double min = 0;
        double max = 1;
        QStringList categories;

        // Where a value sits on the axis, 0 (min) to 1 (max); none for a missing value.
        std::optional<double> position(const QVariant &value) const;
        // Labels to draw: (position 0..1, text), at most `count` for numbers.
        QList<QPair<double, QString>> ticks(int count = 5) const;
    };

    QStringList parameters;
    QString metric;
    bool maximize = true;
    QList<Row> rows;

    Axis parameterAxis(int column) const;
    Axis metricAxis() const;
    // The highlighted row, else the row with the best metric; -1 when none has one.
    int bestRow() const;
    // How good a row's metric is among all rows: 0 the worst, 1 the best; none without one.
    std::optional<double> goodness(int row) const;
    // Every row's goodness, the metric axis made once (goodness(row) makes it per call: a
    // paint of 10,000 runs asking per row was quadratic).
    QList<std::optional<double>> goodnesses() const;
    // A value's number (a word or null is none).
    static std::optional<double> number(const QVariant &value);
    // Every row's position() on `axis`, made by parameterAxis(column) (column -1: by
    // metricAxis()), NaN where the row has none. The plots place 10,000 runs from these once
    // per table, not per paint (position() looks a word up in a list, a number's log anew).
    QList<double> positions(int column, const Axis &axis) const;
};

} // namespace TrainDesk::Ui

#pragma once

#include "ParameterTable.h"

#include <QWidget>

namespace TrainDesk::Ui {

// Parallel coordinates: one vertical axis per parameter and one for the metric, each run
// a line through its values, coloured by its metric (ParameterPlotStyle); the best run on
// top, thick. Reads a ParameterTable, so any list of runs can be drawn.
class ParallelCoordinatesPlot : public QWidget
{
    Q_OBJECT

public:
    explicit ParallelCoordinatesPlot(QWidget *parent = nullptr);

    void setTable(const ParameterTable &table);
    const ParameterTable &table() const { return m_table; }
    // Where row `row` crosses axis `axis` (parameters, then the metric), in widget
    // coordinates; none where it has no value. (Tests and tooltips.)
    std::optional<QPointF> pointOf(int row, int axis) const;
    QSize sizeHint() const override { return {640, 320}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;  // a tooltip names the run under the pointer

private:
    QList<ParameterTable::Axis> axes() const;
    QRectF plotArea() const;
    std::optional<double> axisValue(int row, int axis, const ParameterTable::Axis &a) const;

    ParameterTable m_table;
    QList<ParameterTable::Axis> m_axes;
};

} // namespace TrainDesk::Ui

#pragma once

#include "ParameterTable.h"

#include <QImage>
#include <QWidget>

namespace TrainDesk::Ui {

// Parallel coordinates: one vertical axis per parameter and one for the metric, each run
// a line through its values, coloured by its metric (ParameterPlotStyle); the best run on
// top, thick, and the run under the pointer over the others. Reads a ParameterTable, so any
// list of runs can be drawn. The runs' lines are drawn once into an image, again only when
// the table, the size or the palette changes: a repaint (the pointer moving over the runs)
// draws the image, the best and the hovered line and the axes (10,000 runs: the lines took
// 173 ms a paint).
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
    // The row whose line crosses an axis nearest `at` (within 12 pixels); -1 when none.
    int rowAt(const QPointF &at) const;
    // The row drawn over the others because the pointer is on its line; -1 when none.
    int hoveredRow() const { return m_hovered; }
    QSize sizeHint() const override { return {640, 320}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

Q_SIGNALS:
    // Row `row`'s line was clicked (the runs view chooses its run).
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;  // a tooltip names the run under the pointer
    void changeEvent(QEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QRectF plotArea() const;
    double axisX(int axis, const QRectF &area) const;
    void drawRun(QPainter &p, int row, const QRectF &area) const;
    void drawRuns();
    void setHovered(int row);

    ParameterTable m_table;
    QList<ParameterTable::Axis> m_axes;
    QList<QList<double>> m_positions;  // per axis, per row: 0..1 up the axis, NaN: no value
    QList<std::optional<double>> m_goodness;
    QList<int> m_order;  // the rows in drawing order, worst first, without the best
    int m_best = -1;
    int m_hovered = -1;
    // Every run's line but the best's, on the base; made at the first paint after
    // m_runsStale is set (a new table, size, palette or font).
    QImage m_runs;
    bool m_runsStale = true;
};

} // namespace TrainDesk::Ui

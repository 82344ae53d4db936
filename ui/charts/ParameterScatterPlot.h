#pragma once

#include "ParameterTable.h"

#include <QImage>
#include <QWidget>

namespace TrainDesk::Ui {

// One parameter against the metric: a dot per run at (its value, its metric), coloured as
// in the parallel-coordinates plot, the best run ringed, the run under the pointer too.
// Reads a ParameterTable. The axes and the dots but the best are drawn once into an image,
// again only when the table, the parameter, the size or the palette changes.
class ParameterScatterPlot : public QWidget
{
    Q_OBJECT

public:
    explicit ParameterScatterPlot(QWidget *parent = nullptr);

    void setTable(const ParameterTable &table);
    const ParameterTable &table() const { return m_table; }
    void setParameter(int column);  // which parameter is the x axis
    int parameter() const { return m_column; }
    // Where run `row` is drawn, in widget coordinates; none without a value or a metric.
    std::optional<QPointF> pointOf(int row) const;
    // The row whose dot is under `at` (within 8 pixels of its centre); -1 when none.
    int rowAt(const QPointF &at) const;
    int hoveredRow() const { return m_hovered; }
    QSize sizeHint() const override { return {480, 320}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

Q_SIGNALS:
    // Row `row`'s dot was clicked (the runs view chooses its run).
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    QRectF plotArea() const;
    void placeRows();
    void drawBackground();
    void setHovered(int row);

    ParameterTable m_table;
    ParameterTable::Axis m_x;
    ParameterTable::Axis m_y;
    QList<double> m_xs;  // per row, 0..1 along each axis; NaN: none
    QList<double> m_ys;
    QList<std::optional<double>> m_goodness;
    int m_best = -1;
    int m_hovered = -1;
    int m_column = 0;
    // The axes and every dot but the best; made at the first paint after m_stale is set.
    QImage m_image;
    bool m_stale = true;
};

} // namespace TrainDesk::Ui

#pragma once

#include "ParameterTable.h"

#include <QWidget>

namespace TrainDesk::Ui {

// One parameter against the metric: a dot per run at (its value, its metric), coloured as
// in the parallel-coordinates plot, the best run ringed. Reads a ParameterTable.
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
    QSize sizeHint() const override { return {480, 320}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QRectF plotArea() const;

    ParameterTable m_table;
    ParameterTable::Axis m_x;
    ParameterTable::Axis m_y;
    int m_column = 0;
};

} // namespace TrainDesk::Ui

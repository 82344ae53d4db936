#pragma once

#include <QChartView>

namespace TrainDesk::Ui {

// A chart view the user can zoom (rubber band, wheel, + and -) and pan (middle button or
// Shift and drag, Ctrl and the arrow keys); a double click, Home or 0 asks for the
// automatic range back. The mouse over the plot, or Left and Right, ask for the readout of
// every series at one step (ChartPanel draws it).
class ZoomableChartView : public QChartView
{
    Q_OBJECT

public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent = nullptr);

Q_SIGNALS:
    void resetRequested();
    // The pointer is over the chart at `value` (the axes' units).
    void hovered(const QPointF &value);
    void hoverEnded();
    // Left (-1) or Right (+1): the readout to the previous or next step.
    void stepRequested(int direction);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    bool m_panning = false;
    QPointF m_lastPos;
};

} // namespace TrainDesk::Ui

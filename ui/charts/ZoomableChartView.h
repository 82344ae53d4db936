#pragma once

#include <QChartView>

namespace TrainDesk::Ui {

// A chart view the user can zoom (rubber band, wheel) and pan (middle button or Shift and
// drag, arrow keys); a double click asks for the automatic range back.
class ZoomableChartView : public QChartView
{
    Q_OBJECT

public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent = nullptr);

Q_SIGNALS:
    void resetRequested();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    bool m_panning = false;
    QPointF m_lastPos;
};

} // namespace TrainDesk::Ui

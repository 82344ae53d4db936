#pragma once

#include <QChartView>
#include <QPixmap>
#include <QTimer>

class QLabel;
class QToolButton;

namespace TrainDesk::Ui {

// A chart view the user can zoom (rubber band, wheel, + and -) and pan (middle button or
// Shift and drag, Ctrl and the arrow keys); a double click, Home or 0 asks for the
// automatic range back. The mouse over the plot, or Left and Right, ask for the readout of
// every series at one step (ChartPanel draws it).
//
// The keys are told by a hint, not a tooltip over the whole plot (that covered the readout
// and the next chart at every hover): it shows by itself once, the first time the pointer
// enters any chart (QSettings Charts/keysHintShown), and again on demand from the "?"
// button in the chart's corner or the ? key. It sits at the bottom of the chart and gives
// way to the readout (keepHintClearOf).
class ZoomableChartView : public QChartView
{
    Q_OBJECT

public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent = nullptr);

    static QString keysText();
    QLabel *keysHint() const { return m_keysHint; }
    QToolButton *keysButton() const { return m_keysButton; }
    void showKeysHint();
    void hideKeysHint();
    // The readout is shown at `rect` (view coordinates): a hint under it is hidden.
    void keepHintClearOf(const QRect &rect);

    // A pan (drag) or wheel zoom in progress is drawn as a picture of the plot taken when it
    // began, moved or scaled: a frame costs one image drawn, not every line stroked again.
    // The chart's range changes once, when the drag ends or the wheel has been still for
    // gestureSettleMs; then the lines are drawn again from the data (ChartPanel).
    static constexpr int gestureSettleMs = 150;
    bool inGesture() const { return !m_gestureImage.isNull(); }
    // Applies the gesture's range now (what the drag's end or the wheel's pause does).
    void finishGesture();

Q_SIGNALS:
    void resetRequested();
    // The pointer is over the chart at `value` (the axes' units).
    void hovered(const QPointF &value);
    void hoverEnded();
    // Around a range change of a gesture or key (pan, wheel zoom, +, -, Ctrl+arrows): the
    // owner may empty its series before (Qt Charts then maps and strokes no stale points
    // for the new range) and give them the new range's points after.
    void rangeAboutToChange();
    void rangeChangedByUser();
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
    void enterEvent(QEnterEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void beginGesture();
    template<typename Change>
    void changeRange(Change change)
    {
        Q_EMIT rangeAboutToChange();
        change();
        Q_EMIT rangeChangedByUser();
    }
    // The plot's part of the picture that is shown now, in the picture's pixels.
    QRectF gestureSource() const;
    void placeKeysHint();
    void showKeysHintOnce();

    QToolButton *m_keysButton;
    QLabel *m_keysHint;
    bool m_panning = false;
    QPointF m_lastPos;
    QPixmap m_gestureImage;      // the view when the gesture began (null: none)
    QPixmap m_gesturePlotImage;  // its plot
    QRectF m_gesturePlot;        // the plot's rectangle then, in view coordinates
    QPointF m_panShift;          // dragged so far, in the picture's plot pixels
    QRectF m_zoomRect;           // the part of the plot (then) the wheel zoomed to, in plot pixels
    QTimer m_settle;             // the wheel's pause
};

} // namespace TrainDesk::Ui

#include "ZoomableChartView.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace TrainDesk::Ui {

ZoomableChartView::ZoomableChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setRubberBand(QChartView::RectangleRubberBand);
    setRenderHint(QPainter::Antialiasing);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);  // the readout follows the pointer without a button held
    setToolTip(tr("Left and Right: the values at the previous or next step. + and -: zoom; "
                  "Ctrl+arrows: pan; Home or 0: fit the data again"));
}

void ZoomableChartView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    // Zoom around the cursor: shrink the plot rect toward it.
    const double factor = std::pow(1.25, steps);
    const QRectF plot = chart()->plotArea();
    const QPointF at = chart()->mapFromScene(mapToScene(event->position().toPoint()));
    QRectF rect(0, 0, plot.width() / factor, plot.height() / factor);
    rect.moveCenter(QPointF(at.x() + (plot.center().x() - at.x()) / factor,
                            at.y() + (plot.center().y() - at.y()) / factor));
    chart()->zoomIn(rect);
    event->accept();
}

void ZoomableChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier))) {
        m_panning = true;
        m_lastPos = event->position();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ZoomableChartView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPointF delta = event->position() - m_lastPos;
        m_lastPos = event->position();
        chart()->scroll(-delta.x(), delta.y());
        event->accept();
        return;
    }
    if (event->buttons() == Qt::NoButton) {
        const QPointF at = chart()->mapFromScene(mapToScene(event->position().toPoint()));
        if (chart()->plotArea().contains(at))
            Q_EMIT hovered(chart()->mapToValue(at));
        else
            Q_EMIT hoverEnded();
    }
    QChartView::mouseMoveEvent(event);
}

void ZoomableChartView::leaveEvent(QEvent *event)
{
    Q_EMIT hoverEnded();
    QChartView::leaveEvent(event);
}

void ZoomableChartView::focusOutEvent(QFocusEvent *event)
{
    if (!underMouse())
        Q_EMIT hoverEnded();
    QChartView::focusOutEvent(event);
}

void ZoomableChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    // The default zooms out on a right click; here that means "fit the data again".
    if (event->button() == Qt::RightButton) {
        Q_EMIT resetRequested();
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ZoomableChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    Q_EMIT resetRequested();
    event->accept();
}

void ZoomableChartView::keyPressEvent(QKeyEvent *event)
{
    const bool ctrl = event->modifiers().testFlag(Qt::ControlModifier);
    switch (event->key()) {
    case Qt::Key_Left:
        if (ctrl)
            chart()->scroll(-20, 0);
        else
            Q_EMIT stepRequested(-1);
        break;
    case Qt::Key_Right:
        if (ctrl)
            chart()->scroll(20, 0);
        else
            Q_EMIT stepRequested(1);
        break;
    case Qt::Key_Up: chart()->scroll(0, 20); break;
    case Qt::Key_Down: chart()->scroll(0, -20); break;
    // "+" is Shift+= on most keyboards: = zooms in as well.
    case Qt::Key_Plus:
    case Qt::Key_Equal: chart()->zoomIn(); break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore: chart()->zoomOut(); break;
    case Qt::Key_Home:
    case Qt::Key_0: Q_EMIT resetRequested(); break;
    default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

} // namespace TrainDesk::Ui

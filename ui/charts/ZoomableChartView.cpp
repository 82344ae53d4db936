#include "ZoomableChartView.h"

#include <QKeyEvent>
#include <QLabel>
#include <QSettings>
#include <QToolButton>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace TrainDesk::Ui {

namespace {

const char hintShownKey[] = "Charts/keysHintShown";

} // namespace

ZoomableChartView::ZoomableChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent), m_keysButton(new QToolButton(this)), m_keysHint(new QLabel(this))
{
    setRubberBand(QChartView::RectangleRubberBand);
    setRenderHint(QPainter::Antialiasing);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);  // the readout follows the pointer without a button held
    m_keysButton->setObjectName(QStringLiteral("chartKeysButton"));
    m_keysButton->setText(QStringLiteral("?"));
    m_keysButton->setAutoRaise(true);
    m_keysButton->setFocusPolicy(Qt::NoFocus);
    m_keysButton->setAccessibleName(tr("Chart keys"));
    m_keysButton->setToolTip(tr("Keys and mouse of this chart (or press ?)"));
    connect(m_keysButton, &QToolButton::clicked, this, [this] {
        m_keysHint->isVisible() ? hideKeysHint() : showKeysHint();
    });
    m_keysHint->setObjectName(QStringLiteral("chartKeysHint"));
    m_keysHint->setText(keysText());
    m_keysHint->setWordWrap(true);
    m_keysHint->setAutoFillBackground(true);
    m_keysHint->setBackgroundRole(QPalette::ToolTipBase);
    m_keysHint->setForegroundRole(QPalette::ToolTipText);
    m_keysHint->setFrameShape(QFrame::Box);
    m_keysHint->setMargin(4);
    m_keysHint->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_keysHint->hide();
    m_settle.setSingleShot(true);
    m_settle.setInterval(gestureSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &ZoomableChartView::finishGesture);
}

void ZoomableChartView::beginGesture()
{
    if (inGesture())
        return;
    // The view as it is now (one paint), and where its plot is.
    m_gestureImage = viewport()->grab();
    const QRectF plot = chart()->plotArea();
    m_gesturePlot = QRectF(mapFromScene(chart()->mapToScene(plot.topLeft())),
                           mapFromScene(chart()->mapToScene(plot.bottomRight())));
    const double ratio = m_gestureImage.devicePixelRatio();
    m_gesturePlotImage = m_gestureImage.copy(QRectF(m_gesturePlot.topLeft() * ratio, m_gesturePlot.size() * ratio).toRect());
    m_panShift = QPointF();
    m_zoomRect = QRectF(QPointF(0, 0), plot.size());
}

QRectF ZoomableChartView::gestureSource() const
{
    const double ratio = m_gesturePlotImage.devicePixelRatio();
    const QRectF shown = m_zoomRect.translated(-m_panShift);
    return QRectF(shown.topLeft() * ratio, shown.size() * ratio);
}

void ZoomableChartView::finishGesture()
{
    if (!inGesture())
        return;
    m_settle.stop();
    const QPointF shift = m_panShift;
    const QRectF zoom = m_zoomRect;
    const QSizeF plotSize = m_gesturePlot.size();
    m_gestureImage = QPixmap();
    m_gesturePlotImage = QPixmap();
    // One range change for the whole gesture: the part of the plot (as it was) shown last.
    // (The plot's size in view pixels is rounded: a zoom is a change of more than a pixel.)
    if (std::abs(zoom.width() - plotSize.width()) > 1 || std::abs(zoom.height() - plotSize.height()) > 1)
        changeRange([&] { chart()->zoomIn(zoom.translated(chart()->plotArea().topLeft() - shift)); });
    else if (!shift.isNull())
        changeRange([&] { chart()->scroll(-shift.x(), shift.y()); });
    viewport()->update();
}

void ZoomableChartView::paintEvent(QPaintEvent *event)
{
    if (!inGesture()) {
        QChartView::paintEvent(event);
        return;
    }
    // The picture with its plot moved or scaled; the axes' labels follow when it ends.
    QPainter painter(viewport());
    painter.drawPixmap(QPointF(0, 0), m_gestureImage);
    painter.fillRect(m_gesturePlot, chart()->backgroundBrush());
    painter.setClipRect(m_gesturePlot);
    painter.drawPixmap(m_gesturePlot, m_gesturePlotImage, gestureSource());
}

QString ZoomableChartView::keysText()
{
    return tr("Drag: zoom; wheel, + and -: zoom; Shift+drag or Ctrl+arrows: pan; Home, 0 or double-click: "
              "fit the data again. Left and Right: the values at the previous or next step.");
}

void ZoomableChartView::showKeysHint()
{
    m_keysHint->show();
    placeKeysHint();
    m_keysHint->raise();
}

void ZoomableChartView::hideKeysHint()
{
    m_keysHint->hide();
}

void ZoomableChartView::placeKeysHint()
{
    // The bottom left of the chart, over the axis title and legend: the readout is at the
    // top of the plot, beside the pointer.
    const int hintWidth = std::max(120, std::min(width() - 8, 460));
    m_keysHint->setFixedWidth(hintWidth);
    m_keysHint->setFixedHeight(m_keysHint->heightForWidth(hintWidth));
    m_keysHint->move(4, std::max(0, height() - m_keysHint->height() - 4));
}

void ZoomableChartView::keepHintClearOf(const QRect &rect)
{
    if (m_keysHint->isVisible() && m_keysHint->geometry().intersects(rect))
        hideKeysHint();
}

void ZoomableChartView::showKeysHintOnce()
{
    // Once for this user: the first chart the pointer enters (or Tab reaches) tells the keys.
    QSettings settings;
    if (!settings.value(QLatin1String(hintShownKey), false).toBool()) {
        settings.setValue(QLatin1String(hintShownKey), true);
        showKeysHint();
    }
}

void ZoomableChartView::enterEvent(QEnterEvent *event)
{
    showKeysHintOnce();
    QChartView::enterEvent(event);
}

void ZoomableChartView::focusInEvent(QFocusEvent *event)
{
    if (event->reason() == Qt::TabFocusReason || event->reason() == Qt::BacktabFocusReason)
        showKeysHintOnce();
    QChartView::focusInEvent(event);
}

void ZoomableChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    m_keysButton->adjustSize();
    m_keysButton->move(width() - m_keysButton->width() - 2, 2);
    m_keysButton->raise();
    if (m_keysHint->isVisible())
        placeKeysHint();
}

void ZoomableChartView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    // Zoom around the cursor: shrink the plot rect toward it. Wheel steps come many a
    // second: the picture of the plot is scaled, the chart zoomed when the wheel pauses.
    const double factor = std::pow(1.25, steps);
    if (m_panning)
        finishGesture();
    beginGesture();
    const QRectF plot(QPointF(0, 0), m_gesturePlot.size());
    const QPointF at = event->position() - m_gesturePlot.topLeft();
    QRectF rect(0, 0, plot.width() / factor, plot.height() / factor);
    rect.moveCenter(QPointF(at.x() + (plot.center().x() - at.x()) / factor,
                            at.y() + (plot.center().y() - at.y()) / factor));
    // `rect` is in the pixels shown now, which show m_zoomRect of the plot as it was.
    const double sx = m_zoomRect.width() / plot.width();
    const double sy = m_zoomRect.height() / plot.height();
    m_zoomRect = QRectF(m_zoomRect.left() + rect.left() * sx, m_zoomRect.top() + rect.top() * sy, rect.width() * sx,
                        rect.height() * sy);
    viewport()->update();
    m_settle.start();
    event->accept();
}

void ZoomableChartView::mousePressEvent(QMouseEvent *event)
{
    hideKeysHint();  // read: the user is working the chart
    if (event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier))) {
        finishGesture();  // a wheel zoom not applied yet
        m_panning = true;
        m_lastPos = event->position();
        beginGesture();
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
        // In the zoom's pixels: a drag moves the picture as far as the pointer went.
        m_panShift += QPointF(delta.x() * m_zoomRect.width() / m_gesturePlot.width(),
                              delta.y() * m_zoomRect.height() / m_gesturePlot.height());
        viewport()->update();
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
    hideKeysHint();
    Q_EMIT hoverEnded();
    QChartView::leaveEvent(event);
}

void ZoomableChartView::focusOutEvent(QFocusEvent *event)
{
    hideKeysHint();
    if (!underMouse())
        Q_EMIT hoverEnded();
    QChartView::focusOutEvent(event);
}

void ZoomableChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning) {
        m_panning = false;
        unsetCursor();
        finishGesture();
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
    if (event->key() == Qt::Key_Question) {
        m_keysHint->isVisible() ? hideKeysHint() : showKeysHint();
        event->accept();
        return;
    }
    hideKeysHint();
    finishGesture();  // a wheel zoom not applied yet comes first
    switch (event->key()) {
    case Qt::Key_Left:
        if (ctrl)
            changeRange([this] { chart()->scroll(-20, 0); });
        else
            Q_EMIT stepRequested(-1);
        break;
    case Qt::Key_Right:
        if (ctrl)
            changeRange([this] { chart()->scroll(20, 0); });
        else
            Q_EMIT stepRequested(1);
        break;
    case Qt::Key_Up: changeRange([this] { chart()->scroll(0, 20); }); break;
    case Qt::Key_Down: changeRange([this] { chart()->scroll(0, -20); }); break;
    // "+" is Shift+= on most keyboards: = zooms in as well.
    case Qt::Key_Plus:
    case Qt::Key_Equal: changeRange([this] { chart()->zoomIn(); }); break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore: changeRange([this] { chart()->zoomOut(); }); break;
    case Qt::Key_Home:
    case Qt::Key_0: Q_EMIT resetRequested(); break;
    default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

} // namespace TrainDesk::Ui

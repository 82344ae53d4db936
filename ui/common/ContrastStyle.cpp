#include "ContrastStyle.h"

#include "Contrast.h"

#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

namespace TrainDesk::Ui {

ContrastStyle::ContrastStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
{
    setObjectName(QStringLiteral("fusion"));
}

QColor ContrastStyle::indicatorBorder(const QPalette &palette)
{
    return Contrast::readableMix(palette.color(QPalette::Window), palette.color(QPalette::WindowText),
                                 {palette.color(QPalette::Window), palette.color(QPalette::Base)});
}

void ContrastStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                  const QWidget *widget) const
{
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if (element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton)
        return;
    // Over Fusion's own frame, at the same place (its rectangle less a pixel, on half pixels).
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setBrush(Qt::NoBrush);
    QPen pen(indicatorBorder(option->palette));
    pen.setWidthF(1.0);
    painter->setPen(pen);
    const QRectF rect = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    if (element == PE_IndicatorRadioButton)
        painter->drawEllipse(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    else
        painter->drawRect(rect);
    painter->restore();
}

} // namespace TrainDesk::Ui

#pragma once

#include <QProxyStyle>

namespace TrainDesk::Ui {

// Fusion with check boxes and radio buttons that can be seen: Fusion outlines them in the
// window colour darkened, which on a dark palette is nearly the colour around them. Their
// frame is drawn again in indicatorBorder(), at least 4.5:1 against window and base.
class ContrastStyle : public QProxyStyle
{
    Q_OBJECT

public:
    ContrastStyle();

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;

    static QColor indicatorBorder(const QPalette &palette);
};

} // namespace TrainDesk::Ui

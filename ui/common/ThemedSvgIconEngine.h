#pragma once

#include <QByteArray>
#include <QIconEngine>

namespace TrainDesk::Ui {

// An SVG icon drawn for the application's palette at paint time: on a dark palette its
// light-theme colours are swapped for lighter ones (darkColors()), so an icon drawn once at
// start follows View > Theme and stays readable (4.5:1, tests/ui/tst_contrast).
class ThemedSvgIconEngine : public QIconEngine
{
public:
    explicit ThemedSvgIconEngine(const QByteArray &svg);

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override;
    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override;
    QIconEngine *clone() const override;
    QString key() const override;
    bool isNull() override;

    // The SVG as drawn on a dark palette (or as is on a light one).
    QByteArray svgFor(bool dark) const;
    // Light-theme colour (as written in resources/icons) to its dark-theme counterpart.
    static const QList<QPair<QByteArray, QByteArray>> &darkColors();

private:
    QByteArray m_svg;
    QByteArray m_darkSvg;
};

} // namespace TrainDesk::Ui

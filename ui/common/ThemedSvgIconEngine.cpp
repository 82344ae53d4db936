#include "ThemedSvgIconEngine.h"

#include "Theme.h"

#include <QApplication>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace TrainDesk::Ui {

ThemedSvgIconEngine::ThemedSvgIconEngine(const QByteArray &svg) : m_svg(svg)
{
    m_darkSvg = svg;
    for (const auto &[light, dark] : darkColors())
        m_darkSvg.replace(light, dark);
}

const QList<QPair<QByteArray, QByteArray>> &ThemedSvgIconEngine::darkColors()
{
    // Strokes lighter, fills darker: the same drawing, its contrast kept on a dark window.
    static const QList<QPair<QByteArray, QByteArray>> colors{
        {"#1f5c9e", "#8cc4ff"},  // strokes (blue)
        {"#e8f0fb", "#24364d"},  // light fills behind them
        {"#ffffff", "#1e1f22"},
        {"#2f9e44", "#51cf66"},  // the green of "new"
        {"#237032", "#69db7c"},  // start
        {"#c92a2a", "#ff8787"},  // terminate
    };
    return colors;
}

QByteArray ThemedSvgIconEngine::svgFor(bool dark) const
{
    return dark ? m_darkSvg : m_svg;
}

void ThemedSvgIconEngine::paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State)
{
    QSvgRenderer renderer(svgFor(Theme::isDark(QApplication::palette())));
    painter->save();
    if (mode == QIcon::Disabled)
        painter->setOpacity(0.4);
    renderer.render(painter, rect);
    painter->restore();
}

QPixmap ThemedSvgIconEngine::pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state)
{
    QPixmap pixmap(size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paint(&painter, QRect(QPoint(0, 0), size), mode, state);
    return pixmap;
}

QIconEngine *ThemedSvgIconEngine::clone() const
{
    return new ThemedSvgIconEngine(m_svg);
}

QString ThemedSvgIconEngine::key() const
{
    return QStringLiteral("traindesk-themed-svg");
}

bool ThemedSvgIconEngine::isNull()
{
    return m_svg.isEmpty();
}

} // namespace TrainDesk::Ui

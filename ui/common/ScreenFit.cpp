#include "ScreenFit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace TrainDesk::Ui::ScreenFit {

namespace {

// A title bar and borders, before the window manager says (the frame is known once shown).
constexpr QSize frameAllowance{16, 40};

} // namespace

QRect availableGeometry(const QWidget *window)
{
    const QWidget *parent = window->parentWidget() ? window->parentWidget()->window() : nullptr;
    QScreen *screen = parent ? parent->screen() : window->screen();
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry() : QRect(QPoint(0, 0), smallestScreen);
}

QSize fitted(const QWidget *window, QSize preferred)
{
    const QSize room = availableGeometry(window).size() - frameAllowance;
    return preferred.boundedTo(room).expandedTo(window->minimumSize());
}

void resizeWithin(QWidget *window, QSize preferred)
{
    window->resize(fitted(window, preferred));
    if (window->parentWidget())
        return;  // a dialog: Qt centres it on its parent, inside the screen
    const QRect available = availableGeometry(window);
    QRect frame(window->pos(), window->size() + frameAllowance);
    if (available.contains(frame))
        return;
    frame.moveCenter(available.center());
    window->move(frame.topLeft().x() < available.left() ? available.left() : frame.topLeft().x(),
                 frame.topLeft().y() < available.top() ? available.top() : frame.topLeft().y());
}

} // namespace TrainDesk::Ui::ScreenFit

#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace TrainDesk::Ui::ScreenFit {

// The smallest screen the app is laid out for; windows open within any larger one.
constexpr QSize smallestScreen{1024, 700};

// The available part of the screen `window` opens on (its parent's, else the primary).
QRect availableGeometry(const QWidget *window);
// `preferred` no larger than the available screen less room for the window frame.
QSize fitted(const QWidget *window, QSize preferred);
// Resizes a top-level window to fitted(preferred) and, when it is not a dialog placed over
// its parent, moves it inside the available screen.
void resizeWithin(QWidget *window, QSize preferred);

} // namespace TrainDesk::Ui::ScreenFit

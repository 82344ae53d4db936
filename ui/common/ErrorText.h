#pragma once

#include <QColor>
#include <QPalette>

#include <initializer_list>

class QLineEdit;
class QWidget;

namespace TrainDesk::Ui::ErrorText {

// The red of error messages for `palette`: mixed toward its text colour until it reads at
// 4.5:1 on both its window and its base (a fixed dark red was 1.6:1 on the dark theme).
QColor color(const QPalette &palette);

// Draws `widget`'s text (a label's, an edit's) in color(), again whenever the application's
// palette changes (View > Theme), and in its usual colour after clear().
void mark(QWidget *widget);
void clear(QWidget *widget);

// Whether the user has not typed into any of `edits` yet and they are empty: a wizard says
// nothing about a name nobody typed (Next stays off until the page is complete).
bool untouched(std::initializer_list<const QLineEdit *> edits);

} // namespace TrainDesk::Ui::ErrorText

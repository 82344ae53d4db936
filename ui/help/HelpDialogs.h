#pragma once

#include <QList>
#include <QString>

class QAction;
class QDialog;
class QMessageBox;
class QWidget;

namespace TrainDesk::Ui {

// The Help menu's windows. Each opens non-modal and deletes itself when closed.
namespace HelpDialogs {

// docs/USER_GUIDE.md, compiled into the program, shown as formatted text.
QDialog *showUserGuide(QWidget *parent);
// Every action of `actions` that has a shortcut, with the keys in the platform's words.
QDialog *showShortcuts(QWidget *parent, const QList<QAction *> &actions);
// The program's name, version, licence and the Qt it runs on.
QMessageBox *showAbout(QWidget *parent);
// The text of the About box (tests read it).
QString aboutText();

} // namespace HelpDialogs
} // namespace TrainDesk::Ui

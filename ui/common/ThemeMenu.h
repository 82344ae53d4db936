#pragma once

#include "Theme.h"

#include <QMenu>

class QActionGroup;

namespace TrainDesk::Ui {

// View > Theme: System, Light, Dark; the choice is applied at once and remembered.
class ThemeMenu : public QMenu
{
    Q_OBJECT

public:
    explicit ThemeMenu(QWidget *parent = nullptr);

    QAction *actionFor(Theme::Choice choice) const;

private:
    QActionGroup *m_group;
};

} // namespace TrainDesk::Ui

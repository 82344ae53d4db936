#include "ThemeMenu.h"

#include <QActionGroup>

namespace TrainDesk::Ui {

ThemeMenu::ThemeMenu(QWidget *parent) : QMenu(tr("T&heme"), parent), m_group(new QActionGroup(this))
{
    setObjectName(QStringLiteral("themeMenu"));
    const struct
    {
        Theme::Choice choice;
        QString text;
        QString tip;
    } entries[] = {
        {Theme::Choice::System, tr("&System"), tr("Follow the desktop: dark when it asks for dark")},
        {Theme::Choice::Light, tr("&Light"), tr("Light, whatever the desktop uses")},
        {Theme::Choice::Dark, tr("&Dark"), tr("Dark, whatever the desktop uses")},
    };
    const Theme::Choice current = Theme::stored();
    for (const auto &entry : entries) {
        QAction *action = addAction(entry.text);
        action->setObjectName(QStringLiteral("theme-") + Theme::name(entry.choice));
        action->setToolTip(entry.tip);
        action->setCheckable(true);
        action->setChecked(entry.choice == current);
        action->setData(int(entry.choice));
        m_group->addAction(action);
        connect(action, &QAction::triggered, this, [choice = entry.choice] { Theme::apply(choice); });
    }
    setToolTipsVisible(true);
}

QAction *ThemeMenu::actionFor(Theme::Choice choice) const
{
    for (QAction *action : m_group->actions()) {
        if (action->data().toInt() == int(choice))
            return action;
    }
    return nullptr;
}

} // namespace TrainDesk::Ui

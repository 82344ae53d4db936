#include "ErrorText.h"

#include "Contrast.h"

#include <QApplication>
#include <QEvent>
#include <QLineEdit>
#include <QWidget>

#include <algorithm>

namespace TrainDesk::Ui::ErrorText {

namespace {

const char *const markedProperty = "traindeskErrorText";

void paint(QWidget *widget)
{
    QPalette p = widget->palette();
    const QColor red = color(QApplication::palette());
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text})
        p.setColor(role, red);
    widget->setPalette(p);
}

// Follows the theme: the application's palette changed, the red is computed for it. It
// watches the application (which hears of every change) and lives as its widget's child.
class Follower : public QObject
{
public:
    explicit Follower(QWidget *widget) : QObject(widget), m_widget(widget) { qApp->installEventFilter(this); }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange
            && m_widget->property(markedProperty).toBool())
            paint(m_widget);
        return false;
    }

private:
    QWidget *m_widget;
};

} // namespace

QColor color(const QPalette &palette)
{
    return Contrast::readableMix(QColor(0xd3, 0x2f, 0x2f), palette.color(QPalette::WindowText),
                                 {palette.color(QPalette::Window), palette.color(QPalette::Base)});
}

void mark(QWidget *widget)
{
    if (!widget->property(markedProperty).isValid())
        new Follower(widget);
    widget->setProperty(markedProperty, true);
    paint(widget);
}

bool untouched(std::initializer_list<const QLineEdit *> edits)
{
    return std::all_of(edits.begin(), edits.end(), [](const QLineEdit *e) { return e->text().isEmpty() && !e->isModified(); });
}

void clear(QWidget *widget)
{
    if (!widget->property(markedProperty).toBool())
        return;
    widget->setProperty(markedProperty, false);
    widget->setPalette(QPalette());
}

} // namespace TrainDesk::Ui::ErrorText

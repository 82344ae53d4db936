#include "ElidedToolTips.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QToolTip>

namespace TrainDesk::Ui {

void ElidedToolTips::install()
{
    static ElidedToolTips *filter = nullptr;
    if (!filter) {
        filter = new ElidedToolTips(qApp);
        qApp->installEventFilter(filter);
    }
}

bool ElidedToolTips::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return false;
    auto *viewport = qobject_cast<QWidget *>(watched);
    auto *view = viewport ? qobject_cast<QAbstractItemView *>(viewport->parentWidget()) : nullptr;
    if (!view || view->viewport() != viewport)
        return false;
    const auto *help = static_cast<QHelpEvent *>(event);
    const QModelIndex index = view->indexAt(help->pos());
    if (!index.isValid() || !index.data(Qt::ToolTipRole).toString().isEmpty())
        return false;  // the view shows the model's own tooltip
    const QString text = index.data(Qt::DisplayRole).toString();
    if (text.isEmpty())
        return false;
    // What the delegate would need for the whole text, against what the cell has.
    QStyleOptionViewItem option;
    option.initFrom(view);
    option.rect = view->visualRect(index);
    option.features |= QStyleOptionViewItem::HasDisplay;
    option.text = text;
    const QSize needed = view->itemDelegateForIndex(index)->sizeHint(option, index);
    if (needed.width() <= option.rect.width())
        return false;
    QToolTip::showText(help->globalPos(), text, view, option.rect);
    return true;
}

} // namespace TrainDesk::Ui

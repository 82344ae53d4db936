#pragma once

#include <QStyledItemDelegate>

class QTreeView;

namespace TrainDesk::Ui {

// Rows as tall as their wrapped text: QStyledItemDelegate wraps when the view's wordWrap
// is on but sizes rows as one line, so long details and hints were cut. The height comes
// from the column's current width; the view lays its rows out again when a column is
// resized.
class WrappingItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    explicit WrappingItemDelegate(QTreeView *view);

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    QTreeView *m_view;
};

} // namespace TrainDesk::Ui

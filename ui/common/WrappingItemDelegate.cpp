#include "WrappingItemDelegate.h"

#include <QApplication>
#include <QHeaderView>
#include <QTextLayout>
#include <QTreeView>

namespace TrainDesk::Ui {

WrappingItemDelegate::WrappingItemDelegate(QTreeView *view) : QStyledItemDelegate(view), m_view(view)
{
    view->setWordWrap(true);
    view->setUniformRowHeights(false);
    connect(view->header(), &QHeaderView::sectionResized, view, [view] { view->doItemsLayout(); });
}

QSize WrappingItemDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    if (opt.text.isEmpty())
        return size;
    const QStyle *style = m_view->style();
    // The text's room: the column less the margins and the icon, as the style paints it.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, &opt, m_view) + 1;
    const bool spanned = index.column() == 0 && m_view->isFirstColumnSpanned(index.row(), index.parent());
    int width = (spanned ? m_view->viewport()->width() : m_view->columnWidth(index.column())) - 2 * margin;
    if (index.column() == 0 && m_view->rootIsDecorated())
        width -= m_view->indentation();
    if (opt.features & QStyleOptionViewItem::HasDecoration)
        width -= opt.decorationSize.width() + 2 * margin;
    if (width <= 0)
        return size;
    // As QCommonStyle lays the text out: at word boundaries, else anywhere.
    QTextOption textOption;
    textOption.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    qreal height = 0;
    const QString text = QString(opt.text).replace(QLatin1Char('\n'), QChar::LineSeparator);
    QTextLayout layout(text, opt.font);
    layout.setTextOption(textOption);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        height += line.height();
    }
    layout.endLayout();
    size.setHeight(qMax(size.height(), int(std::ceil(height)) + 2 * margin));
    return size;
}

} // namespace TrainDesk::Ui

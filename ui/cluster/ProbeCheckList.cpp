#include "ProbeCheckList.h"

#include "common/WrappingItemDelegate.h"

#include <QHeaderView>
#include <QStyle>

namespace TrainDesk::Ui {

ProbeCheckList::ProbeCheckList(ProbePlace place, QWidget *parent) : QTreeWidget(parent), m_place(place)
{
    setHeaderLabels({tr("Result"), tr("Node"), tr("Check"), tr("Details")});
    setRootIsDecorated(false);
    setItemDelegate(new WrappingItemDelegate(this));
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    header()->setStretchLastSection(true);
    for (int c : {ResultColumn, NodeColumn, CheckColumn})
        header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
}

QTreeWidgetItem *ProbeCheckList::addCheck(const ProbeCheck &check)
{
    auto *item = new QTreeWidgetItem(this);
    item->setText(ResultColumn, check.passed ? tr("Pass") : tr("Fail"));
    item->setIcon(ResultColumn, style()->standardIcon(check.passed ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxCritical));
    item->setText(NodeColumn, check.node.isEmpty() ? tr("all") : check.node);
    item->setText(CheckColumn, check.title);
    item->setData(CheckColumn, IdRole, check.id);
    const QString hint = probeHint(check, m_place);
    item->setText(DetailsColumn, hint.isEmpty() ? check.detail : tr("%1\nHint: %2").arg(check.detail, hint));
    scrollToItem(item);
    return item;
}

QTreeWidgetItem *ProbeCheckList::addHostKey(const QString &nodes, const QString &keyType, const QString &fingerprint,
                                            bool accepted)
{
    auto *item = new QTreeWidgetItem(this);
    item->setText(ResultColumn, accepted ? tr("Accepted") : tr("Rejected"));
    item->setIcon(ResultColumn, style()->standardIcon(accepted ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxCritical));
    item->setText(NodeColumn, nodes);
    item->setText(CheckColumn, tr("Host key"));
    item->setData(CheckColumn, IdRole, QStringLiteral("hostKey"));
    item->setText(DetailsColumn, QStringLiteral("%1 %2").arg(keyType, fingerprint));
    scrollToItem(item);
    return item;
}

QTreeWidgetItem *ProbeCheckList::addLine(const QString &line)
{
    auto *item = new QTreeWidgetItem(this, {line});
    item->setFirstColumnSpanned(true);
    scrollToItem(item);
    return item;
}

} // namespace TrainDesk::Ui

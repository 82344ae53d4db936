#include "ClusterView.h"

#include "ClusterActions.h"
#include "ClusterSummaryModel.h"
#include "common/DataPaths.h"
#include "NodeTableModel.h"
#include "common/StateStyle.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

QString kindText(const Cluster &c)
{
    switch (c.kind) {
    case ClusterKind::Local:
        return ClusterView::tr("local");
    case ClusterKind::Ssh:
        return ClusterView::tr("SSH");
    case ClusterKind::Slurm:
        return ClusterView::tr("Slurm (login %1%2)")
            .arg(c.slurm.login.toHtmlEscaped(),
                 c.slurm.partition.isEmpty() ? QString()
                                             : ClusterView::tr(", partition %1").arg(c.slurm.partition.toHtmlEscaped()));
    }
    return {};
}

} // namespace

ClusterView::ClusterView(QWidget *parent)
    : QTabWidget(parent),
      m_details(new QLabel),
      m_summary(new ClusterSummaryModel(this)),
      m_nodes(new NodeTableModel(this)),
      m_summaryView(new QTableView),
      m_nodeView(new QTableView),
      m_actions(new ClusterActions(DataPaths::databasePath()))
{
    setDocumentMode(true);
    m_summaryView->setModel(m_summary);
    m_summaryView->verticalHeader()->hide();
    // Each column as wide as its text: a long cluster name is not cut.
    m_summaryView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summaryView->horizontalHeader()->setStretchLastSection(false);
    m_summaryView->setSelectionMode(QAbstractItemView::NoSelection);
    m_summaryView->setFocusPolicy(Qt::NoFocus);
    // One row: as tall as the header and that row.
    m_summaryView->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_summaryView->setFixedHeight(m_summaryView->horizontalHeader()->sizeHint().height()
                                  + m_summaryView->verticalHeader()->defaultSectionSize() + 4);
    m_nodeView->setModel(m_nodes);
    m_nodeView->verticalHeader()->hide();
    m_nodeView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nodeView->setAlternatingRowColors(true);
    m_nodeView->horizontalHeader()->setStretchLastSection(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_details);
    layout->addWidget(m_summaryView);
    layout->addWidget(m_actions);
    layout->addWidget(new QLabel(tr("Nodes")));
    layout->addWidget(m_nodeView, 1);
    addTab(page, tr("Cluster"));
}

void ClusterView::showCluster(qint64 clusterId, const ResourceSnapshot &snapshot)
{
    m_clusterId = clusterId;
    const ResourceSnapshot::ClusterEntry *entry = snapshot.findCluster(clusterId);
    m_summary->setClusters(entry ? QList<ResourceSnapshot::ClusterEntry>{*entry} : QList<ResourceSnapshot::ClusterEntry>{});
    m_nodes->setCluster(clusterId, snapshot);
    m_actions->setCluster(clusterId, snapshot);
    if (!entry) {
        m_details->clear();
        return;
    }
    const Cluster &c = entry->cluster;
    m_details->setText(tr("<b>%1</b> — %2 cluster, target %3, mount root <tt>%4</tt>%5")
                           .arg(c.name.toHtmlEscaped(), kindText(c),
                                countOf(c.targetNodeCount, tr("node"), tr("nodes")), c.mountRoot.toHtmlEscaped(),
                                c.setupTask.isEmpty() ? QString()
                                                      : tr(", setup task <tt>%1</tt>").arg(c.setupTask.toHtmlEscaped())));
    m_nodeView->resizeColumnsToContents();
}

} // namespace TrainDesk::Ui

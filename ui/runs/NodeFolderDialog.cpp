#include "NodeFolderDialog.h"

#include "session/ResourceSnapshot.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

// A place's entry in the combo box: its kind and names, kept as the item's data.
enum Role { ClusterRole = Qt::UserRole + 1, NodeRole, ShareRole };

} // namespace

NodeFolderDialog::NodeFolderDialog(const ResourceSnapshot &snapshot, const QString &workspace, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("nodeFolderDialog"));
    setWindowTitle(tr("Open TensorBoard folder on a cluster"));
    m_place = new QComboBox(this);
    m_place->setObjectName(QStringLiteral("placeCombo"));
    m_folder = new QLineEdit(this);
    m_folder->setObjectName(QStringLiteral("folderEdit"));
    m_folder->setClearButtonEnabled(true);
    for (const auto &ws : snapshot.workspaces) {
        if (ws.workspace.name != workspace)
            continue;
        for (const auto &entry : ws.clusters) {
            if (entry.cluster.kind == ClusterKind::Local)
                continue;  // this machine's folders open with File > Open TensorBoard folder…
            for (const Node &node : entry.nodes) {
                m_place->addItem(tr("Node %1 of cluster %2 (%3)").arg(node.name, entry.cluster.name, node.host));
                m_place->setItemData(m_place->count() - 1, entry.cluster.name, ClusterRole);
                m_place->setItemData(m_place->count() - 1, node.name, NodeRole);
            }
        }
        for (const Share &share : ws.shares) {
            if (share.kind == ShareKind::Local)
                continue;
            const ResourceSnapshot::ClusterEntry *cluster = snapshot.findCluster(share.clusterId);
            m_place->addItem(tr("Share %1 (%2 on cluster %3)").arg(share.name, share.path,
                                                                  cluster ? cluster->cluster.name : QStringLiteral("?")));
            m_place->setItemData(m_place->count() - 1, share.name, ShareRole);
        }
    }
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("nodeFolderHint"));
    m_hint->setWordWrap(true);
    auto *about = new QLabel(tr("The folder is read over SFTP where it is, with the node's host key checked as for every "
                                "login: each run is a folder holding event files, named by its path. Nothing is copied "
                                "or changed there; while Follow is on, only what the files grow by is read."), this);
    about->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Open)->setObjectName(QStringLiteral("openNodeFolderButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *form = new QFormLayout;
    form->addRow(tr("&Where:"), m_place);
    form->addRow(tr("&Folder:"), m_folder);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(m_buttons);
    connect(m_place, &QComboBox::currentIndexChanged, this, &NodeFolderDialog::update);
    connect(m_folder, &QLineEdit::textChanged, this, &NodeFolderDialog::update);
    resize(560, sizeHint().height());
    update();
}

NodeFolderDialog::Choice NodeFolderDialog::choice() const
{
    const int i = m_place->currentIndex();
    return {m_place->itemData(i, ClusterRole).toString(), m_place->itemData(i, NodeRole).toString(),
            m_place->itemData(i, ShareRole).toString(), m_folder->text().trimmed()};
}

void NodeFolderDialog::update()
{
    const Choice c = choice();
    QString problem;
    if (m_place->count() == 0) {
        problem = tr("This workspace has no cluster reached over SSH and no cluster share: add one with File > New "
                     "cluster… first.");
        m_folder->setPlaceholderText(QString());
    } else if (!c.share.isEmpty()) {
        m_folder->setPlaceholderText(tr("a path in the share (empty: the share itself)"));
        if (c.folder.startsWith(QLatin1Char('/')) || c.folder == QLatin1String("..") || c.folder.startsWith(QLatin1String("../")))
            problem = tr("Give a path inside the share, relative to it.");
    } else {
        m_folder->setPlaceholderText(tr("an absolute path on the node, e.g. /home/me/runs"));
        if (c.folder.isEmpty())
            problem = tr("Give the folder's absolute path on node %1.").arg(c.node);
        else if (!c.folder.startsWith(QLatin1Char('/')))
            problem = tr("The path must be absolute: it starts with / on node %1.").arg(c.node);
    }
    m_hint->setText(problem);
    m_hint->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(problem.isEmpty());
}

} // namespace TrainDesk::Ui

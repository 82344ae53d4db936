#include "SharePage.h"
#include "common/FileDialogs.h"
#include "common/ErrorText.h"

#include "common/DataPaths.h"
#include "session/Backend.h"
#include "store/Names.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <QWizard>

namespace TrainDesk::Ui {

SharePage::SharePage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_workspace(new QComboBox(this)),
      m_group(new QButtonGroup(this)),
      m_newRadio(new QRadioButton(tr("A new &share"), this)),
      m_existingRadio(new QRadioButton(tr("An &existing share"), this)),
      m_name(new QLineEdit(this)),
      m_kind(new QComboBox(this)),
      m_cluster(new QComboBox(this)),
      m_folderLabel(new QLabel(tr("F&older:"), this)),
      m_folder(new QLineEdit(this)),
      m_browse(new QPushButton(tr("B&rowse…"), this)),
      m_shares(new QComboBox(this)),
      m_problem(new QLabel(this)),
      m_status(new QLabel(this))
{
    setUpFields();
    layOut();
    for (const auto &ws : m_backend->snapshot().workspaces)
        m_workspace->addItem(ws.workspace.name, ws.workspace.id);
    fillShares();
    fillClusters();
    m_folder->setText(defaultFolder());
    connectFields();
    connect(m_backend, &Backend::requestFinished, this, &SharePage::shareCreated);
    check();
}

void SharePage::setUpFields()
{
    setTitle(tr("Share"));
    setSubTitle(tr("A share is a folder every job of the workspace sees at $AZ_BATCHAI_JOB_MOUNT_ROOT/<name>, "
                   "like the tutorial's Azure file share."));
    m_workspace->setObjectName(QStringLiteral("workspaceCombo"));
    m_workspace->setToolTip(tr("The workspace whose jobs see the share"));
    m_name->setObjectName(QStringLiteral("shareName"));
    m_name->setPlaceholderText(tr("e.g. myshare"));
    m_name->setToolTip(tr("Letters, digits, '-' and '_'; a job.json names it in relativeMountPath or azureFileUrl"));
    m_kind->setObjectName(QStringLiteral("shareKind"));
    m_kind->addItem(tr("Local folder (this machine)"), toString(ShareKind::Local));
    m_kind->addItem(tr("Cluster path (the same on every node, e.g. NFS)"), toString(ShareKind::ClusterPath));
    m_kind->addItem(tr("Replicated (a copy on every node)"), toString(ShareKind::Replicated));
    m_kind->setToolTip(tr("Local: a folder here, for the local cluster. Cluster path: a path every node of a "
                          "cluster sees (checked when created). Replicated: no shared file system; uploads go to "
                          "every node, outputs are read from the head node."));
    m_cluster->setObjectName(QStringLiteral("shareCluster"));
    m_cluster->setToolTip(tr("The SSH cluster whose nodes hold the share"));
    m_folder->setObjectName(QStringLiteral("shareFolder"));
    m_browse->setToolTip(tr("Choose the share's folder"));
    m_shares->setObjectName(QStringLiteral("shareCombo"));
    m_shares->setToolTip(tr("Uploads go to the share's folder here or to its cluster's nodes"));
    m_problem->setWordWrap(true);
    ErrorText::mark(m_problem);
    m_status->setWordWrap(true);
    m_group->addButton(m_newRadio);
    m_group->addButton(m_existingRadio);
    m_newRadio->setChecked(true);
}

void SharePage::layOut()
{
    auto *workspaceLabel = new QLabel(tr("&Workspace:"), this);
    workspaceLabel->setBuddy(m_workspace);
    auto *nameLabel = new QLabel(tr("N&ame:"), this);
    nameLabel->setBuddy(m_name);
    auto *kindLabel = new QLabel(tr("&Kind:"), this);
    kindLabel->setBuddy(m_kind);
    auto *clusterLabel = new QLabel(tr("&Cluster:"), this);
    clusterLabel->setBuddy(m_cluster);
    m_folderLabel->setBuddy(m_folder);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);
    auto *form = new QFormLayout;
    form->addRow(workspaceLabel, m_workspace);
    form->addRow(m_newRadio);
    form->addRow(nameLabel, m_name);
    form->addRow(kindLabel, m_kind);
    form->addRow(clusterLabel, m_cluster);
    form->addRow(m_folderLabel, folderRow);
    form->addRow(m_existingRadio, m_shares);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addStretch();
    setTabOrder(m_workspace, m_newRadio);
    setTabOrder(m_newRadio, m_name);
    setTabOrder(m_name, m_kind);
    setTabOrder(m_kind, m_cluster);
    setTabOrder(m_cluster, m_folder);
    setTabOrder(m_folder, m_browse);
    setTabOrder(m_browse, m_existingRadio);
    setTabOrder(m_existingRadio, m_shares);
}

void SharePage::connectFields()
{
    connect(m_workspace, &QComboBox::currentIndexChanged, this, [this] {
        fillShares();
        fillClusters();
        check();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &SharePage::followNameAndKind);
    connect(m_cluster, &QComboBox::currentIndexChanged, this, &SharePage::check);
    connect(m_group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (on)
            check();
    });
    connect(m_name, &QLineEdit::textChanged, this, &SharePage::followNameAndKind);
    connect(m_folder, &QLineEdit::textChanged, this, [this] {
        m_folderEdited = true;
        check();
    });
    connect(m_shares, &QComboBox::currentIndexChanged, this, &SharePage::check);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = FileDialogs::existingDirectory(this, QStringLiteral("share-folder"), tr("Share folder"),
                                                             m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
}

// A new share's folder follows its name and kind until the user edits it.
void SharePage::followNameAndKind()
{
    if (!m_folderEdited) {
        const QSignalBlocker blocker(m_folder);
        m_folder->setText(defaultFolder());
    }
    check();
}

// The worker's answer to validatePage(): Next goes on once the share is there.
void SharePage::shareCreated(int id, qint64 shareId, const QString &error)
{
    if (id != m_request)
        return;
    m_request = 0;
    if (!error.isEmpty()) {
        m_status->setText(tr("<b>Not created:</b> %1").arg(error.toHtmlEscaped()));
        check();
        return;
    }
    m_createdId = shareId;
    m_createdName = m_name->text().trimmed();
    m_status->setText(tr("Share %1 created.").arg(m_createdName));
    fillShares();
    check();
    if (wizard())
        wizard()->next();
}

QString SharePage::defaultFolder() const
{
    if (kind() != ShareKind::Local)
        return {};  // a path on the nodes: the user knows where their NFS mount is
    const QString name = m_name->text().trimmed();
    return QDir::toNativeSeparators(DataPaths::sharesDirectory() + (name.isEmpty() ? QString() : QLatin1Char('/') + name));
}

void SharePage::fillShares()
{
    const qint64 current = m_shares->currentData().toLongLong();
    const QSignalBlocker blocker(m_shares);
    m_shares->clear();
    if (const auto *ws = m_backend->snapshot().findWorkspace(workspaceId())) {
        for (const Share &s : ws->shares)
            m_shares->addItem(QStringLiteral("%1 (%2)").arg(s.name, toString(s.kind)), s.id);
    }
    m_shares->setCurrentIndex(qMax(0, m_shares->findData(current)));
    m_existingRadio->setEnabled(m_shares->count() > 0);
}

void SharePage::fillClusters()
{
    const QString current = m_cluster->currentText();
    const QSignalBlocker blocker(m_cluster);
    m_cluster->clear();
    if (const auto *ws = m_backend->snapshot().findWorkspace(workspaceId())) {
        for (const auto &c : ws->clusters) {
            if (c.cluster.kind == ClusterKind::Ssh)
                m_cluster->addItem(c.cluster.name);
        }
    }
    m_cluster->setCurrentIndex(qMax(0, m_cluster->findText(current)));
}

void SharePage::presetWorkspace(qint64 workspaceId)
{
    if (const int index = m_workspace->findData(workspaceId); index >= 0)
        m_workspace->setCurrentIndex(index);
}

void SharePage::selectShare(qint64 shareId)
{
    for (const auto &ws : m_backend->snapshot().workspaces) {
        for (const Share &s : ws.shares) {
            if (s.id == shareId)
                presetWorkspace(ws.workspace.id);
        }
    }
    fillShares();
    m_shares->setCurrentIndex(m_shares->findData(shareId));
    m_existingRadio->setChecked(true);
}

qint64 SharePage::workspaceId() const { return m_workspace->currentData().toLongLong(); }
QString SharePage::workspaceName() const { return m_workspace->currentText(); }
bool SharePage::newShare() const { return m_newRadio->isChecked(); }
ShareKind SharePage::kind() const
{
    return shareKindFromString(m_kind->currentData().toString()).value_or(ShareKind::Local);
}
QString SharePage::statusText() const { return m_status->text(); }

qint64 SharePage::shareId() const
{
    if (!newShare())
        return m_shares->currentData().toLongLong();
    return m_createdName == m_name->text().trimmed() ? m_createdId : 0;
}

QString SharePage::problem() const
{
    if (!workspaceId())
        return tr("there is no workspace: create one first");
    if (!newShare())
        return m_shares->currentIndex() < 0 ? tr("the workspace has no share") : QString();
    const QString name = m_name->text().trimmed();
    if (shareId())
        return {};  // made by this wizard a moment ago
    if (auto valid = validateName(tr("share"), name); !valid)
        return valid.error();
    if (const auto *ws = m_backend->snapshot().findWorkspace(workspaceId())) {
        for (const Share &s : ws->shares) {
            if (s.name == name)
                return tr("workspace '%1' has a share '%2' already").arg(workspaceName(), name);
        }
    }
    if (kind() == ShareKind::Local) {
        if (m_folder->text().trimmed().isEmpty() || !QDir::isAbsolutePath(m_folder->text().trimmed()))
            return tr("the folder must be an absolute path");
        return {};
    }
    if (m_cluster->count() == 0)
        return tr("workspace '%1' has no SSH cluster: a %2 share lives on a cluster's nodes")
            .arg(workspaceName(), toString(kind()));
    if (!m_folder->text().trimmed().startsWith(QLatin1Char('/')))
        return tr("the path on the nodes must be an absolute path");
    return {};
}

void SharePage::check()
{
    const bool local = kind() == ShareKind::Local;
    m_name->setEnabled(newShare());
    m_kind->setEnabled(newShare());
    m_cluster->setEnabled(newShare() && !local);
    m_folder->setEnabled(newShare());
    m_browse->setEnabled(newShare() && local);  // the dialog shows this machine only
    m_folderLabel->setText(local ? tr("F&older:") : tr("&Path on the nodes:"));
    m_folder->setToolTip(local ? tr("The folder on this machine that holds the share's files (made when missing)")
                               : tr("An absolute path on the nodes (made when missing). A cluster path must be the "
                                    "same folder on every node; a replicated one is a folder of each node's own"));
    m_shares->setEnabled(!newShare());
    const bool quiet = workspaceId() && newShare() && ErrorText::untouched({m_name});
    m_problem->setText(quiet ? QString() : problem());
    Q_EMIT completeChanged();
}

bool SharePage::isComplete() const
{
    return m_request == 0 && problem().isEmpty();
}

bool SharePage::validatePage()
{
    if (shareId())
        return true;
    m_status->setText(tr("Creating share %1…").arg(m_name->text().trimmed()));
    CreateShareRequest request{workspaceName(), m_name->text().trimmed(), kind(), m_folder->text().trimmed(), QString()};
    if (kind() != ShareKind::Local) {
        request.cluster = m_cluster->currentText();
        m_status->setText(tr("Creating share %1 on the nodes of %2…").arg(request.name, request.cluster));
    }
    m_request = m_backend->createShare(request);
    Q_EMIT completeChanged();
    return false;
}

} // namespace TrainDesk::Ui

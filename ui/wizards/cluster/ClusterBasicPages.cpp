#include "ClusterBasicPages.h"
#include "common/FileDialogs.h"
#include "common/ErrorText.h"

#include "ClusterWizard.h"
#include "cluster/NodeAddress.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

namespace {

QLabel *errorLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    ErrorText::mark(label);
    return label;
}

QLineEdit *lineEdit(const QString &objectName, bool secret = false)
{
    auto *edit = new QLineEdit;
    edit->setObjectName(objectName);
    if (secret)
        edit->setEchoMode(QLineEdit::Password);
    return edit;
}

} // namespace

ClusterNamePage::ClusterNamePage(const QStringList &workspaces, QWidget *parent) : QWizardPage(parent)
{
    setTitle(tr("Cluster"));
    setSubTitle(tr("A cluster is a set of machines that run jobs: this machine, nodes reached over SSH, or a "
                   "cluster Slurm runs."));
    m_workspace = new QComboBox;
    m_workspace->setObjectName(QStringLiteral("workspaceCombo"));
    m_workspace->addItems(workspaces);
    m_name = lineEdit(QStringLiteral("clusterName"));
    m_name->setPlaceholderText(QStringLiteral("gpu-nodes"));
    m_ssh = new QRadioButton(tr("SSH nodes: machines reached with ssh"));
    m_ssh->setObjectName(QStringLiteral("sshKind"));
    m_ssh->setChecked(true);
    m_local = new QRadioButton(tr("This machine (no SSH)"));
    m_local->setObjectName(QStringLiteral("localKind"));
    m_slurm = new QRadioButton(tr("A Slurm cluster, through its login node"));
    m_slurm->setObjectName(QStringLiteral("slurmKind"));
    m_error = errorLabel(QStringLiteral("nameError"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Workspace:"), m_workspace);
    form->addRow(tr("Na&me:"), m_name);  // Alt+N is Next
    form->addRow(tr("Kind:"), m_ssh);
    form->addRow(QString(), m_local);
    form->addRow(QString(), m_slurm);
    form->addRow(m_error);

    connect(m_name, &QLineEdit::textChanged, this, &ClusterNamePage::revalidate);
    connect(m_workspace, &QComboBox::currentTextChanged, this, &ClusterNamePage::revalidate);
    connect(m_local, &QRadioButton::toggled, this, &ClusterNamePage::revalidate);
    revalidate();
}

void ClusterNamePage::initializePage()
{
    m_name->setFocus();
}

void ClusterNamePage::showEvent(QShowEvent *event)
{
    QWizardPage::showEvent(event);
    // QWizard gives the focus to the page's first child (the workspace box) as it shows it.
    if (m_name->text().isEmpty())
        m_name->setFocus();
}

void ClusterNamePage::setWorkspace(const QString &workspace)
{
    m_workspace->setCurrentText(workspace);
}

QString ClusterNamePage::workspace() const { return m_workspace->currentText(); }
QString ClusterNamePage::name() const { return m_name->text().trimmed(); }
bool ClusterNamePage::isLocal() const { return m_local->isChecked(); }
bool ClusterNamePage::isSlurm() const { return m_slurm->isChecked(); }

QString ClusterNamePage::problem() const
{
    if (workspace().isEmpty())
        return tr("Create a workspace first (File > New workspace).");
    if (name().isEmpty())
        return {};  // nothing typed yet: no complaint, but no Next either
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*$"));
    if (!valid.match(name()).hasMatch())
        return tr("The name takes letters, digits, '.', '_' and '-', and starts with a letter or digit.");
    return {};
}

void ClusterNamePage::revalidate()
{
    m_error->setText(problem());
    Q_EMIT completeChanged();
}

bool ClusterNamePage::isComplete() const
{
    return !name().isEmpty() && problem().isEmpty();
}

int ClusterNamePage::nextId() const
{
    // This machine needs neither addresses nor credentials.
    if (isSlurm())
        return ClusterWizard::SlurmPage;
    return isLocal() ? ClusterWizard::TestPage : ClusterWizard::NodesPage;
}

int ClusterNodesPage::nextId() const
{
    return ClusterWizard::CredentialsPage;  // the Slurm page, between them in order, is not on this way
}

ClusterNodesPage::ClusterNodesPage(QWidget *parent) : QWizardPage(parent)
{
    setTitle(tr("Nodes"));
    setSubTitle(tr("One node a line: [NAME=]user@host[:port], e.g. gpu1=alice@10.0.0.5 or bob@[fe80::1]:2222."));
    m_nodes = new QPlainTextEdit;
    m_nodes->setObjectName(QStringLiteral("nodesEdit"));
    m_nodes->setPlaceholderText(QStringLiteral("node1=alice@10.0.0.5\nnode2=alice@10.0.0.6:2222"));
    m_head = new QComboBox;
    m_head->setObjectName(QStringLiteral("headNodeCombo"));
    m_errors = errorLabel(QStringLiteral("nodeErrors"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_nodes, 1);
    layout->addWidget(m_errors);
    auto *form = new QFormLayout;
    form->addRow(tr("&Head node (rank 0):"), m_head);
    layout->addLayout(form);
    connect(m_nodes, &QPlainTextEdit::textChanged, this, &ClusterNodesPage::revalidate);
    revalidate();
}

QStringList ClusterNodesPage::nodes() const
{
    QStringList lines;
    for (const QString &line : m_nodes->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            lines << line.trimmed();
    }
    return lines;
}

QString ClusterNodesPage::headNode() const { return m_head->currentText(); }

void ClusterNodesPage::revalidate()
{
    QStringList errors;
    const QStringList lines = m_nodes->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed().isEmpty())
            continue;
        if (const auto a = parseNodeAddress(lines.at(i).trimmed()); !a)
            errors << tr("Line %1: %2").arg(i + 1).arg(a.error());
    }
    QStringList names;
    if (errors.isEmpty() && !nodes().isEmpty()) {
        // Names must differ across lines too.
        if (const auto all = parseNodeAddresses(nodes()); !all) {
            errors << all.error();
        } else {
            for (const NodeAddress &a : *all)
                names << a.name;
        }
    }
    const QString head = m_head->currentText();
    m_head->clear();
    m_head->addItems(names);
    if (names.contains(head))
        m_head->setCurrentText(head);
    m_errors->setText(errors.join(QLatin1Char('\n')));
    m_valid = errors.isEmpty() && !names.isEmpty();
    Q_EMIT completeChanged();
}

bool ClusterNodesPage::isComplete() const { return m_valid; }

ClusterCredentialsPage::ClusterCredentialsPage(QWidget *parent) : QWizardPage(parent)
{
    setTitle(tr("Credentials"));
    setSubTitle(tr("How TrainDesk logs in to the nodes, where shares appear on them, and what runs when a node joins."));
    m_keyMode = new QRadioButton(tr("A &private key file"));
    m_keyMode->setObjectName(QStringLiteral("keyFileMode"));
    m_keyMode->setChecked(true);
    m_generateMode = new QRadioButton(tr("&Generate an ed25519 key and deploy it (asks for the password once)"));
    m_generateMode->setObjectName(QStringLiteral("generateKeyMode"));
    m_passwordMode = new QRadioButton(tr("A pass&word (kept encrypted)"));
    m_passwordMode->setObjectName(QStringLiteral("passwordMode"));
    m_keyFile = lineEdit(QStringLiteral("keyFileEdit"));
    m_passphrase = lineEdit(QStringLiteral("passphraseEdit"), true);
    m_passphrase->setPlaceholderText(tr("empty when the key has none"));
    m_password = lineEdit(QStringLiteral("passwordEdit"), true);
    m_mountRoot = lineEdit(QStringLiteral("mountRootEdit"));
    m_mountRoot->setPlaceholderText(QStringLiteral("~/traindesk/mounts/<workspace>/<cluster>"));
    m_setupTask = lineEdit(QStringLiteral("setupTaskEdit"));
    m_setupTask->setPlaceholderText(tr("e.g. pip install -r requirements.txt"));
    m_error = errorLabel(QStringLiteral("credentialsError"));

    auto *browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(QStringLiteral("browseKeyButton"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = FileDialogs::openFileName(this, QStringLiteral("private-key"), tr("Private key"),
                                                             m_keyFile->text());
        if (!file.isEmpty())
            m_keyFile->setText(file);
    });
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyFile, 1);
    keyRow->addWidget(browse);

    auto *form = new QFormLayout(this);
    form->addRow(m_keyMode);
    // A row of a layout gets a label without a buddy, which would show its "&": one of our own.
    auto *keyLabel = new QLabel(tr("&Key file:"));
    keyLabel->setBuddy(m_keyFile);
    form->addRow(keyLabel, keyRow);
    form->addRow(tr("Passp&hrase:"), m_passphrase);
    form->addRow(m_generateMode);
    form->addRow(m_passwordMode);
    form->addRow(tr("P&assword:"), m_password);
    form->addRow(tr("&Mount root:"), m_mountRoot);
    form->addRow(tr("&Setup task:"), m_setupTask);
    form->addRow(m_error);

    for (QLineEdit *edit : {m_keyFile, m_passphrase, m_password, m_mountRoot})
        connect(edit, &QLineEdit::textChanged, this, &ClusterCredentialsPage::revalidate);
    for (QRadioButton *button : {m_keyMode, m_generateMode, m_passwordMode})
        connect(button, &QRadioButton::toggled, this, &ClusterCredentialsPage::revalidate);
    revalidate();
}

ClusterCredentialsPage::Mode ClusterCredentialsPage::mode() const
{
    if (m_generateMode->isChecked())
        return Mode::GenerateKey;
    return m_passwordMode->isChecked() ? Mode::Password : Mode::KeyFile;
}

QString ClusterCredentialsPage::keyFile() const { return m_keyFile->text().trimmed(); }
QString ClusterCredentialsPage::passphrase() const { return m_passphrase->text(); }
QString ClusterCredentialsPage::password() const { return m_password->text(); }
QString ClusterCredentialsPage::mountRoot() const { return m_mountRoot->text().trimmed(); }
QString ClusterCredentialsPage::setupTask() const { return m_setupTask->text().trimmed(); }

QString ClusterCredentialsPage::problem() const
{
    if (!mountRoot().isEmpty() && !mountRoot().startsWith(QLatin1Char('/')))
        return tr("The mount root is an absolute path on the nodes (it starts with /).");
    if (mode() == Mode::KeyFile && keyFile().isEmpty())
        return tr("Choose the private key file.");
    if (mode() != Mode::KeyFile && password().isEmpty())
        return mode() == Mode::GenerateKey ? tr("Deploying the key logs in once with the password: type it.")
                                           : tr("Type the password.");
    return {};
}

void ClusterCredentialsPage::revalidate()
{
    const bool key = mode() == Mode::KeyFile;
    m_keyFile->setEnabled(key);
    m_passphrase->setEnabled(key);
    m_password->setEnabled(!key);
    m_error->setText(ErrorText::untouched({m_keyFile, m_password}) ? QString() : problem());
    Q_EMIT completeChanged();
}

bool ClusterCredentialsPage::isComplete() const { return problem().isEmpty(); }

} // namespace TrainDesk::Ui

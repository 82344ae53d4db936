#include "ClusterSlurmPage.h"

#include "ClusterWizard.h"
#include "cluster/NodeAddress.h"
#include "session/ClusterWorker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace TrainDesk::Ui {

ClusterSlurmPage::ClusterSlurmPage(ClusterWizard *wizard) : QWizardPage(wizard), m_wizard(wizard)
{
    setTitle(tr("Slurm"));
    setSubTitle(tr("Slurm queues and runs the jobs. TrainDesk submits them from the login node, into a folder "
                   "the compute nodes share."));
    m_loginIsLocal = new QCheckBox(tr("This machine is the login node"));
    m_loginIsLocal->setObjectName(QStringLiteral("slurmLoginIsLocal"));
    m_login = new QLineEdit;
    m_login->setObjectName(QStringLiteral("slurmLogin"));
    m_login->setPlaceholderText(QStringLiteral("alice@login.example.org"));
    m_partition = new QComboBox;
    m_partition->setObjectName(QStringLiteral("slurmPartition"));
    m_partition->setEditable(true);
    m_partition->lineEdit()->setPlaceholderText(tr("Slurm's default partition"));
    m_list = new QPushButton(tr("&List partitions"));
    m_list->setObjectName(QStringLiteral("slurmListPartitions"));
    m_list->setToolTip(tr("Ask sinfo on the login node which partitions there are"));
    m_account = new QLineEdit;
    m_account->setObjectName(QStringLiteral("slurmAccount"));
    m_account->setPlaceholderText(tr("optional"));
    m_qos = new QLineEdit;
    m_qos->setObjectName(QStringLiteral("slurmQos"));
    m_qos->setPlaceholderText(tr("optional"));
    m_gpus = new QSpinBox;
    m_gpus->setObjectName(QStringLiteral("slurmGpus"));
    m_gpus->setRange(0, 64);
    m_gpus->setSpecialValueText(tr("none"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("slurmStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *partitionRow = new QHBoxLayout;
    partitionRow->addWidget(m_partition, 1);
    partitionRow->addWidget(m_list);
    auto *form = new QFormLayout(this);
    form->addRow(QString(), m_loginIsLocal);
    auto *loginLabel = new QLabel(tr("Lo&gin node:"));
    loginLabel->setBuddy(m_login);
    form->addRow(loginLabel, m_login);
    auto *partitionLabel = new QLabel(tr("&Partition:"));
    partitionLabel->setBuddy(m_partition);
    form->addRow(partitionLabel, partitionRow);
    form->addRow(tr("A&ccount:"), m_account);
    form->addRow(tr("&QoS:"), m_qos);
    form->addRow(tr("GP&Us per node:"), m_gpus);
    form->addRow(m_status);

    connect(m_loginIsLocal, &QCheckBox::toggled, this, [this](bool local) {
        m_login->setEnabled(!local);
        revalidate();
    });
    connect(m_login, &QLineEdit::textChanged, this, &ClusterSlurmPage::revalidate);
    connect(m_list, &QPushButton::clicked, this, &ClusterSlurmPage::listPartitions);
    connect(wizard->worker(), &ClusterWorker::slurmPartitionsListed, this,
            [this](int id, const QStringList &partitions, const QString &error) {
                if (id != m_request)
                    return;
                m_request = -1;
                m_list->setEnabled(true);
                if (!error.isEmpty()) {
                    m_status->setText(tr("Cannot list the partitions: %1").arg(error));
                    return;
                }
                const QString chosen = m_partition->currentText();
                m_partition->clear();
                m_partition->addItems(partitions);
                m_partition->setCurrentText(chosen.isEmpty() ? partitions.value(0) : chosen);
                m_status->setText(tr("Partitions: %1 (the first is Slurm's default).").arg(partitions.join(QStringLiteral(", "))));
            });
    revalidate();
}

SlurmSettings ClusterSlurmPage::settings() const
{
    SlurmSettings s;
    s.login = m_loginIsLocal->isChecked() ? QStringLiteral("local") : m_login->text().trimmed();
    s.partition = m_partition->currentText().trimmed();
    s.account = m_account->text().trimmed();
    s.qos = m_qos->text().trimmed();
    s.gpusPerNode = m_gpus->value();
    return s;
}

QString ClusterSlurmPage::problem() const
{
    if (m_loginIsLocal->isChecked() || m_login->text().trimmed().isEmpty())
        return {};
    const auto address = parseNodeAddress(m_login->text().trimmed());
    return address ? QString() : address.error();
}

void ClusterSlurmPage::revalidate()
{
    if (m_request < 0)
        m_status->setText(problem());
    Q_EMIT completeChanged();
}

bool ClusterSlurmPage::isComplete() const
{
    return (m_loginIsLocal->isChecked() || !m_login->text().trimmed().isEmpty()) && problem().isEmpty();
}

int ClusterSlurmPage::nextId() const
{
    // A login node of this machine needs no credentials.
    return m_loginIsLocal->isChecked() ? ClusterWizard::TestPage : ClusterWizard::CredentialsPage;
}

void ClusterSlurmPage::listPartitions()
{
    if (!isComplete())
        return;
    m_list->setEnabled(false);
    m_status->setText(tr("Asking sinfo on the login node…"));
    m_request = m_wizard->worker()->slurmPartitions(m_wizard->request(true));
}

} // namespace TrainDesk::Ui

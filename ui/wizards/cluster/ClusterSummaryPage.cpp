#include "ClusterSummaryPage.h"

#include "common/ErrorText.h"
#include "ClusterWizard.h"
#include "session/ClusterWorker.h"

#include <QAbstractButton>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

ClusterSummaryPage::ClusterSummaryPage(ClusterWizard *wizard) : QWizardPage(wizard), m_wizard(wizard)
{
    setTitle(tr("Summary"));
    setSubTitle(tr("Finish creates the cluster: nodes that answer join it and run the setup task."));
    setFinalPage(true);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("createLog"));
    m_log->setReadOnly(true);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("createError"));
    m_error->setWordWrap(true);
    ErrorText::mark(m_error);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_error);

    connect(wizard->worker(), &ClusterWorker::message, this, [this](int id, const QString &line) {
        if (id == m_requestId)
            m_log->appendPlainText(line);
    });
    connect(wizard->worker(), &ClusterWorker::finished, this, &ClusterSummaryPage::finished);
}

void ClusterSummaryPage::initializePage()
{
    const CreateClusterRequest r = m_wizard->request(false);
    QStringList lines;
    lines << tr("Cluster %1 in workspace %2").arg(r.name, r.workspace);
    if (r.local) {
        lines << tr("Kind: this machine");
    } else if (r.slurm) {
        lines << tr("Kind: Slurm, login node %1").arg(r.slurm->loginIsLocal() ? tr("this machine") : r.slurm->login);
        lines << tr("Partition: %1").arg(r.slurm->partition.isEmpty() ? tr("Slurm's default") : r.slurm->partition);
        if (!r.slurm->account.isEmpty() || !r.slurm->qos.isEmpty())
            lines << tr("Account: %1, QoS: %2").arg(r.slurm->account, r.slurm->qos);
        if (r.slurm->gpusPerNode > 0)
            lines << tr("GPUs per node: %1").arg(r.slurm->gpusPerNode);
    } else {
        lines << tr("Nodes: %1").arg(r.nodes.join(QStringLiteral(", ")));
        if (!r.headNode.isEmpty())
            lines << tr("Head node: %1").arg(r.headNode);
        if (r.generateSshKeys)
            lines << tr("Login: TrainDesk's ed25519 key, deployed to every node with the password");
        else if (!r.keyFile.isEmpty())
            lines << tr("Login: key %1").arg(r.keyFile);
        else
            lines << tr("Login: password");
    }
    lines << tr("Mount root: %1").arg(r.mountRoot.isEmpty() ? tr("the default") : r.mountRoot);
    if (!r.setupTask.isEmpty())
        lines << tr("Setup task: %1").arg(r.setupTask);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_log->clear();
    m_error->clear();
}

bool ClusterSummaryPage::isComplete() const
{
    return m_requestId == 0;
}

bool ClusterSummaryPage::validatePage()
{
    // Creating takes a while (logins, the setup task): the wizard closes when it is done.
    if (m_createdId)
        return true;
    if (m_requestId)
        return false;
    m_error->clear();
    m_log->clear();
    m_requestId = m_wizard->worker()->createCluster(m_wizard->request(false), m_wizard->acceptedHostKeys());
    m_wizard->button(QWizard::BackButton)->setEnabled(false);
    Q_EMIT completeChanged();
    return false;
}

void ClusterSummaryPage::finished(int requestId, qint64 clusterId, const QString &error)
{
    if (requestId != m_requestId)
        return;
    m_requestId = 0;
    m_wizard->button(QWizard::BackButton)->setEnabled(true);
    Q_EMIT completeChanged();
    if (!error.isEmpty()) {
        m_error->setText(error);
        return;
    }
    m_createdId = clusterId;
    const CreateClusterRequest r = m_wizard->request(false);
    Q_EMIT m_wizard->clusterCreated(clusterId, r.workspace, r.name);
    m_wizard->accept();
}

} // namespace TrainDesk::Ui

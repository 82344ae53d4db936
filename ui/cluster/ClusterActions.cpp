#include "ClusterActions.h"

#include "common/ErrorText.h"
#include "ProbeCheckList.h"
#include "session/ClusterWorker.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

ClusterActions::ClusterActions(const QString &databasePath, QWidget *parent)
    : QWidget(parent)
    , m_worker(new ClusterWorker(databasePath))
    , m_nodeCount(new QSpinBox)
    , m_resize(new QPushButton(tr("Re&size")))
    , m_test(new QPushButton(tr("&Test connection")))
    , m_setup(new QPushButton(tr("Run set&up")))
    , m_remove(new QPushButton(tr("Re&move…")))
    , m_status(new QLabel)
    , m_checks(new ProbeCheckList(ProbePlace::ClusterPage))
{
    m_nodeCount->setObjectName(QStringLiteral("nodeCountSpin"));
    m_nodeCount->setRange(0, 4096);
    m_nodeCount->setToolTip(tr("Target node count: nodes above it drain and leave; growing brings parked nodes back"));
    m_resize->setObjectName(QStringLiteral("resizeButton"));
    m_test->setObjectName(QStringLiteral("testConnectionButton"));
    m_setup->setObjectName(QStringLiteral("runSetupButton"));
    m_remove->setObjectName(QStringLiteral("removeClusterButton"));
    m_status->setObjectName(QStringLiteral("clusterActionStatus"));
    m_status->setWordWrap(true);
    m_checks->setObjectName(QStringLiteral("probeChecks"));
    m_checks->hide();

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Nodes:")));
    row->addWidget(m_nodeCount);
    row->addWidget(m_resize);
    row->addWidget(m_test);
    row->addWidget(m_setup);
    row->addWidget(m_remove);
    row->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_checks);

    connect(m_resize, &QPushButton::clicked, this, [this] { resize(m_nodeCount->value()); });
    connect(m_test, &QPushButton::clicked, this, &ClusterActions::testConnection);
    connect(m_setup, &QPushButton::clicked, this, &ClusterActions::runSetup);
    connect(m_worker, &ClusterWorker::message, this, &ClusterActions::addMessage);
    connect(m_remove, &QPushButton::clicked, this, &ClusterActions::confirmRemove);
    connect(m_worker, &ClusterWorker::checkArrived, this, [this](int id, const ProbeCheck &check) {
        if (id == m_requestId)
            m_checks->addCheck(check);
    });
    connect(m_worker, &ClusterWorker::testFinished, this, [this](int id, bool passed, const QString &error) {
        if (id == m_requestId)
            done(id, error, passed ? tr("Every check passed.") : tr("Some checks failed: see their hints."));
    });
    connect(m_worker, &ClusterWorker::finished, this, [this](int id, qint64, const QString &error) {
        if (id != m_requestId)
            return;
        const qint64 cluster = m_clusterId;
        const bool setupRun = m_runningSetup;
        done(id, error, setupRun ? tr("The setup task succeeded on every node.") : tr("Done."));
        // A setup task that failed changed its node's state too.
        if (error.isEmpty() || setupRun)
            Q_EMIT clusterChanged(cluster);
    });
    setBusy(false);
}

ClusterActions::~ClusterActions()
{
    // A probe or a setup task over SSH stops; a resize finishes on its own thread: the view
    // never waits on nodes.
    m_worker->cancel();
    if (m_worker->isBusy())
        connect(m_worker, &ClusterWorker::busyChanged, m_worker, &QObject::deleteLater);
    else
        delete m_worker;
}

void ClusterActions::setCluster(qint64 clusterId, const ResourceSnapshot &snapshot)
{
    const ResourceSnapshot::ClusterEntry *entry = snapshot.findCluster(clusterId);
    const ResourceSnapshot::WorkspaceEntry *ws = entry ? snapshot.findWorkspace(entry->cluster.workspaceId) : nullptr;
    if (clusterId != m_clusterId) {
        m_checks->clear();
        m_checks->hide();
        m_status->clear();
    }
    m_clusterId = entry && ws ? clusterId : 0;
    m_cluster = entry ? entry->cluster.name : QString();
    m_workspace = ws ? ws->workspace.name : QString();
    m_hasSetupTask = entry && !entry->cluster.setupTask.isEmpty();
    m_setup->setToolTip(m_hasSetupTask ? tr("Run the setup task again on every node, after its script changed, say. "
                                            "Nodes are preparing meanwhile; nodes running a job are refused.")
                                       : tr("This cluster has no setup task."));
    if (entry && !m_nodeCount->hasFocus())
        m_nodeCount->setValue(entry->cluster.targetNodeCount);
    setBusy(m_requestId != 0);
}

void ClusterActions::setBusy(bool busy)
{
    const bool enabled = !busy && m_clusterId != 0;
    m_nodeCount->setEnabled(enabled);
    m_resize->setEnabled(enabled);
    m_test->setEnabled(enabled);
    m_setup->setEnabled(enabled && m_hasSetupTask);
    m_remove->setEnabled(enabled);
}

void ClusterActions::resize(int targetNodeCount)
{
    if (!m_clusterId || m_requestId)
        return;
    m_status->setText(tr("Resizing to %n node(s)…", nullptr, targetNodeCount));
    m_requestId = m_worker->resize(m_workspace, m_cluster, targetNodeCount);
    setBusy(true);
}

void ClusterActions::testConnection()
{
    if (!m_clusterId || m_requestId)
        return;
    m_checks->clear();
    m_checks->show();
    m_status->setText(tr("Testing…"));
    m_requestId = m_worker->probe(m_workspace, m_cluster);
    setBusy(true);
}

void ClusterActions::runSetup()
{
    if (!m_clusterId || m_requestId || !m_hasSetupTask)
        return;
    m_checks->clear();
    m_checks->show();
    m_status->setText(tr("Running the setup task on every node…"));
    m_status->setStyleSheet(QString());
    m_runningSetup = true;
    m_requestId = m_worker->runSetup(m_workspace, m_cluster);
    setBusy(true);
}

void ClusterActions::addMessage(int requestId, const QString &line)
{
    if (requestId != m_requestId || !m_runningSetup)
        return;
    m_checks->addLine(line);
}

void ClusterActions::confirmRemove()
{
    const auto answer = QMessageBox::question(this, tr("Remove cluster"),
                                              tr("Remove cluster %1? Its nodes are left as they are; jobs on it "
                                                 "must have ended.").arg(m_cluster));
    if (answer == QMessageBox::Yes)
        remove();
}

void ClusterActions::remove()
{
    if (!m_clusterId || m_requestId)
        return;
    m_status->setText(tr("Removing…"));
    m_requestId = m_worker->remove(m_workspace, m_cluster);
    setBusy(true);
}

void ClusterActions::done(int requestId, const QString &error, const QString &success)
{
    Q_UNUSED(requestId)
    m_requestId = 0;
    m_runningSetup = false;
    m_status->setText(error.isEmpty() ? success : error);
    error.isEmpty() ? ErrorText::clear(m_status) : ErrorText::mark(m_status);
    setBusy(false);
}

} // namespace TrainDesk::Ui

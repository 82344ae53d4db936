#include "ClusterWizard.h"
#include "common/ScreenFit.h"

#include "ClusterBasicPages.h"
#include "ClusterSlurmPage.h"
#include "ClusterSummaryPage.h"
#include "ClusterTestPage.h"
#include "cluster/NodeAddress.h"
#include "session/ClusterWorker.h"

namespace TrainDesk::Ui {

ClusterWizard::ClusterWizard(const QString &databasePath, const QStringList &workspaces, QWidget *parent)
    : QWizard(parent)
    , m_worker(new ClusterWorker(databasePath))
    , m_namePage(new ClusterNamePage(workspaces))
    , m_nodesPage(new ClusterNodesPage)
    , m_slurmPage(new ClusterSlurmPage(this))
    , m_credentialsPage(new ClusterCredentialsPage)
    , m_testPage(new ClusterTestPage(this))
    , m_summaryPage(new ClusterSummaryPage(this))
{
    setObjectName(QStringLiteral("clusterWizard"));
    setWindowTitle(tr("New cluster"));
    setPage(NamePage, m_namePage);
    setPage(NodesPage, m_nodesPage);
    setPage(SlurmPage, m_slurmPage);
    setPage(CredentialsPage, m_credentialsPage);
    setPage(TestPage, m_testPage);
    setPage(SummaryPage, m_summaryPage);
    setStartId(NamePage);
    // Room for a host key prompt and the connection test's checks without resizing: about
    // 120 average characters by 40 lines of the dialog's font (about 860 x 680 at 10 pt),
    // within 1280 x 800.
    const QFontMetrics metrics(font());
    ScreenFit::resizeWithin(this, sizeHint().expandedTo(QSize(metrics.averageCharWidth() * 120, metrics.lineSpacing() * 40)));
}

ClusterWizard::~ClusterWizard()
{
    // A running test stops; a creation under way finishes on its own thread, and the
    // worker goes when it is idle, so closing the wizard never waits on a node.
    m_worker->cancel();
    if (m_worker->isBusy())
        connect(m_worker, &ClusterWorker::busyChanged, m_worker, &QObject::deleteLater);
    else
        delete m_worker;
}

void ClusterWizard::presetWorkspace(const QString &workspace)
{
    m_namePage->setWorkspace(workspace);
}

CreateClusterRequest ClusterWizard::request(bool forTest) const
{
    CreateClusterRequest r;
    r.workspace = m_namePage->workspace();
    r.name = m_namePage->name();
    r.local = m_namePage->isLocal();
    r.connectTimeoutMs = m_connectTimeoutMs;
    if (r.local)
        return r;
    if (m_namePage->isSlurm()) {
        r.slurm = m_slurmPage->settings();
        if (r.slurm->loginIsLocal())
            return r;
    } else {
        r.nodes = m_nodesPage->nodes();
    }
    r.headNode = m_nodesPage->headNode();
    // The head node (rank 0) goes first: the connection test has no head node option.
    if (forTest && !r.headNode.isEmpty()) {
        if (const auto parsed = parseNodeAddresses(r.nodes)) {
            for (int i = 0; i < parsed->size(); ++i) {
                if (parsed->at(i).name == r.headNode) {
                    r.nodes.move(i, 0);
                    break;
                }
            }
        }
    }
    switch (m_credentialsPage->mode()) {
    case ClusterCredentialsPage::Mode::KeyFile:
        r.keyFile = m_credentialsPage->keyFile();
        r.keyPassphrase = m_credentialsPage->passphrase();
        break;
    case ClusterCredentialsPage::Mode::GenerateKey:
        r.password = m_credentialsPage->password();
        r.generateSshKeys = !forTest;
        break;
    case ClusterCredentialsPage::Mode::Password:
        r.password = m_credentialsPage->password();
        break;
    }
    r.mountRoot = m_credentialsPage->mountRoot();
    r.setupTask = m_credentialsPage->setupTask();
    return r;
}

} // namespace TrainDesk::Ui

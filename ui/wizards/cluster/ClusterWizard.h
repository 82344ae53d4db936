#pragma once

#include "cluster/CreateClusterRequest.h"

#include <QSet>
#include <QWizard>

namespace TrainDesk {
class ClusterWorker;
}

namespace TrainDesk::Ui {

class ClusterNamePage;
class ClusterNodesPage;
class ClusterSlurmPage;
class ClusterCredentialsPage;
class ClusterTestPage;
class ClusterSummaryPage;

// New cluster: name and kind, nodes (or a Slurm login node and its options), credentials, a connection test that streams each
// check, and a summary whose Finish creates the cluster. All SSH work runs on a
// ClusterWorker; the wizard only shows what it reports.
class ClusterWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { NamePage, NodesPage, SlurmPage, CredentialsPage, TestPage, SummaryPage };

    ClusterWizard(const QString &databasePath, const QStringList &workspaces, QWidget *parent = nullptr);
    ~ClusterWizard() override;

    void presetWorkspace(const QString &workspace);
    void setConnectTimeoutMs(int ms) { m_connectTimeoutMs = ms; }

    ClusterWorker *worker() const { return m_worker; }
    // What the pages say, as ClusterService takes it. The connection test logs in with
    // the password when a key is to be generated (it is deployed on Finish).
    CreateClusterRequest request(bool forTest) const;
    QSet<QString> &acceptedHostKeys() { return m_acceptedHostKeys; }

Q_SIGNALS:
    void clusterCreated(qint64 clusterId, const QString &workspace, const QString &name);

private:
    ClusterWorker *m_worker;
    ClusterNamePage *m_namePage;
    ClusterNodesPage *m_nodesPage;
    ClusterSlurmPage *m_slurmPage;
    ClusterCredentialsPage *m_credentialsPage;
    ClusterTestPage *m_testPage;
    ClusterSummaryPage *m_summaryPage;
    QSet<QString> m_acceptedHostKeys;
    int m_connectTimeoutMs = 10000;
};

} // namespace TrainDesk::Ui

// The cluster view's models: the `cluster show` row and the node table.
#include "cluster/ClusterSummary.h"
#include "cluster/ClusterSummaryModel.h"
#include "cluster/NodeTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

Node node(qint64 id, int index, NodeState state, const QString &reason = {})
{
    Node n;
    n.id = id;
    n.clusterId = 1;
    n.index = index;
    n.name = QStringLiteral("node%1").arg(index);
    n.host = QStringLiteral("10.0.0.%1").arg(index + 1);
    n.port = 22;
    n.user = QStringLiteral("admin");
    n.slotCount = 4;
    n.state = state;
    n.stateReason = reason;
    return n;
}

ResourceSnapshot snapshotWith(const QList<Node> &nodes, int target, const QList<Job> &jobs = {})
{
    ResourceSnapshot s;
    ResourceSnapshot::WorkspaceEntry ws;
    ws.workspace.id = 1;
    Cluster c;
    c.id = 1;
    c.name = QStringLiteral("nc6");
    c.targetNodeCount = target;
    ws.clusters.append({c, nodes});
    Experiment e;
    e.id = 1;
    ws.experiments.append({e, jobs});
    s.workspaces.append(ws);
    return s;
}

} // namespace

class TestClusterModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void summaryCounts()
    {
        const ResourceSnapshot s = snapshotWith({node(1, 0, NodeState::Idle), node(2, 1, NodeState::Running),
                                                 node(3, 2, NodeState::Running), node(4, 3, NodeState::Unusable, QStringLiteral("ssh refused"))},
                                                4);
        const ClusterSummary sum = ClusterSummary::of(*s.findCluster(1));
        QCOMPARE(sum.name, QStringLiteral("nc6"));
        QCOMPARE(sum.state, QStringLiteral("degraded"));  // an unusable node
        QCOMPARE(sum.idle, 1);
        QCOMPARE(sum.running, 2);
        QCOMPARE(sum.unusable, 1);
        QCOMPARE(sum.preparing + sum.leaving, 0);

        // Resized to 1: the running nodes past the target are leaving, idle ones are gone.
        const ResourceSnapshot shrinking = snapshotWith({node(1, 0, NodeState::Idle), node(2, 1, NodeState::Running),
                                                         node(3, 2, NodeState::Idle)}, 1);
        const ClusterSummary r = ClusterSummary::of(*shrinking.findCluster(1));
        QCOMPARE(r.state, QStringLiteral("resizing"));
        QCOMPARE(r.idle, 1);
        QCOMPARE(r.leaving, 1);
        QCOMPARE(r.running, 0);

        // Parked (target 0, all idle): steady with nothing in it.
        const ResourceSnapshot parked = snapshotWith({node(1, 0, NodeState::Idle)}, 0);
        const ClusterSummary p = ClusterSummary::of(*parked.findCluster(1));
        QCOMPARE(p.state, QStringLiteral("steady"));
        QCOMPARE(p.idle + p.running + p.leaving, 0);

        const ResourceSnapshot preparing = snapshotWith({node(1, 0, NodeState::Preparing)}, 1);
        QCOMPARE(ClusterSummary::of(*preparing.findCluster(1)).state, QStringLiteral("resizing"));
    }

    void summaryModel()
    {
        ClusterSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ResourceSnapshot s = snapshotWith({node(1, 0, NodeState::Idle)}, 1);
        model.setClusters(s.workspaces[0].clusters);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 7);
        QCOMPARE(model.headerData(ClusterSummaryModel::UnusableColumn, Qt::Horizontal).toString(), QStringLiteral("Unusable"));
        QCOMPARE(model.index(0, ClusterSummaryModel::IdleColumn).data().toInt(), 1);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setClusters(snapshotWith({node(1, 0, NodeState::Running)}, 1).workspaces[0].clusters);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0, ClusterSummaryModel::RunningColumn).data().toInt(), 1);
        QCOMPARE(model.index(0, ClusterSummaryModel::IdleColumn).data().toInt(), 0);
        model.setClusters({});
        QCOMPARE(model.rowCount(), 0);
    }

    void nodeTable()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Job job;
        job.id = 7;
        job.clusterId = 1;
        job.name = QStringLiteral("cifar");
        job.state = JobState::Running;
        job.nodes = {QStringLiteral("node1")};
        model.setCluster(1, snapshotWith({node(1, 0, NodeState::Idle), node(2, 1, NodeState::Running)}, 2, {job}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, NodeTableModel::NameColumn).data().toString(), QStringLiteral("node0 (head)"));
        QCOMPARE(model.index(1, NodeTableModel::HostColumn).data().toString(), QStringLiteral("10.0.0.2"));
        QCOMPARE(model.index(1, NodeTableModel::StateColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(model.index(1, NodeTableModel::JobColumn).data().toString(), QStringLiteral("cifar"));
        QCOMPARE(model.index(0, NodeTableModel::JobColumn).data().toString(), QStringLiteral("—"));
        QCOMPARE(model.index(1, NodeTableModel::SlotsColumn).data().toInt(), 4);

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        job.state = JobState::Succeeded;
        model.setCluster(1, snapshotWith({node(1, 0, NodeState::Idle), node(2, 1, NodeState::Unusable, QStringLiteral("unreachable"))},
                                         2, {job}));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);  // only node1's row
        QCOMPARE(model.index(1, NodeTableModel::ErrorColumn).data().toString(), QStringLiteral("unreachable"));
        QCOMPARE(model.index(1, NodeTableModel::JobColumn).data().toString(), QStringLiteral("—"));

        model.setCluster(1, snapshotWith({node(1, 0, NodeState::Idle)}, 1));
        QCOMPARE(reset.count(), 1);  // another set of nodes
        QCOMPARE(model.rowCount(), 1);
        model.setCluster(99, snapshotWith({}, 0));
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestClusterModels)
#include "tst_clustermodels.moc"

// ResourceTreeModel: structure from a snapshot, and updates that keep rows (and thus the
// selection and expanded branches) instead of resetting.
#include "tree/ResourceTreeModel.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace TrainDesk;
using namespace TrainDesk::Ui;
using Kind = ResourceTreeModel::Kind;

namespace {

Job job(qint64 id, const QString &name, JobState state)
{
    Job j;
    j.id = id;
    j.experimentId = 10;
    j.clusterId = 20;
    j.name = name;
    j.state = state;
    return j;
}

ResourceSnapshot snapshot(const QList<Job> &jobs, NodeState nodeState = NodeState::Idle)
{
    ResourceSnapshot s;
    ResourceSnapshot::WorkspaceEntry ws;
    ws.workspace.id = 1;
    ws.workspace.name = QStringLiteral("default");
    Experiment exp;
    exp.id = 10;
    exp.workspaceId = 1;
    exp.name = QStringLiteral("demo");
    ws.experiments.append({exp, jobs});
    Cluster c;
    c.id = 20;
    c.name = QStringLiteral("local");
    c.targetNodeCount = 1;
    Node n;
    n.id = 30;
    n.clusterId = 20;
    n.name = QStringLiteral("localhost");
    n.state = nodeState;
    ws.clusters.append({c, {n}});
    Share sh;
    sh.id = 40;
    sh.name = QStringLiteral("local");
    ws.shares.append(sh);
    s.workspaces.append(ws);
    return s;
}

} // namespace

class TestResourceTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void structure()
    {
        ResourceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Running), job(101, QStringLiteral("b"), JobState::Draft)}));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex ws = model.index(0, 0);
        QCOMPARE(ws.data().toString(), QStringLiteral("default"));
        QCOMPARE(model.rowCount(ws), 3);  // Experiments, Clusters, Shares
        const QModelIndex jobA = model.indexForKey(ResourceTreeModel::keyFor(Kind::Job, 100));
        QVERIFY(jobA.isValid());
        QCOMPARE(jobA.data().toString(), QStringLiteral("a"));
        QCOMPARE(jobA.siblingAtColumn(ResourceTreeModel::StateColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(jobA.data(ResourceTreeModel::KindRole).value<Kind>(), Kind::Job);
        QCOMPARE(jobA.data(ResourceTreeModel::IdRole).toLongLong(), 100);
        QCOMPARE(jobA.parent().data().toString(), QStringLiteral("demo"));
        QCOMPARE(jobA.parent().parent().data().toString(), QStringLiteral("Experiments"));
        const QModelIndex node = model.indexForKey(ResourceTreeModel::keyFor(Kind::Node, 30));
        QCOMPARE(node.data().toString(), QStringLiteral("localhost"));
        QCOMPARE(node.parent().data().toString(), QStringLiteral("local"));
        QCOMPARE(node.parent().siblingAtColumn(1).data().toString(), QStringLiteral("steady"));
        QVERIFY(model.indexForKey(ResourceTreeModel::keyFor(Kind::Share, 40)).isValid());
        QVERIFY(!model.indexForKey(QStringLiteral("job:999")).isValid());
    }

    void stateChangeUpdatesInPlace()
    {
        ResourceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Queued)}));
        QTreeView view;
        view.setModel(&model);
        view.expandAll();
        const QModelIndex jobIndex = model.indexForKey(QStringLiteral("job:100"));
        view.selectionModel()->setCurrentIndex(jobIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QPersistentModelIndex persistent(jobIndex);

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Running)}, NodeState::Running));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QVERIFY(changed.count() >= 2);  // the job and the node
        QVERIFY(persistent.isValid());
        QCOMPARE(QModelIndex(persistent).siblingAtColumn(1).data().toString(), QStringLiteral("running"));
        QCOMPARE(view.currentIndex(), QModelIndex(persistent));
        QVERIFY(view.selectionModel()->isSelected(persistent));
        QVERIFY(view.isExpanded(persistent.parent()));

        // The same snapshot again changes nothing.
        changed.clear();
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Running)}, NodeState::Running));
        QCOMPARE(changed.count(), 0);
    }

    void insertRemoveAndMove()
    {
        ResourceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Running)}));
        const QPersistentModelIndex a(model.indexForKey(QStringLiteral("job:100")));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Running), job(101, QStringLiteral("b"), JobState::Queued)}));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(a.parent()), 2);

        QSignalSpy moved(&model, &QAbstractItemModel::rowsMoved);
        model.setSnapshot(snapshot({job(101, QStringLiteral("b"), JobState::Queued), job(100, QStringLiteral("a"), JobState::Running)}));
        QCOMPARE(moved.count(), 1);
        QVERIFY(a.isValid());
        QCOMPARE(a.row(), 1);
        QCOMPARE(a.data().toString(), QStringLiteral("a"));

        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.setSnapshot(snapshot({job(100, QStringLiteral("a"), JobState::Succeeded)}));
        QCOMPARE(removed.count(), 1);
        QVERIFY(a.isValid());
        QCOMPARE(a.row(), 0);
        QVERIFY(!model.indexForKey(QStringLiteral("job:101")).isValid());

        model.setSnapshot({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!a.isValid());
        QCOMPARE(reset.count(), 0);
    }
};

QTEST_MAIN(TestResourceTreeModel)
#include "tst_resourcetreemodel.moc"

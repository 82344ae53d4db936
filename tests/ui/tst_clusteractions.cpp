// The cluster view's Run setup button on local clusters: it runs the setup task again on
// every node through the cluster worker, streams the steps into the list and ends with
// the result in the status label (the exit code, in red, when the task fails); it is off
// for a cluster without a setup task.
#include "common/ErrorText.h"
#include "TestHome.h"
#include "WidgetLookup.h"

#include "cluster/ClusterActions.h"
#include "cluster/ClusterService.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "store/Store.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestClusterActions : public QObject
{
    Q_OBJECT

    TestHome m_home;
    Store m_store;
    qint64 m_workspaceId = 0;

    QString counterPath() const { return m_home.filePath(QStringLiteral("runs.txt")); }
    int runsCounted() const
    {
        QFile f(counterPath());
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
    }
    bool writeScript(const QByteArray &body) const
    {
        QFile f(m_home.filePath(QStringLiteral("setup.sh")));
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(body) == body.size();
    }

    qint64 createLocal(const QString &name, const QString &setupTask)
    {
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = name;
        r.local = true;
        r.setupTask = setupTask;
        const auto cluster = ClusterService(m_store).create(r);
        if (!cluster)
            qFatal("cannot create cluster %s: %s", qPrintable(name), qPrintable(cluster.error()));
        return cluster->id;
    }

    // What the view gets from the backend's snapshot, read from the Store.
    ResourceSnapshot snapshot() const
    {
        ResourceSnapshot s;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace = *m_store.workspace(QStringLiteral("ws"));
        for (const Cluster &c : m_store.clusters(m_workspaceId))
            ws.clusters.append({c, m_store.nodes(c.id)});
        s.workspaces.append(ws);
        return s;
    }

    Node onlyNode(qint64 clusterId) const { return m_store.nodes(clusterId).value(0); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        const auto ws = m_store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        m_workspaceId = ws->id;
    }

    void runSetupRunsTheTaskOnEveryNode()
    {
        const qint64 clusterId = createLocal(
            QStringLiteral("counted"),
            QStringLiteral("n=$(cat %1 2>/dev/null || echo 0); echo $((n + 1)) > %1").arg(shellQuote(counterPath())));
        QCOMPARE(runsCounted(), 1);
        ClusterActions actions(DataPaths::databasePath());
        QSignalSpy changed(&actions, &ClusterActions::clusterChanged);
        actions.setCluster(clusterId, snapshot());
        auto *setup = childNamed<QPushButton>(&actions, "runSetupButton");
        auto *status = childNamed<QLabel>(&actions, "clusterActionStatus");
        QVERIFY(setup->isEnabled());
        QVERIFY(!setup->toolTip().isEmpty());

        QTest::mouseClick(setup, Qt::LeftButton);
        QVERIFY(!setup->isEnabled());  // one action at a time
        QVERIFY(!childNamed<QPushButton>(&actions, "resizeButton")->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("The setup task succeeded on every node."), 30000);
        QVERIFY(setup->isEnabled());
        QCOMPARE(runsCounted(), 2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toLongLong(), clusterId);
        QCOMPARE(toString(onlyNode(clusterId).state), toString(NodeState::Idle));

        // Each step in the list, in order.
        auto *list = childNamed<QTreeWidget>(&actions, "probeChecks");
        QVERIFY(!list->isHidden());
        QStringList lines;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            lines << list->topLevelItem(i)->text(0);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0), QStringLiteral("node localhost: running the setup task"));
        QVERIFY2(lines.at(1).startsWith(QLatin1String("node localhost: setup task succeeded")), qPrintable(lines.at(1)));
    }

    void failedTaskShowsItsExitCode()
    {
        QVERIFY(writeScript("exit 0\n"));
        const qint64 clusterId = createLocal(QStringLiteral("scripted"),
                                             QStringLiteral("sh ") + shellQuote(m_home.filePath(QStringLiteral("setup.sh"))));
        QVERIFY(writeScript("echo broken >&2\nexit 5\n"));
        ClusterActions actions(DataPaths::databasePath());
        QSignalSpy changed(&actions, &ClusterActions::clusterChanged);
        actions.setCluster(clusterId, snapshot());
        auto *setup = childNamed<QPushButton>(&actions, "runSetupButton");
        auto *status = childNamed<QLabel>(&actions, "clusterActionStatus");
        actions.runSetup();
        QTRY_VERIFY_WITH_TIMEOUT(setup->isEnabled(), 30000);
        QVERIFY2(status->text().startsWith(QLatin1String("node localhost: setup task failed with exit code 5")),
                 qPrintable(status->text()));
        QCOMPARE(status->palette().color(QPalette::WindowText), ErrorText::color(QApplication::palette()));
        QCOMPARE(changed.count(), 1);  // the node changed state
        QCOMPARE(toString(onlyNode(clusterId).state), toString(NodeState::Unusable));

        // Fixed: the next run brings the node back, and the status is plain again.
        QVERIFY(writeScript("exit 0\n"));
        QTest::mouseClick(setup, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(status->text(), QStringLiteral("The setup task succeeded on every node."), 30000);
        QVERIFY(status->palette().color(QPalette::WindowText) != ErrorText::color(QApplication::palette()));
        QCOMPARE(toString(onlyNode(clusterId).state), toString(NodeState::Idle));
    }

    void offWithoutSetupTask()
    {
        const qint64 clusterId = createLocal(QStringLiteral("plain"), QString());
        ClusterActions actions(DataPaths::databasePath());
        actions.setCluster(clusterId, snapshot());
        auto *setup = childNamed<QPushButton>(&actions, "runSetupButton");
        QVERIFY(!setup->isEnabled());
        QVERIFY(childNamed<QPushButton>(&actions, "testConnectionButton")->isEnabled());
        QVERIFY2(setup->toolTip().contains(QLatin1String("no setup task")), qPrintable(setup->toolTip()));
        actions.runSetup();  // does nothing
        QVERIFY(childNamed<QLabel>(&actions, "clusterActionStatus")->text().isEmpty());

        // Another cluster, with a setup task: the button follows the selection.
        actions.setCluster(m_store.cluster(m_workspaceId, QStringLiteral("counted"))->id, snapshot());
        QVERIFY(setup->isEnabled());
        actions.setCluster(clusterId, snapshot());
        QVERIFY(!setup->isEnabled());
    }
};

QTEST_MAIN(TestClusterActions)
#include "tst_clusteractions.moc"

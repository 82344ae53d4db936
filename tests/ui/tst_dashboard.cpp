// What a new user met that was wrong, stale or out of reach of the keyboard (issue 29): a
// queued job says why it waits, Save draft says it saved a draft, the tree cuts names in
// the middle in a column that can be widened, the cluster wizard takes the first keys typed
// in its name field, and a host key's Accept has an Alt key and comes before Stop.
#include "BackendFixture.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "job/JobOverview.h"
#include "job/JobView.h"
#include "job/QueueReason.h"
#include "wizards/JobEditPage.h"
#include "wizards/JobTargetPage.h"
#include "wizards/NewJobWizard.h"
#include "wizards/cluster/ClusterTestPage.h"
#include "wizards/cluster/ClusterWizard.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QByteArray specOnNodes(int nodes)
{
    return QStringLiteral(R"({"properties": {"nodeCount": %1, "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
                          "customMpiSettings": {"commandLine": "hostname"}}})").arg(nodes).toUtf8();
}

// A workspace with an SSH cluster of `nodes` idle nodes and an experiment holding `jobs`.
ResourceSnapshot snapshotWith(int nodes, const QList<Job> &jobs)
{
    ResourceSnapshot snapshot;
    ResourceSnapshot::WorkspaceEntry ws;
    ws.workspace.id = 1;
    ws.workspace.name = QStringLiteral("default");
    ResourceSnapshot::ClusterEntry cluster;
    cluster.cluster.id = 7;
    cluster.cluster.workspaceId = 1;
    cluster.cluster.name = QStringLiteral("gpus");
    cluster.cluster.kind = ClusterKind::Ssh;
    cluster.cluster.targetNodeCount = nodes;
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.id = 100 + i;
        n.clusterId = 7;
        n.index = i;
        n.name = QStringLiteral("n%1").arg(i + 1);
        cluster.nodes << n;
    }
    ws.clusters << cluster;
    ResourceSnapshot::ExperimentEntry exp;
    exp.experiment.id = 3;
    exp.experiment.workspaceId = 1;
    exp.experiment.name = QStringLiteral("demo");
    exp.jobs = jobs;
    ws.experiments << exp;
    snapshot.workspaces << ws;
    return snapshot;
}

Job jobOf(qint64 id, const QString &name, JobState state, int nodes, int secondsAgo)
{
    Job job;
    job.id = id;
    job.experimentId = 3;
    job.clusterId = 7;
    job.name = name;
    job.state = state;
    job.spec = specOnNodes(nodes);
    job.created = QDateTime::currentDateTimeUtc().addSecs(-secondsAgo);
    return job;
}

int focusIndex(QWidget *window, QWidget *widget)
{
    int i = 0;
    for (QWidget *w = window->nextInFocusChain(); w != window; w = w->nextInFocusChain(), ++i) {
        if (w == widget)
            return i;
    }
    return -1;
}

} // namespace

class TestDashboard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void queuedJobSaysWhyItWaits()
    {
        // More nodes than the cluster has.
        Job big = jobOf(1, QStringLiteral("big"), JobState::Queued, 3, 10);
        QString reason = queueReason(snapshotWith(2, {big}), big);
        QVERIFY2(reason.contains(QStringLiteral("needs 3 nodes")) && reason.contains(QStringLiteral("has 2 usable")),
                 qPrintable(reason));
        // An unusable node is named with its reason.
        ResourceSnapshot broken = snapshotWith(2, {big});
        broken.workspaces[0].clusters[0].nodes[1].state = NodeState::Unusable;
        broken.workspaces[0].clusters[0].nodes[1].stateReason = QStringLiteral("failed checks: OpenMPI");
        big.spec = specOnNodes(2);
        reason = queueReason(broken, big);
        QVERIFY2(reason.contains(QStringLiteral("n2 (unusable: failed checks: OpenMPI)")), qPrintable(reason));

        // Its nodes held by a running job, and an older queued job first in line.
        Job running = jobOf(2, QStringLiteral("fashion-mnist-demo"), JobState::Running, 1, 100);
        running.nodes = {QStringLiteral("n1")};
        const Job older = jobOf(3, QStringLiteral("older"), JobState::Queued, 1, 50);
        const Job mine = jobOf(4, QStringLiteral("mine"), JobState::Queued, 1, 5);
        const ResourceSnapshot busy = snapshotWith(1, {running, older, mine});
        reason = queueReason(busy, mine);
        QVERIFY2(reason.contains(QStringLiteral("fashion-mnist-demo (n1)")), qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("1 job is ahead of it")), qPrintable(reason));
        // The older one has nobody ahead.
        QVERIFY(!queueReason(busy, older).contains(QStringLiteral("ahead")));
        // Free nodes and nobody ahead: the scheduler's next look.
        QVERIFY(queueReason(snapshotWith(1, {mine}), mine).contains(QStringLiteral("next look")));
        // Not queued: nothing to say.
        QVERIFY(queueReason(busy, running).isEmpty());

        // Shown on the job's overview, under its state.
        JobView view(m_backend.get());
        view.showJob(mine.id, busy);
        QCOMPARE(view.overview()->waitReason(), queueReason(busy, mine));
        view.showJob(running.id, busy);
        QVERIFY(view.overview()->waitReason().isEmpty());
    }

    void saveDraftSaysDraft()
    {
        MainWindow window(m_backend.get());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        NewJobWizard *wizard = window.openNewJobWizard();
        wizard->next();
        wizard->targetPage()->draftCheck()->setChecked(true);
        wizard->next();
        QVERIFY(wizard->button(QWizard::FinishButton)->isEnabled());
        // The wizard deletes itself once it closes (WA_DeleteOnClose): its signal is watched,
        // never the wizard after the click (reading it freed hung this test when the memory
        // had been reused).
        QSignalSpy saved(wizard, &NewJobWizard::jobSubmitted);
        const QPointer<NewJobWizard> alive(wizard);
        wizard->button(QWizard::FinishButton)->click();
        QVERIFY2(saved.wait(60000) || !saved.isEmpty(),
                 qPrintable(QStringLiteral("no job after 60 s; the wizard %1; the status bar says '%2'")
                                .arg(alive ? QStringLiteral("says '%1'").arg(alive->editPage()->statusText())
                                           : QStringLiteral("is gone"),
                                     window.statusBar()->currentMessage())));
        QVERIFY(saved.first().first().toLongLong() > 0);
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("Draft saved")), qPrintable(message));
        QVERIFY(!message.contains(QStringLiteral("submitted")));
    }

    void treeNamesElidedInTheMiddle()
    {
        MainWindow window(m_backend.get());
        QTreeView *tree = window.treeView();
        QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
        // The line between name and state can be dragged: the name gets what the state leaves.
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(tree->header()->sectionResizeMode(1), QHeaderView::Interactive);
        const int before = tree->header()->sectionSize(0);
        tree->header()->resizeSection(1, tree->header()->sectionSize(1) + 30);
        QTRY_COMPARE(tree->header()->sectionSize(0), before - 30);
    }

    void clusterWizardTakesTheFirstKeys()
    {
        ClusterWizard wizard(DataPaths::databasePath(), {QStringLiteral("default")});
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        QApplication::setActiveWindow(&wizard);
        QTRY_VERIFY(QApplication::focusWidget());
        QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("clusterName"));
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("gpu-nodes"));
        QCOMPARE(wizard.findChild<QLineEdit *>(QStringLiteral("clusterName"))->text(), QStringLiteral("gpu-nodes"));
    }

    void hostKeyAcceptBeforeStop()
    {
        ClusterWizard wizard(DataPaths::databasePath(), {QStringLiteral("default")});
        auto *page = qobject_cast<ClusterTestPage *>(wizard.page(ClusterWizard::TestPage));
        QVERIFY(page);
        page->askHostKey(1, {QStringLiteral("n1"), QStringLiteral("10.0.0.1"), 22, QStringLiteral("ssh-ed25519"),
                             QStringLiteral("SHA256:abc")});
        auto *accept = page->findChild<QPushButton *>(QStringLiteral("acceptHostKey"));
        auto *reject = page->findChild<QPushButton *>(QStringLiteral("rejectHostKey"));
        auto *stop = page->findChild<QPushButton *>(QStringLiteral("cancelTestButton"));
        QVERIFY(accept && reject && stop);
        // Alt keys of their own (Alt+A is "although checks failed" on the same page).
        QVERIFY2(accept->text().contains(QLatin1Char('&')), qPrintable(accept->text()));
        QVERIFY2(reject->text().contains(QLatin1Char('&')), qPrintable(reject->text()));
        QVERIFY(!accept->text().contains(QStringLiteral("&A")));
        // Tab reaches the question's buttons first, then Stop.
        const int a = focusIndex(&wizard, accept), r = focusIndex(&wizard, reject), s = focusIndex(&wizard, stop);
        QVERIFY2(a >= 0 && a < r && r < s, qPrintable(QStringLiteral("accept %1, reject %2, stop %3").arg(a).arg(r).arg(s)));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestDashboard)
#include "tst_dashboard.moc"

// The cluster wizard's Slurm page against a real Slurm (tests/slurm/slurm_fixture.sh:
// munged, slurmctld and two slurmd started for this test): the partitions listed from
// sinfo, the connection test checking the login node and the partition, and Finish
// storing a Slurm cluster with Slurm's nodes. Skipped, saying why, where Slurm cannot run.
#include "TestHome.h"
#include "WidgetLookup.h"

#include "session/ClusterWorker.h"
#include "store/Store.h"
#include "wizards/cluster/ClusterWizard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestSlurmWizard : public QObject
{
    Q_OBJECT

    TestHome m_home;
    QTemporaryDir m_slurm;
    bool m_started = false;

    static QString fixture() { return QStringLiteral(TRAINDESK_SOURCE_DIR "/tests/slurm/slurm_fixture.sh"); }

private Q_SLOTS:
    void initTestCase()
    {
        QProcess start;
        start.start(QStringLiteral("bash"), {QStringLiteral("-c"), QStringLiteral(". \"$0\" && slurm_start \"$1\""),
                                             fixture(), m_slurm.path()});
        QVERIFY(start.waitForFinished(60000));
        if (start.exitCode() == 77)
            QSKIP(qPrintable(QStringLiteral("SKIP: %1").arg(QString::fromLocal8Bit(start.readAllStandardOutput()).trimmed())));
        QVERIFY2(start.exitCode() == 0, start.readAllStandardError().constData());
        m_started = true;
        qputenv("SLURM_CONF", m_slurm.filePath(QStringLiteral("slurm.conf")).toUtf8());
        Store store;
        QVERIFY(store.open(m_home.filePath(QStringLiteral("traindesk.db"))));
        QVERIFY(store.createWorkspace(QStringLiteral("ws")));
    }

    void cleanupTestCase()
    {
        if (!m_started)
            return;
        QProcess stop;
        stop.start(QStringLiteral("bash"), {QStringLiteral("-c"), QStringLiteral(". \"$0\" && slurm_stop \"$1\""),
                                            fixture(), m_slurm.path()});
        stop.waitForFinished(30000);
    }

    void slurmPageListsPartitionsTestsAndCreates()
    {
        const QString db = m_home.filePath(QStringLiteral("traindesk.db"));
        ClusterWizard w(db, {QStringLiteral("ws")});
        w.show();
        QTest::keyClicks(childNamed<QLineEdit>(&w, "clusterName"), QStringLiteral("hpc"));
        childNamed<QRadioButton>(&w, "slurmKind")->setChecked(true);
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::SlurmPage));
        QVERIFY(!w.currentPage()->isComplete());  // no login node yet
        childNamed<QCheckBox>(&w, "slurmLoginIsLocal")->setChecked(true);
        QVERIFY(w.currentPage()->isComplete());

        QTest::mouseClick(childNamed<QPushButton>(&w, "slurmListPartitions"), Qt::LeftButton);
        auto *partition = childNamed<QComboBox>(&w, "slurmPartition");
        QTRY_COMPARE_WITH_TIMEOUT(partition->count(), 1, 30000);
        QCOMPARE(partition->itemText(0), QStringLiteral("debug"));
        QVERIFY(childNamed<QLabel>(&w, "slurmStatus")->text().contains(QStringLiteral("debug")));

        // A login node on this machine needs no credentials: next is the connection test.
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::TestPage));
        auto *checks = childNamed<QTreeWidget>(&w, "checkList");
        QTRY_VERIFY_WITH_TIMEOUT(checks->topLevelItemCount() == 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 30000);
        const QTreeWidgetItem *slurm = checks->topLevelItem(1);
        QVERIFY2(slurm->text(3).contains(QStringLiteral("2 idle")), qPrintable(slurm->text(3)));
        QCOMPARE(slurm->text(0), QStringLiteral("Pass"));

        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::SummaryPage));
        QVERIFY(childNamed<QLabel>(&w, "summaryLabel")->text().contains(QStringLiteral("Slurm")));
        QSignalSpy created(&w, &ClusterWizard::clusterCreated);
        w.next();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 30000);

        Store store;
        QVERIFY(store.open(db));
        const auto cluster = store.cluster(store.workspace(QStringLiteral("ws"))->id, QStringLiteral("hpc"));
        QVERIFY(cluster);
        QCOMPARE(toString(cluster->kind), QStringLiteral("slurm"));
        QCOMPARE(cluster->slurm.partition, QStringLiteral("debug"));
        QCOMPARE(store.nodes(cluster->id).size(), 2);
    }

    void aBadPartitionFailsTheTestWithAHint()
    {
        ClusterWizard w(m_home.filePath(QStringLiteral("traindesk.db")), {QStringLiteral("ws")});
        w.show();
        QTest::keyClicks(childNamed<QLineEdit>(&w, "clusterName"), QStringLiteral("wrong"));
        childNamed<QRadioButton>(&w, "slurmKind")->setChecked(true);
        w.next();
        childNamed<QCheckBox>(&w, "slurmLoginIsLocal")->setChecked(true);
        childNamed<QComboBox>(&w, "slurmPartition")->setEditText(QStringLiteral("nosuch"));
        w.next();
        auto *checks = childNamed<QTreeWidget>(&w, "checkList");
        QTRY_VERIFY_WITH_TIMEOUT(checks->topLevelItemCount() == 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 30000);
        const QTreeWidgetItem *slurm = checks->topLevelItem(1);
        QCOMPARE(slurm->text(0), QStringLiteral("Fail"));
        QVERIFY2(slurm->text(3).contains(QStringLiteral("Pick one of the partitions")), qPrintable(slurm->text(3)));
    }
};

QTEST_MAIN(TestSlurmWizard)
#include "tst_slurmwizard.moc"

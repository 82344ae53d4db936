// File > Open TensorBoard folder... through the Backend (issue #44): a folder's runs become
// runs of an experiment named after it (the snapshot shows them, named by their paths), the
// runs table's summaries come from the import, a watched run's records reach its charts, and
// while Follow is on, what a file grows by arrives as new records only (no point twice). The
// File menu holds the two actions.
#include "BackendFixture.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "../core/TfEventsWriter.h"

#include "runs/NodeFolderDialog.h"
#include "runs/RunsTableModel.h"
#include "session/Backend.h"
#include "store/Store.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace TrainDesk;

namespace {

float lossAt(int step) { return float(1.0 / (step + 1)); }
float accAt(int step) { return float(0.5 + step * 0.01); }

// Steps [from, to) of "loss" (simple_value) and "acc" (a TF2 tensor), appended to `path`.
bool appendSteps(const QString &path, int from, int to)
{
    QByteArray data;
    for (int step = from; step < to; ++step) {
        data += TfEventsWriter::record(TfEventsWriter::event(1700000000.0 + step, step, {TfEventsWriter::simpleValue("loss", lossAt(step))}));
        data += TfEventsWriter::record(TfEventsWriter::event(1700000000.0 + step, step, {TfEventsWriter::tensorValue("acc", accAt(step))}));
    }
    QFile file(path);
    return file.open(QIODevice::Append) && file.write(data) == data.size();
}

} // namespace

class TestTensorBoardFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(startBackend(m_store, m_backend)); }
    void cleanupTestCase() { m_backend.reset(); }

    void openedSummarisedAndFollowed()
    {
        QTemporaryDir logs(QDir::tempPath() + QStringLiteral("/tblogs-XXXXXX"));
        QVERIFY(QDir(logs.path()).mkpath(QStringLiteral("a")) && QDir(logs.path()).mkpath(QStringLiteral("b/c")));
        const QString aFile = logs.filePath(QStringLiteral("a/events.out.tfevents.1700000000.host"));
        QVERIFY(appendSteps(aFile, 0, 10));
        // Its hyperparameters, as PyTorch's add_hparams writes them: the run's settings.
        {
            QFile file(aFile);
            const QByteArray hparams = TfEventsWriter::record(TfEventsWriter::event(1700000100.0, 0, {TfEventsWriter::hparamsValue(
                {{"lr", TfEventsWriter::numberValue(0.001)}, {"optimizer", TfEventsWriter::stringValue("adam")}})}));
            QVERIFY(file.open(QIODevice::Append) && file.write(hparams) == hparams.size());
        }
        QVERIFY(appendSteps(logs.filePath(QStringLiteral("b/c/events.out.tfevents.1700000001.host.v2")), 0, 3));

        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        QSignalSpy read(m_backend.get(), &Backend::tensorBoardFolderRead);
        const int request = m_backend->openTensorBoardFolder(QStringLiteral("default"), logs.path(), true);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(finished.at(0).at(0).toInt(), request);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        const qint64 experimentId = finished.at(0).at(1).toLongLong();
        QVERIFY(experimentId > 0);
        QCOMPARE(read.count(), 1);
        QCOMPARE(read.at(0).at(2).toStringList(), QStringList());

        // The snapshot that answered shows the runs, named by their paths under the folder.
        QHash<QString, qint64> runs;
        for (const auto &ws : m_backend->snapshot().workspaces) {
            for (const auto &e : ws.experiments) {
                if (e.experiment.id != experimentId)
                    continue;
                QCOMPARE(e.experiment.name, QFileInfo(logs.path()).fileName());
                for (const Job &j : e.jobs)
                    runs.insert(j.name, j.id);
            }
        }
        QCOMPARE(QSet<QString>(runs.keyBegin(), runs.keyEnd()), (QSet<QString>{QStringLiteral("a"), QStringLiteral("b/c")}));
        const qint64 a = runs.value(QStringLiteral("a"));
        // The runs table says what `job list` says: imported, run on no cluster, no nodes.
        QCOMPARE(m_backend->snapshot().importedRuns, (QSet<qint64>{a, runs.value(QStringLiteral("b/c"))}));
        Ui::RunsTableModel table;
        table.setSnapshot(m_backend->snapshot());
        for (const auto &ws : m_backend->snapshot().workspaces) {
            if (ws.workspace.name == QLatin1String("default"))
                table.setScope(ws.workspace.id, experimentId);
        }
        QCOMPARE(table.rowCount(), 2);
        const QModelIndex state = table.index(table.rowOf(a), Ui::RunsTableModel::StateColumn);
        QCOMPARE(state.data().toString(), QStringLiteral("imported"));
        QVERIFY2(state.data(Qt::ToolTipRole).toString().contains(QFileInfo(logs.path()).fileName()),
                 qPrintable(state.data(Qt::ToolTipRole).toString()));
        QCOMPARE(table.index(table.rowOf(a), Ui::RunsTableModel::ClusterColumn).data().toString(), QString());
        QCOMPARE(table.index(table.rowOf(a), Ui::RunsTableModel::ShapeColumn).data().toString(), QString());

        // The runs table's last and best values, kept by the import.
        QSignalSpy summaries(m_backend.get(), &Backend::runSummariesRead);
        m_backend->readRunSummaries({a});
        QTRY_COMPARE_WITH_TIMEOUT(summaries.count(), 1, 10000);
        const RunSummary summary = summaries.at(0).at(1).value<RunSummaries>().value(a);
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).last, double(lossAt(9)));
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).best, double(lossAt(9)));
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).last, double(accAt(9)));
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).best, double(accAt(9)));
        // The hyperparameters are setting columns of the runs table.
        QCOMPARE(summary.info.value(QStringLiteral("lr")), QStringLiteral("0.001"));
        table.setSummaries(summaries.at(0).at(1).value<RunSummaries>());
        QStringList settings;
        for (int column = 0; column < table.columnCount(); ++column) {
            const QString header = table.headerData(column, Qt::Horizontal).toString();
            if (header == QLatin1String("lr") || header == QLatin1String("optimizer"))
                settings << header + QLatin1Char('=') + table.index(table.rowOf(a), column).data().toString();
        }
        QCOMPARE(settings, (QStringList{QStringLiteral("lr=0.001"), QStringLiteral("optimizer=adam")}));

        // A watched run's records, read from its file; then, followed, only what it grew by.
        QList<MetricRecord> records;
        connect(m_backend.get(), &Backend::metricsArrived, this,
                [&](qint64 jobId, const QList<MetricRecord> &arrived, bool reset) {
            if (jobId != a)
                return;
            if (reset)
                records.clear();
            records += arrived;
        });
        m_backend->watchJob(a);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), 20, 10000);
        QVERIFY(appendSteps(aFile, 10, 15));
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), 30, 20000);
        QList<qint64> lossSteps;
        for (const MetricRecord &r : std::as_const(records)) {
            QCOMPARE(r.kind, QStringLiteral("scalar"));
            if (r.name == QLatin1String("loss")) {
                QCOMPARE(r.value, double(lossAt(int(r.step))));
                lossSteps << r.step;
            }
        }
        QCOMPARE(lossSteps, (QList<qint64>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
        m_backend->unwatchJob(a);
        m_backend->stopFollowingTensorBoardFolders();
    }

    // File > Open TensorBoard folder on a cluster…: the places are the nodes of the workspace's
    // SSH clusters and its cluster shares (not this machine's, which the other action opens);
    // Open waits for a path a node can take (absolute) or one inside the share.
    void nodeFolderDialogOffersNodesAndShares()
    {
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 1;
        ws.workspace.name = QStringLiteral("lab");
        Cluster local;
        local.id = 1;
        local.name = QStringLiteral("local");
        local.kind = ClusterKind::Local;
        Cluster gpu;
        gpu.id = 2;
        gpu.name = QStringLiteral("gpu");
        gpu.kind = ClusterKind::Ssh;
        Node n1;
        n1.name = QStringLiteral("n1");
        n1.host = QStringLiteral("10.0.0.11");
        Node n2 = n1;
        n2.name = QStringLiteral("n2");
        ws.clusters = {{local, {Node{}}}, {gpu, {n1, n2}}};
        Share nfs;
        nfs.name = QStringLiteral("nfs");
        nfs.kind = ShareKind::ClusterPath;
        nfs.path = QStringLiteral("/srv/nfs");
        nfs.clusterId = 2;
        Share here;
        here.name = QStringLiteral("here");
        here.kind = ShareKind::Local;
        ws.shares = {nfs, here};
        snapshot.workspaces = {ws};
        Ui::NodeFolderDialog dialog(snapshot, QStringLiteral("lab"), nullptr);
        auto *place = dialog.findChild<QComboBox *>(QStringLiteral("placeCombo"));
        auto *folder = dialog.findChild<QLineEdit *>(QStringLiteral("folderEdit"));
        auto *open = dialog.findChild<QPushButton *>(QStringLiteral("openNodeFolderButton"));
        QVERIFY(place && folder && open);
        QStringList items;
        for (int i = 0; i < place->count(); ++i)
            items << place->itemText(i);
        QCOMPARE(items, (QStringList{QStringLiteral("Node n1 of cluster gpu (10.0.0.11)"), QStringLiteral("Node n2 of cluster gpu (10.0.0.11)"),
                                     QStringLiteral("Share nfs (/srv/nfs on cluster gpu)")}));
        QVERIFY(!open->isEnabled());
        place->setCurrentIndex(1);
        folder->setText(QStringLiteral("runs"));
        QVERIFY(!open->isEnabled());  // relative: no node path
        folder->setText(QStringLiteral("/home/me/runs"));
        QVERIFY(open->isEnabled());
        QCOMPARE(dialog.choice().cluster, QStringLiteral("gpu"));
        QCOMPARE(dialog.choice().node, QStringLiteral("n2"));
        QCOMPARE(dialog.choice().share, QString());
        place->setCurrentIndex(2);
        QVERIFY(!open->isEnabled());  // absolute: not inside the share
        folder->setText(QStringLiteral("exp/resnet"));
        QVERIFY(open->isEnabled());
        QCOMPARE(dialog.choice().share, QStringLiteral("nfs"));
        QCOMPARE(dialog.choice().folder, QStringLiteral("exp/resnet"));
    }

    void fileMenuHasTheActions()
    {
        Ui::MainWindow window(m_backend.get());
        auto *open = window.findChild<QAction *>(QStringLiteral("openTensorBoardFolderAction"));
        auto *follow = window.findChild<QAction *>(QStringLiteral("followTensorBoardFoldersAction"));
        auto *onNode = window.findChild<QAction *>(QStringLiteral("openTensorBoardFolderOnNodeAction"));
        QVERIFY(open && follow && onNode);
        QVERIFY(follow->isCheckable() && follow->isChecked());
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestTensorBoardFolder)
#include "tst_tensorboardfolder.moc"

// MainWindow on a fresh data directory with a real Backend: the tree, what selection shows,
// toolbar states, the status bar, selection and expansion kept across updates, the output
// files tab with a download, settings kept. Jobs are fake (FakeJob.h): no trainer needed.
#include "FakeJob.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "cluster/ClusterSummaryModel.h"
#include "cluster/ClusterView.h"
#include "charts/ChartPanel.h"
#include "charts/CompareJobsButton.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "cluster/NodeTableModel.h"
#include "files/OutputFilesView.h"
#include "info/ResourceInfoView.h"
#include "job/JobOverview.h"
#include "job/JobView.h"
#include "session/Backend.h"
#include "tree/ResourceTreeModel.h"
#include "wizards/JobSourcePage.h"
#include "wizards/NewJobWizard.h"
#include "wizards/ShareWizard.h"
#include "wizards/WorkspaceWizard.h"
#include "wizards/cluster/ClusterWizard.h"

#include <QAbstractItemModelTester>
#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QToolBar>
#include <QSignalSpy>
#include <QStyle>
#include <QTest>
#include <QTreeView>

#include <functional>
#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// The Alt+key of a label or button text ("Job na&me" -> 'm'), or a null QChar.
QChar mnemonicOf(const QString &text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('&')) {
            if (text.at(i + 1) != QLatin1Char('&'))
                return text.at(i + 1).toLower();
            ++i;
        }
    }
    return {};
}

// Mnemonics used twice among what the wizard shows now (page and buttons).
QStringList mnemonicClashes(QWizard *wizard)
{
    QHash<QChar, QString> seen;
    QStringList clashes;
    const auto take = [&](const QString &text) {
        const QChar key = mnemonicOf(text);
        if (key.isNull())
            return;
        if (seen.contains(key))
            clashes << seen.value(key) + QStringLiteral(" / ") + text;
        seen.insert(key, text);
    };
    for (QLabel *label : wizard->currentPage()->findChildren<QLabel *>()) {
        if (label->buddy() && label->isVisibleTo(wizard))
            take(label->text());
    }
    for (QAbstractButton *button : wizard->findChildren<QAbstractButton *>()) {
        if (button->isVisibleTo(wizard) && (wizard->currentPage()->isAncestorOf(button) || button->parentWidget() == wizard))
            take(button->text());
    }
    return clashes;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
        m_backend = std::make_unique<Backend>(DataPaths::databasePath(), 100);
    }

    void cleanupTestCase() { m_backend.reset(); }

    void demoJobShownFirst()
    {
        MainWindow window(m_backend.get());
        QAbstractItemModelTester tester(window.treeModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        const QModelIndex demo = window.treeModel()->match(window.treeModel()->index(0, 0), Qt::DisplayRole,
                                                           QString::fromLatin1(EmbeddedDefaults::demoJobName), 1,
                                                           Qt::MatchExactly | Qt::MatchRecursive).value(0);
        QVERIFY(demo.isValid());
        QCOMPARE(demo.siblingAtColumn(1).data().toString(), QStringLiteral("draft"));
        // A new user lands on the demo job, ready to start it.
        QCOMPARE(window.selectedKey(), demo.data(ResourceTreeModel::KeyRole).toString());
        QCOMPARE(window.currentView(), static_cast<QWidget *>(window.jobView()));
        QCOMPARE(window.jobView()->overview()->stateText(), QStringLiteral("draft"));
        QVERIFY(window.startAction()->isEnabled());
        QVERIFY(!window.terminateAction()->isEnabled());
        QVERIFY(!window.downloadAction()->isEnabled());
        QVERIFY(window.treeView()->isExpanded(demo.parent()));
        QCOMPARE(window.jobsStatusText(), QStringLiteral("0 jobs running"));
    }

    void liveUpdatesKeepSelectionAndExpansion()
    {
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        QVERIFY(window.selectByName(QStringLiteral("local")));  // the cluster comes before the share
        const QString clusterKey = window.selectedKey();
        QVERIFY(clusterKey.startsWith(QStringLiteral("cluster:")));
        QCOMPARE(window.currentView(), static_cast<QWidget *>(window.clusterView()));
        QCOMPARE(window.clusterView()->summaryModel()->index(0, ClusterSummaryModel::NameColumn).data().toString(),
                 QStringLiteral("local"));
        QCOMPARE(window.clusterView()->nodeModel()->rowCount(), 1);
        const QModelIndex demoExperiment = window.treeModel()->match(window.treeModel()->index(0, 0), Qt::DisplayRole,
                                                                     QStringLiteral("demo"), 1,
                                                                     Qt::MatchExactly | Qt::MatchRecursive).value(0);
        window.treeView()->collapse(demoExperiment);
        const QPersistentModelIndex clusterIndex(window.treeView()->currentIndex());

        QSignalSpy reset(window.treeModel(), &QAbstractItemModel::modelReset);
        const QString dir = m_home.filePath(QStringLiteral("live"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("live"), dir);
        QVERIFY(id);
        const QString jobKey = ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id);
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->indexForKey(jobKey).isValid(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.jobsStatusText(), QStringLiteral("1 job running"), 10000);
        // The node runs the job now: the node table says so, in place.
        QTRY_COMPARE_WITH_TIMEOUT(window.clusterView()->nodeModel()->index(0, NodeTableModel::StateColumn).data().toString(),
                                  QStringLiteral("running"), 10000);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(window.selectedKey(), clusterKey);
        QCOMPARE(QModelIndex(clusterIndex), window.treeView()->currentIndex());
        QVERIFY(!window.treeView()->isExpanded(demoExperiment));  // the user's collapse holds

        QVERIFY(window.selectKey(jobKey));
        QCOMPARE(window.currentView(), static_cast<QWidget *>(window.jobView()));
        QCOMPARE(window.jobView()->jobId(), id);
        QCOMPARE(window.jobView()->overview()->stateText(), QStringLiteral("running"));
        QVERIFY(!window.startAction()->isEnabled());
        QVERIFY(window.terminateAction()->isEnabled());
        QVERIFY(window.downloadAction()->isEnabled());

        // The job ends: the row changes in place and the selection stays.
        const QPersistentModelIndex jobIndex(window.treeModel()->indexForKey(jobKey));
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
        QTRY_COMPARE_WITH_TIMEOUT(QModelIndex(jobIndex).siblingAtColumn(1).data().toString(), QStringLiteral("succeeded"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.jobView()->overview()->stateText(), QStringLiteral("succeeded"), 10000);
        QCOMPARE(window.selectedKey(), jobKey);
        QCOMPARE(window.jobsStatusText(), QStringLiteral("0 jobs running"));
        QVERIFY(!window.terminateAction()->isEnabled());
        QCOMPARE(reset.count(), 0);
    }

    void comparedJobsOfTheExperiment()
    {
        // Two jobs of the demo experiment with metrics of their own.
        const auto metrics = [](int steps, double scale) {
            QByteArray lines;
            for (int i = 1; i <= steps; ++i)
                lines += QStringLiteral("{\"time\": %1, \"kind\": \"train\", \"epoch\": 1, \"step\": %2, "
                                        "\"global_step\": %2, \"loss\": %3, \"acc\": 0.5}\n")
                             .arg(1000 + i).arg(i).arg(scale / i).toUtf8();
            return lines;
        };
        const QString dirA = m_home.filePath(QStringLiteral("cmp-a"));
        const QString dirB = m_home.filePath(QStringLiteral("cmp-b"));
        const qint64 a = createFakeRunningJob(m_store, QStringLiteral("cmp-a"), dirA);
        const qint64 b = createFakeRunningJob(m_store, QStringLiteral("cmp-b"), dirB);
        QVERIFY(a && b);
        QVERIFY(appendToFile(dirA + QStringLiteral("/stdouterr/metrics.jsonl"), metrics(30, 2.0)));
        QVERIFY(appendToFile(dirB + QStringLiteral("/stdouterr/metrics.jsonl"), metrics(20, 3.0)));

        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, a)), 10000);
        window.jobView()->setCurrentIndex(JobView::ChartsTab);  // a hidden chart is drawn when shown
        MetricsChartView *charts = window.jobView()->charts();
        QTRY_COMPARE_WITH_TIMEOUT(window.jobView()->series()->trainPointCount(), 30, 10000);
        stays([&] { return window.jobView()->series()->trainPointCount(); }, 30);
        // The draft demo job never ran: it has nothing to compare.
        QStringList names;
        for (const auto &[id, name] : charts->compareButton()->candidates())
            names << name;
        QVERIFY2(names.contains(QStringLiteral("cmp-b")), qPrintable(names.join(QLatin1Char(' '))));
        QVERIFY(!names.contains(QStringLiteral("cmp-a")));
        QVERIFY(!names.contains(QString::fromLatin1(EmbeddedDefaults::demoJobName)));

        charts->compareButton()->setChecked(b, true);
        QTRY_COMPARE_WITH_TIMEOUT(charts->lossPanel()->lineCount(QStringLiteral("cmp-b")), 20, 10000);
        stays([&] { return charts->lossPanel()->lineCount(QStringLiteral("cmp-b")); }, 20);
        // Its new lines are drawn as they arrive.
        QVERIFY(appendToFile(dirB + QStringLiteral("/stdouterr/metrics.jsonl"), metrics(25, 3.0).mid(metrics(20, 3.0).size())));
        QTRY_COMPARE_WITH_TIMEOUT(charts->lossPanel()->lineCount(QStringLiteral("cmp-b")), 25, 10000);
        stays([&] { return charts->lossPanel()->lineCount(QStringLiteral("cmp-b")); }, 25);

        // Showing cmp-b itself: it is the job now, no longer an overlay; cmp-a can be one.
        QVERIFY(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, b)));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobView()->series()->trainPointCount(), 25, 10000);
        stays([&] { return window.jobView()->series()->trainPointCount(); }, 25);
        QVERIFY(charts->comparisons().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(charts->lossPanel()->lineCount(QStringLiteral("cmp-b")), -1, 2000);
        QVERIFY(appendToFile(dirA + QStringLiteral("/exit_code"), "0\n"));
        QVERIFY(appendToFile(dirB + QStringLiteral("/exit_code"), "0\n"));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobsStatusText(), QStringLiteral("0 jobs running"), 10000);
    }

    void outputFilesAndDownload()
    {
        const QString dir = m_home.filePath(QStringLiteral("files"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("files"), dir);
        QVERIFY(id);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "hello\n"));
        QByteArray big(3 * 1024 * 1024 + 17, 'x');  // more than one chunk
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/stdouterr/nested")));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/nested/big.bin"), big));

        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id)), 10000);
        window.jobView()->setCurrentIndex(JobView::FilesTab);
        OutputFilesView *files = window.jobView()->files();
        QAbstractItemModelTester tester(files->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(files->model()->rowCount(), 2, 10000);
        QStringList paths;
        for (const JobFile &f : files->model()->files())
            paths << f.directory + QLatin1Char('/') + f.path;
        paths.sort();
        QCOMPARE(paths, (QStringList{QStringLiteral("stdouterr/nested/big.bin"), QStringLiteral("stdouterr/stdout.txt")}));

        QSignalSpy finished(files, &OutputFilesView::downloadsFinished);
        QSignalSpy progress(m_backend.get(), &Backend::downloadProgress);
        const QString dest = m_home.filePath(QStringLiteral("downloads"));
        files->downloadTo(dest);  // nothing selected: all of them, into the job's own folder
        const QString jobFolder = dest + QStringLiteral("/default/demo/files");
        QVERIFY(files->isDownloading());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(finished.at(0).at(0).toInt(), 2);
        QCOMPARE(finished.at(0).at(1).toInt(), 0);
        QVERIFY(progress.count() >= 3);
        QFile copy(jobFolder + QStringLiteral("/stdouterr/nested/big.bin"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), big);
        QVERIFY(QDir(jobFolder + QStringLiteral("/stdouterr/nested")).entryList(QDir::Files | QDir::Hidden)
                == QStringList{QStringLiteral("big.bin")});
        QFile out(jobFolder + QStringLiteral("/stdouterr/stdout.txt"));
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), QByteArray("hello\n"));

        // Only the job's own files can be fetched.
        QSignalSpy done(m_backend.get(), &Backend::downloadFinished);
        const int request = m_backend->downloadJobFile(id, QStringLiteral("/etc/passwd"), dest + QStringLiteral("/passwd"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QCOMPARE(done.at(0).at(0).toInt(), request);
        QVERIFY(done.at(0).at(1).toString().contains(QStringLiteral("not a file of job")));
        QVERIFY(!QFile::exists(dest + QStringLiteral("/passwd")));
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
    }

    void otherResourcesAndSettings()
    {
        QString shareKey;
        {
            MainWindow window(m_backend.get());
            window.show();
            QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
            const QModelIndex shares = window.treeModel()->match(window.treeModel()->index(0, 0), Qt::DisplayRole,
                                                                 QStringLiteral("Shares"), 1,
                                                                 Qt::MatchExactly | Qt::MatchRecursive).value(0);
            QVERIFY(shares.isValid());
            shareKey = window.treeModel()->index(0, 0, shares).data(ResourceTreeModel::KeyRole).toString();
            QVERIFY(window.selectKey(shareKey));
            QCOMPARE(window.currentView(), static_cast<QWidget *>(window.infoView()));
            const QStringList rows = window.infoView()->rows();
            QVERIFY2(rows.contains(QStringLiteral("Kind: local")), qPrintable(rows.join(QLatin1Char('|'))));
            QVERIFY(rows.filter(QStringLiteral("Path: ")).size() == 1);
            QVERIFY(window.selectByName(QStringLiteral("localhost")));
            QVERIFY(window.infoView()->rows().contains(QStringLiteral("Role: head node (rank 0)")));
            QVERIFY(window.selectKey(shareKey));
            window.resize(1111, 777);
            window.close();  // saves geometry and selection
        }
        MainWindow again(m_backend.get());
        again.show();
        QTRY_COMPARE_WITH_TIMEOUT(again.selectedKey(), shareKey, 10000);
        QCOMPARE(again.size(), QSize(1111, 777));
    }

    void toolbarAndMenusForTheKeyboard()
    {
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        auto *toolBar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolBar);
        QStringList names;
        for (QAction *action : toolBar->actions()) {
            if (action->isSeparator())
                continue;
            names << action->objectName();
            QVERIFY2(!action->icon().isNull(), qPrintable(action->objectName()));
            // The shortcut is told in the tooltip, where people see it.
            QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->objectName()));
            QVERIFY2(action->toolTip().contains(action->shortcut().toString(QKeySequence::NativeText)),
                     qPrintable(action->toolTip()));
        }
        QCOMPARE(names, (QStringList{QStringLiteral("newJobAction"), QStringLiteral("cloneJobAction"),
                                     QStringLiteral("startJobAction"), QStringLiteral("terminateJobAction"),
                                     QStringLiteral("downloadAction"), QStringLiteral("newClusterAction"),
                                     QStringLiteral("newShareAction"),
                                     QStringLiteral("uploadAction"), QStringLiteral("refreshAction")}));
        // The app's own SVG icons render.
        QVERIFY(!window.newJobAction()->icon().pixmap(24, 24).toImage().isNull());
        QVERIFY(!window.newJobAction()->icon().availableSizes().isEmpty() || !window.newJobAction()->icon().pixmap(24).isNull());
        // Every menu entry has a mnemonic, every shortcut one meaning.
        QHash<QString, QString> shortcuts;
        for (QAction *menu : window.menuBar()->actions()) {
            QVERIFY(!mnemonicOf(menu->text()).isNull());
            for (QAction *action : menu->menu()->actions()) {
                if (action->isSeparator())
                    continue;
                QVERIFY2(!mnemonicOf(action->text()).isNull(), qPrintable(action->text()));
                const QString keys = action->shortcut().toString();
                if (keys.isEmpty())
                    continue;
                QVERIFY2(!shortcuts.contains(keys) || shortcuts.value(keys) == action->text(), qPrintable(keys));
                shortcuts.insert(keys, action->text());
            }
        }
        QVERIFY(shortcuts.size() >= 14);
    }

    void keyboardOpensTheWizards()
    {
        MainWindow window(m_backend.get());
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        QVERIFY(window.selectByName(QString::fromLatin1(EmbeddedDefaults::demoJobName)));
        QVERIFY(window.cloneJobAction()->isEnabled());

        QTest::keySequence(&window, QKeySequence::New);
        auto *newJob = window.findChild<NewJobWizard *>();
        QVERIFY(newJob);
        QVERIFY(newJob->isVisible());
        QVERIFY(newJob->isModal());
        QCOMPARE(newJob->currentId(), int(NewJobWizard::SourcePageId));
        QStringList clashes;
        for (int page = 0; page < 3; ++page) {
            clashes += mnemonicClashes(newJob);
            newJob->next();
        }
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        newJob->reject();
        QTRY_VERIFY(!window.findChild<NewJobWizard *>());  // deleted on close
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+Shift+W")));
        auto *workspace = window.findChild<WorkspaceWizard *>();
        QVERIFY(workspace);
        QVERIFY(workspace->newWorkspace());
        QVERIFY2(mnemonicClashes(workspace).isEmpty(), qPrintable(mnemonicClashes(workspace).join(QLatin1Char(';'))));
        workspace->reject();
        QTRY_VERIFY(!window.findChild<WorkspaceWizard *>());
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        // New experiment from inside the default workspace: that one is chosen.
        QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+Shift+E")));
        workspace = window.findChild<WorkspaceWizard *>();
        QVERIFY(workspace);
        QVERIFY(!workspace->newWorkspace());
        QCOMPARE(workspace->workspaceName(), QStringLiteral("default"));
        workspace->reject();
        QTRY_VERIFY(!window.findChild<WorkspaceWizard *>());
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+Shift+S")));
        auto *share = window.findChild<ShareWizard *>();
        QVERIFY(share);
        QCOMPARE(share->currentId(), int(ShareWizard::SharePageId));
        QVERIFY2(mnemonicClashes(share).isEmpty(), qPrintable(mnemonicClashes(share).join(QLatin1Char(';'))));
        share->reject();
        QTRY_VERIFY(!window.findChild<ShareWizard *>());
    }

    void cloneAndExportTheSelectedJob()
    {
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        QVERIFY(window.selectByName(QString::fromLatin1(EmbeddedDefaults::demoJobName)));
        const qint64 demoId = window.jobView()->jobId();
        QVERIFY(demoId);

        // Clone from the job's overview: the wizard starts where the job goes.
        auto *clone = window.jobView()->overview()->findChild<QPushButton *>(QStringLiteral("cloneJobButton"));
        QVERIFY(clone);
        QVERIFY(!clone->toolTip().isEmpty());
        clone->click();
        auto *wizard = window.findChild<NewJobWizard *>();
        QVERIFY(wizard);
        QCOMPARE(wizard->currentId(), int(NewJobWizard::TargetPageId));
        QCOMPARE(wizard->sourcePage()->cloneJobId(), demoId);
        wizard->reject();
        QTRY_VERIFY(!window.findChild<NewJobWizard *>());
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        QSignalSpy written(m_backend.get(), &Backend::fileWritten);
        const QString path = m_home.filePath(QStringLiteral("demo-export.json"));
        window.exportSelectedJob(path);
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 10000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), m_backend->snapshot().findJob(demoId)->spec);
    }

    void treeStatesWhole()
    {
        // A finished job's state is read whole in the tree ("suc…ded" before, issue 43).
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const auto exp = m_store.experiment(ws->id, QStringLiteral("demo"));
        Job job;
        job.experimentId = exp->id;
        job.clusterId = m_store.cluster(ws->id, QStringLiteral("local"))->id;
        job.spec = EmbeddedDefaults::demoJobSpec();
        job.name = QStringLiteral("ended-well");
        job.state = JobState::Succeeded;
        QVERIFY(m_store.createJob(job));
        job.name = QStringLiteral("stopped-by-user");
        job.state = JobState::Failed;
        auto stopped = m_store.createJob(job);
        QVERIFY(stopped);
        stopped->errors = {JobError{QStringLiteral("JobTerminated"), QStringLiteral("terminated by the user"), {}}};
        QVERIFY(m_store.updateJob(*stopped));
        MainWindow window(m_backend.get());
        window.resize(1920, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ResourceTreeModel *model = window.treeModel();
        QTRY_VERIFY_WITH_TIMEOUT(!model->match(model->index(0, 0), Qt::DisplayRole, QStringLiteral("stopped-by-user"), 1,
                                               Qt::MatchExactly | Qt::MatchRecursive).isEmpty(), 10000);
        QTreeView *tree = window.treeView();
        const int margins = 2 * (tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, tree) + 1);
        QStringList seen;
        const std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
            if (parent.isValid() && !tree->isExpanded(parent))
                return;  // not shown
            for (int r = 0; r < model->rowCount(parent); ++r) {
                const QString state = model->index(r, ResourceTreeModel::StateColumn, parent).data().toString();
                seen << state;
                QVERIFY2(tree->fontMetrics().horizontalAdvance(state) + margins <= tree->columnWidth(ResourceTreeModel::StateColumn),
                         qPrintable(QStringLiteral("\"%1\" in %2 px").arg(state).arg(tree->columnWidth(ResourceTreeModel::StateColumn))));
                walk(model->index(r, 0, parent));
            }
        };
        walk({});
        QVERIFY2(seen.contains(QStringLiteral("succeeded")) && seen.contains(QStringLiteral("terminated")), qPrintable(seen.join(", ")));
    }

    void newClusterIsSelected()
    {
        // The cluster wizard's Finish: the new cluster selected, as a new workspace or share is
        // (it stayed on what was selected before, issue 43).
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectByName(QString::fromLatin1(EmbeddedDefaults::demoJobName)), 10000);
        window.findChild<QAction *>(QStringLiteral("newClusterAction"))->trigger();
        ClusterWizard *wizard = nullptr;
        QTRY_VERIFY(wizard = window.findChild<ClusterWizard *>());
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const qint64 cluster = m_store.cluster(ws->id, QStringLiteral("local"))->id;
        Q_EMIT wizard->clusterCreated(cluster, QStringLiteral("default"), QStringLiteral("local"));
        QTRY_COMPARE_WITH_TIMEOUT(window.selectedKey(), ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Cluster, cluster), 10000);
        wizard->reject();
    }

private:
    TestHome m_home;
    Store m_store;
    // Twice the Backend's poll period (100 ms) and some: a count that was reached must stay,
    // or records are being delivered twice.
    static void stays(const std::function<int()> &count, int expected)
    {
        QTest::qWait(300);
        QCOMPARE(count(), expected);
    }

    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"

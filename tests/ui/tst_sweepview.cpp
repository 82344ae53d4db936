// The sweep's GUI: the trials' table model (values, metric, sorted as numbers, the best
// marked), the widget-free ParameterTable the plots read (log and word axes, goodness), the
// parallel-coordinates and scatter plots (where each run is drawn, the best on top), the
// sweep in the tree under its experiment with its trials' jobs, its page fed by the real
// worker and agent, and the New sweep wizard's trial count and the sweep it creates.
#include "BackendFixture.h"
#include "FakeJob.h"
#include "Grab.h"
#include "MainWindow.h"
#include "MessageBoxes.h"
#include "TestHome.h"
#include "charts/ChartLines.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"
#include "charts/ParameterTable.h"
#include "jobs/JobSubmission.h"
#include "session/Backend.h"
#include "sweeps/NewSweepWizard.h"
#include "sweeps/SweepStore.h"
#include "sweeps/SweepTrialsModel.h"
#include "sweeps/SweepView.h"
#include "tree/ResourceTreeModel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTreeView>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <cmath>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// Three trials by hand: lr 1e-4 / 1e-2 / 1e-1, optimizer words, a dict parameter; best acc
// 0.4 / 0.9 / 0.2, so trial 2 is the best and sorting by the metric gives 3, 1, 2.
SweepSummary handMadeSummary()
{
    SweepSummary s;
    s.sweep.id = 1;
    s.sweep.name = QStringLiteral("lr");
    s.sweep.metric = QStringLiteral("acc");
    s.sweep.params = {*SweepParams::parseInline(QStringLiteral("LR=0.0001,0.01,0.1")),
                      *SweepParams::parseInline(QStringLiteral("OPT=sgd,adam")),
                      *SweepParams::fromJson(QJsonDocument::fromJson(
                          R"({"type":"DictParam","parameterName":"NET","values":[{"depth":20},{"depth":56}]})").object(),
                          QStringLiteral("p"))};
    const QList<std::tuple<double, QString, int, double>> rows{{1e-4, "sgd", 20, 0.4}, {1e-2, "adam", 56, 0.9}, {1e-1, "sgd", 56, 0.2}};
    int i = 0;
    for (const auto &[lr, opt, depth, acc] : rows) {
        TrialRow r;
        r.index = ++i;
        r.job = QStringLiteral("lr-%1").arg(i);
        r.jobId = 100 + i;
        r.state = QStringLiteral("succeeded");
        r.status = TrialStatus::Submitted;
        r.params = QJsonObject{{"LR", lr}, {"OPT", opt}, {"NET", QJsonObject{{"depth", depth}}}};
        r.best = acc;
        r.last = acc - 0.01;
        r.evaluations = 5;
        s.trials << r;
    }
    s.trials[2].status = TrialStatus::EarlyStopped;
    s.trials[2].state = QStringLiteral("failed");
    s.trials[2].reason = QStringLiteral("median: acc 0.2 ...");
    s.bestIndex = 2;
    return s;
}

QStringList column(const QAbstractItemModel *m, int c)
{
    QStringList texts;
    for (int r = 0; r < m->rowCount(); ++r)
        texts << m->index(r, c).data().toString();
    return texts;
}

QByteArray accRecords(const QList<double> &accs)
{
    QByteArray lines;
    int step = 0;
    for (double acc : accs)
        lines += QStringLiteral("{\"time\": %1, \"kind\": \"train\", \"step\": %2, \"global_step\": %2, \"loss\": %3, "
                                "\"acc\": %4}\n").arg(1000 + ++step).arg(step).arg(1 - acc).arg(acc).toUtf8();
    return lines;
}

} // namespace

class TestSweepView : public QObject
{
    Q_OBJECT

    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        QProcess::execute(qEnvironmentVariable("TRAINDESK_AGENT_PROGRAM"), {QStringLiteral("agent"), QStringLiteral("stop")});
    }

    void trialsModel()
    {
        SweepTrialsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSummary(handMadeSummary());
        // Trial, LR, OPT, NET.depth, State, Best acc, Last, Evaluations, Note.
        QCOMPARE(model.columnCount(), 9);
        QStringList headers;
        for (int c = 0; c < model.columnCount(); ++c)
            headers << model.headerData(c, Qt::Horizontal).toString();
        QCOMPARE(headers, (QStringList{"Trial", "LR", "OPT", "NET.depth", "State", "Best acc", "Last", "Evaluations", "Note"}));
        QCOMPARE(column(&model, 0), (QStringList{"lr-1", "★ lr-2", "lr-3"}));
        QCOMPARE(column(&model, 1), (QStringList{"0.0001", "0.01", "0.1"}));
        QCOMPARE(column(&model, 3), (QStringList{"20", "56", "56"}));
        QCOMPARE(column(&model, 4), (QStringList{"succeeded", "succeeded", "stopped early"}));
        QVERIFY(column(&model, 8)[2].startsWith("stopped early: median: acc"));
        QVERIFY(model.index(1, 0).data(SweepTrialsModel::BestRole).toBool());
        QVERIFY(model.index(1, 2).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model.index(2, 0).data(SweepTrialsModel::JobIdRole).toLongLong(), 103);
        // The plots draw each trial in its run's colour, the one of the runs table and the
        // charts (a red-to-blue scale before, issue 43).
        const ParameterTable plotted = model.parameterTable();
        for (int r = 0; r < 3; ++r)
            QCOMPARE(plotted.rows[r].color, ChartLines::runColor(101 + r));
        // Sorted by the metric as numbers, and by the learning rate (1e-4 is not "1e-04" > "0.1").
        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(SweepTrialsModel::SortRole);
        sorted.sort(model.bestColumn(), Qt::AscendingOrder);
        QCOMPARE(column(&sorted, 0), (QStringList{"lr-3", "lr-1", "★ lr-2"}));
        sorted.sort(1, Qt::DescendingOrder);
        QCOMPARE(column(&sorted, 0), (QStringList{"lr-3", "★ lr-2", "lr-1"}));
        sorted.sort(2, Qt::AscendingOrder);  // words
        QCOMPARE(column(&sorted, 2), (QStringList{"adam", "sgd", "sgd"}));
    }

    void parameterTableAxes()
    {
        SweepTrialsModel model;
        model.setSummary(handMadeSummary());
        const ParameterTable table = model.parameterTable();
        QCOMPARE(table.parameters, (QStringList{"LR", "OPT", "NET.depth"}));
        QCOMPARE(table.rows.size(), 3);
        QCOMPARE(table.bestRow(), 1);
        // LR spans three decades: a log axis, 1e-2 two thirds up.
        const ParameterTable::Axis lr = table.parameterAxis(0);
        QVERIFY(lr.numeric && lr.log);
        QVERIFY(std::abs(*lr.position(0.01) - 2.0 / 3) < 1e-9);
        // Words: in the order they first appear.
        const ParameterTable::Axis opt = table.parameterAxis(1);
        QVERIFY(!opt.numeric);
        QCOMPARE(opt.categories, (QStringList{"sgd", "adam"}));
        QCOMPARE(*opt.position(QStringLiteral("adam")), 1.0);
        QVERIFY(!opt.position(QStringLiteral("rmsprop")));
        // 20..56 is not two decades: linear.
        QVERIFY(!table.parameterAxis(2).log);
        // Goodness: 0.9 the best (1), 0.2 the worst (0), 0.4 two sevenths.
        QCOMPARE(*table.goodness(1), 1.0);
        QCOMPARE(*table.goodness(2), 0.0);
        QVERIFY(std::abs(*table.goodness(0) - 2.0 / 7) < 1e-9);
        ParameterTable loss = table;
        loss.maximize = false;
        QCOMPARE(loss.bestRow(), 1);  // highlighted wins
        loss.rows[1].highlighted = false;
        QCOMPARE(loss.bestRow(), 2);
    }

    void plotsDrawEachRunWhereItsValuesAre()
    {
        SweepTrialsModel model;
        model.setSummary(handMadeSummary());
        ParallelCoordinatesPlot parallel;
        parallel.resize(600, 300);
        parallel.setTable(model.parameterTable());
        // The best run (acc 0.9, the highest) meets the metric axis (the 4th) at its top,
        // the worst at its bottom; lr 1e-4 is at the LR axis' bottom.
        const QPointF best = *parallel.pointOf(1, 3);
        const QPointF worst = *parallel.pointOf(2, 3);
        QVERIFY(best.y() < worst.y());
        QCOMPARE(parallel.pointOf(0, 0)->y(), worst.y());
        QVERIFY(parallel.pointOf(0, 0)->x() < best.x());
        QVERIFY(!parallel.pointOf(5, 0));
        // Drawn: the best run's line in its run's colour (on top) where it crosses its axis.
        // (Between two axes: on an axis its line lies under the axis.)
        const QImage image = parallel.grab().toImage();
        const QPointF between = (*parallel.pointOf(1, 2) + best) / 2;
        const QColor at = image.pixelColor(between.toPoint());
        QCOMPARE(at.name(), ChartLines::runColor(102).name());
        ParameterScatterPlot scatter;
        scatter.resize(400, 300);
        scatter.setTable(model.parameterTable());
        scatter.setParameter(0);
        // x: log(lr) in order; y: the metric.
        QVERIFY(scatter.pointOf(0)->x() < scatter.pointOf(1)->x());
        QVERIFY(scatter.pointOf(1)->x() < scatter.pointOf(2)->x());
        QVERIFY(scatter.pointOf(1)->y() < scatter.pointOf(0)->y());
        QCOMPARE(scatter.grab().toImage().pixelColor(scatter.pointOf(1)->toPoint()).name(), ChartLines::runColor(102).name());
        scatter.setParameter(1);  // words along x
        QCOMPARE(scatter.pointOf(0)->x(), scatter.pointOf(2)->x());  // both sgd
    }

    void sweepPageAndTreeFromTheWorker()
    {
        // A sweep of three trials whose jobs are fake running jobs with metric files.
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const auto exp = m_store.experiment(ws->id, QStringLiteral("demo"));
        const auto cluster = m_store.cluster(ws->id, QStringLiteral("local"));
        SweepStore sweeps(m_store);
        Sweep s;
        s.experimentId = exp->id;
        s.clusterId = cluster->id;
        s.name = QStringLiteral("page");
        s.spec = "{}";
        s.params = {*SweepParams::parseInline(QStringLiteral("LR=0.0001,0.001,0.01"))};
        s.maxConcurrent = 3;
        s.metric = QStringLiteral("acc");
        const auto made = sweeps.create(s, {QJsonObject{{"LR", 0.0001}}, QJsonObject{{"LR", 0.001}}, QJsonObject{{"LR", 0.01}}});
        QVERIFY2(made, qPrintable(made.error()));
        const QList<QList<double>> accs{{0.1, 0.2, 0.3}, {0.2, 0.5, 0.8}, {0.1, 0.1, 0.1}};
        QList<qint64> jobIds;
        for (int i = 1; i <= 3; ++i) {
            const QString dir = m_home.filePath(QStringLiteral("page-%1").arg(i));
            const qint64 id = createFakeRunningJob(m_store, made->trialJobName(i), dir);
            QVERIFY(id);
            QVERIFY(*sweeps.setTrialJob(made->id, i, id));
            QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/metrics.jsonl"), accRecords(accs[i - 1])));
            jobIds << id;
        }
        m_backend->pollNow();
        // The agent stores the records; the worker's snapshot carries the sweep with them.
        QVERIFY(QTest::qWaitFor([&] {
            const SweepSummary *sw = m_backend->snapshot().findSweep(made->id);
            return sw && sw->bestIndex == 2 && sw->trials[0].evaluations == 3 && sw->trials[2].evaluations == 3;
        }, 20000));

        MainWindow window(m_backend.get());
        window.resize(1400, 900);
        window.show();
        ResourceTreeModel *tree = window.treeModel();
        QVERIFY(QTest::qWaitFor([&] { return tree->indexForKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Sweep, made->id)).isValid(); }, 5000));
        // The sweep under its experiment, its trials' jobs under it.
        const QModelIndex sweepIndex = tree->indexForKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Sweep, made->id));
        QCOMPARE(sweepIndex.parent().data(ResourceTreeModel::KeyRole).toString(),
                 ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Experiment, exp->id));
        QCOMPARE(tree->rowCount(sweepIndex), 3);
        QCOMPARE(tree->indexForKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, jobIds[1])).parent(), sweepIndex);

        window.treeView()->setCurrentIndex(sweepIndex);
        SweepView *view = window.sweepView();
        QCOMPARE(window.currentView(), static_cast<QWidget *>(view));
        QCOMPARE(view->sweepId(), made->id);
        QCOMPARE(view->model()->rowCount(), 3);
        QCOMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("★ page-2"));
        QCOMPARE(view->model()->index(1, view->model()->bestColumn()).data().toString(), QStringLiteral("0.8"));
        QVERIFY(view->headerText().contains(QStringLiteral("best page-2: 0.8")));
        QVERIFY(view->downloadButton()->isEnabled());
        QVERIFY(view->stopButton()->isEnabled());
        QCOMPARE(view->parallelPlot()->table().rows.size(), 3);
        QCOMPARE(view->scatterParameter()->count(), 1);
        // Click the best-metric header: sorted by it, best first when descending.
        view->table()->sortByColumn(view->model()->bestColumn(), Qt::DescendingOrder);
        QCOMPARE(view->table()->model()->index(0, 0).data().toString(), QStringLiteral("★ page-2"));
        saveGrab(view, QStringLiteral("sweep-view"));
        // Double-click a trial: its job's page.
        const QModelIndex third = view->table()->model()->index(2, 0);
        const qint64 thirdJob = third.data(SweepTrialsModel::JobIdRole).toLongLong();
        QVERIFY(thirdJob);
        Q_EMIT view->table()->doubleClicked(third);
        QCOMPARE(window.selectedKey(), ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, thirdJob));
        window.treeView()->setCurrentIndex(sweepIndex);
        QCOMPARE(window.currentView(), static_cast<QWidget *>(view));
        view->tabs()->setCurrentIndex(1);
        saveGrab(view, QStringLiteral("sweep-scatter"));
        // Charts: the best drawn in full, the two others overlaid.
        view->tabs()->setCurrentIndex(2);
        QVERIFY(QTest::qWaitFor([&] { return view->charts()->comparisons().size() == 2; }, 5000));
        QVERIFY(QTest::qWaitFor([&] { return view->series()->records().size() == 3; }, 5000));
        view->charts()->redrawNow();
        saveGrab(view, QStringLiteral("sweep-charts"));
        view->tabs()->setCurrentIndex(0);

        // The best trial's model in one step: every file of its output directories.
        const auto plan = JobSubmission(m_store).planOf(*m_store.jobById(jobIds[1]));
        QVERIFY2(plan, qPrintable(plan.error()));
        QString modelDir;
        for (const auto &[id, path] : plan->outputDirectories)
            modelDir = id == QLatin1String("MODEL") ? path : modelDir;
        QVERIFY(!modelDir.isEmpty());
        QVERIFY(QDir().mkpath(modelDir + QStringLiteral("/saved_models")));
        QVERIFY(appendToFile(modelDir + QStringLiteral("/saved_models/model.h5"), "weights of page-2"));
        QSignalSpy downloaded(view, &SweepView::downloadFinished);
        view->downloadBestTo(m_home.filePath(QStringLiteral("downloads")));
        QVERIFY(downloaded.wait(15000));
        QCOMPARE(downloaded.first().at(2).toString(), QString());
        QCOMPARE(downloaded.first().at(1).toInt(), 1);
        QFile model(downloaded.first().at(0).toString() + QStringLiteral("/MODEL/saved_models/model.h5"));
        QVERIFY2(model.open(QIODevice::ReadOnly), qPrintable(model.fileName()));
        QCOMPARE(model.readAll(), QByteArray("weights of page-2"));
        QVERIFY(model.fileName().contains(QStringLiteral("page-2")));

        // The trials end: the sweep completes (the agent's scheduler), Stop goes off.
        for (int i = 1; i <= 3; ++i)
            QVERIFY(appendToFile(m_home.filePath(QStringLiteral("page-%1/exit_code").arg(i)), "0\n"));
        m_backend->pollNow();
        QVERIFY(QTest::qWaitFor([&] {
            const SweepSummary *sw = m_backend->snapshot().findSweep(made->id);
            return sw && sw->sweep.state == SweepState::Completed;
        }, 30000));
        QVERIFY(QTest::qWaitFor([&] { return !view->stopButton()->isEnabled(); }, 5000));
    }

    void newSweepWizardShowsTheTrialCountAndCreates()
    {
        // A job whose command line has the values to vary.
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const auto exp = m_store.experiment(ws->id, QStringLiteral("demo"));
        const auto cluster = m_store.cluster(ws->id, QStringLiteral("local"));
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = QStringLiteral("base");
        job.state = JobState::Draft;
        job.uuid = QStringLiteral("00000000-0000-0000-0000-0000000000bb");
        job.spec = R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
            "customToolkitSettings": {"commandLine": "echo --lr 0.001 --batch-size 32"}}})";
        const auto created = m_store.createJob(job);
        QVERIFY2(created, qPrintable(created.error()));
        m_backend->pollNow();
        QVERIFY(QTest::qWaitFor([&] { return m_backend->snapshot().findJob(created->id) != nullptr; }, 5000));

        NewSweepWizard wizard(m_backend.get());
        wizard.resize(900, 620);
        wizard.presetJob(created->id);
        QCOMPARE(wizard.nameEdit()->text(), QStringLiteral("base-sweep"));
        QSignalSpy previewed(&wizard, &NewSweepWizard::previewed);
        wizard.addParameter(QStringLiteral("properties.customToolkitSettings.commandLine"), QStringLiteral("0.001"),
                            QStringLiteral("LR"), QStringLiteral("0.1,0.01,0.001"));
        wizard.addParameter(QStringLiteral("properties.customToolkitSettings.commandLine"), QStringLiteral("32"),
                            QStringLiteral("BS"), QStringLiteral("16,32"));
        wizard.show();
        QVERIFY(QTest::qWaitFor([&] { return wizard.previewedTrials() == 6; }, 5000));
        saveGrab(&wizard, QStringLiteral("new-sweep-fields"));
        // Grid: 3 x 2, before anything is submitted.
        QVERIFY(QTest::qWaitFor([&] { return wizard.previewedTrials() == 6; }, 5000));
        QVERIFY2(wizard.trialCountText().startsWith(QStringLiteral("6 trial")), qPrintable(wizard.trialCountText()));
        // Random with 5 trials: 5; a range for a grid: the reason instead of a count.
        wizard.samplingBox()->setCurrentIndex(1);
        wizard.trialsBox()->setValue(5);
        QVERIFY(QTest::qWaitFor([&] { return wizard.previewedTrials() == 5; }, 5000));
        wizard.parameterTable()->item(0, 3)->setText(QStringLiteral("loguniform(1e-4,1e-1)"));
        QVERIFY(QTest::qWaitFor([&] { return wizard.trialCountText().startsWith(QStringLiteral("5 trial")); }, 5000));
        wizard.samplingBox()->setCurrentIndex(0);
        QVERIFY(QTest::qWaitFor([&] { return wizard.trialCountText().contains(QStringLiteral("has no grid")); }, 5000));
        QCOMPARE(wizard.previewedTrials(), 0);
        wizard.samplingBox()->setCurrentIndex(1);
        wizard.limitBox()->setValue(1);
        wizard.metricEdit()->setText(QStringLiteral("acc"));
        wizard.earlyStopBox()->setCurrentText(QStringLiteral("median:after=3"));
        QVERIFY(QTest::qWaitFor([&] { return wizard.previewedTrials() == 5; }, 5000));
        wizard.next();
        saveGrab(&wizard, QStringLiteral("new-sweep"));
        QSignalSpy createdSpy(&wizard, &NewSweepWizard::sweepCreated);
        wizard.accept();
        QVERIFY(createdSpy.wait(10000));
        const auto sweep = SweepStore(m_store).sweepById(createdSpy.first().first().toLongLong());
        QVERIFY2(sweep, qPrintable(sweep.error()));
        QCOMPARE(sweep->name, QStringLiteral("base-sweep"));
        QCOMPARE(sweep->trialCount, 5);
        QCOMPARE(sweep->earlyStop, QStringLiteral("median:after=3"));
        QVERIFY2(sweep->spec.contains("echo --lr PARAM_LR --batch-size PARAM_BS"), sweep->spec.constData());
        QVERIFY(SweepStore(m_store).requestStop(sweep->id));  // nothing of it needs to run here
    }

    void escapeAsksBeforeDiscardingTheSweep()
    {
        // Esc on page 2 threw the sweep away without a word (issue 43): it asks now.
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const auto base = m_store.job(m_store.experiment(ws->id, QStringLiteral("demo"))->id, QStringLiteral("base"));
        QVERIFY2(base, "made by newSweepWizardShowsTheTrialCountAndCreates");
        NewSweepWizard wizard(m_backend.get());
        wizard.presetJob(base->id);
        wizard.nameEdit()->setText(QStringLiteral("discarded-sweep"));
        wizard.addParameter(QStringLiteral("properties.customToolkitSettings.commandLine"), QStringLiteral("0.001"),
                            QStringLiteral("LR"), QStringLiteral("0.1,0.01"));
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        QVERIFY(QTest::qWaitFor([&] { return wizard.previewedTrials() == 2; }, 5000));
        wizard.next();
        QCOMPARE(wizard.currentId(), 1);
        QTest::keyClick(&wizard, Qt::Key_Escape);
        QVERIFY(wizard.isVisible());
        QVERIFY(wizard.pendingQuestion());
        answerQuestion(wizard.pendingQuestion(), QStringLiteral("Keep editing"));
        QVERIFY(wizard.isVisible());
        QCOMPARE(wizard.currentId(), 1);
        QTRY_VERIFY(!wizard.pendingQuestion());
        QTest::keyClick(&wizard, Qt::Key_Escape);
        answerQuestion(wizard.pendingQuestion(), QStringLiteral("Discard"));
        QTRY_VERIFY(!wizard.isVisible());
        QCOMPARE(wizard.result(), int(QDialog::Rejected));
    }
    void metricIsAChooserOfTheJobsMetrics()
    {
        // The metric was free text (issue #43): a chooser of what the job reported now,
        // still editable.
        const auto ws = m_store.workspace(QStringLiteral("default"));
        const auto exp = m_store.experiment(ws->id, QStringLiteral("demo"));
        const auto base = m_store.job(exp->id, QStringLiteral("base"));
        QVERIFY2(base, "made by newSweepWizardShowsTheTrialCountAndCreates");
        const auto trial = m_store.job(exp->id, QStringLiteral("page-1"));
        QVERIFY2(trial, "made by sweepPageAndTreeFromTheWorker");
        const auto items = [](const QComboBox *box) {
            QStringList texts;
            for (int i = 0; i < box->count(); ++i)
                texts << box->itemText(i);
            return texts;
        };
        NewSweepWizard wizard(m_backend.get());
        QComboBox *metric = wizard.metricBox();
        QVERIFY(metric->isEditable());
        // A job without records yet: the bundled trainer's metrics, validation first.
        wizard.presetJob(base->id);
        const QStringList trainers{QStringLiteral("val_acc"), QStringLiteral("val_loss"), QStringLiteral("acc"),
                                   QStringLiteral("loss")};
        QCOMPARE(items(metric), trainers);
        QCOMPARE(metric->currentText(), QStringLiteral("val_acc"));
        QCOMPARE(wizard.goalBox()->currentData().toString(), QStringLiteral("max"));
        // A loss is better low: the goal follows the metric chosen.
        metric->setCurrentIndex(metric->findText(QStringLiteral("val_loss")));
        QCOMPARE(wizard.goalBox()->currentData().toString(), QStringLiteral("min"));

        // A job that reported loss and acc: those.
        wizard.presetJob(trial->id);
        QTRY_VERIFY_WITH_TIMEOUT(!items(metric).contains(QStringLiteral("val_acc")), 10000);
        QVERIFY2(items(metric).contains(QStringLiteral("acc")) && items(metric).contains(QStringLiteral("loss")),
                 qPrintable(items(metric).join(QLatin1Char(' '))));
        QCOMPARE(metric->currentText(), QStringLiteral("val_loss"));  // what was chosen stays
        // Any other name can be typed; the request carries it.
        wizard.metricEdit()->setText(QStringLiteral("my_metric"));
        QCOMPARE(metric->currentText(), QStringLiteral("my_metric"));
    }
};

QTEST_MAIN(TestSweepView)
#include "tst_sweepview.moc"

// The runs table: the experiment's jobs with settings from the trainer's info record or the
// command line, last and best metrics from the records the agent stored, sorted by a
// metric, filtered, exported as CSV, and the chosen rows' charts overlaid. Jobs are fake
// (FakeJob.h): their metrics.jsonl is written by the test and read by the real agent.
#include "BackendFixture.h"
#include "FakeJob.h"
#include "Grab.h"
#include "MainWindow.h"
#include "TestHome.h"
#include "charts/ChartPanel.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "info/ResourceInfoView.h"
#include "jobspec/RunParameters.h"
#include "metrics/RunSummary.h"
#include "charts/ChartLines.h"
#include "charts/RunColors.h"
#include "runs/RunsFilterModel.h"
#include "runs/RunsGroupModel.h"
#include "runs/RunsParameterTable.h"
#include "runs/RunsPlotTabs.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"
#include "runs/RunsTableModel.h"
#include "runs/RunsView.h"
#include "sweeps/TrialModelDownload.h"
#include "runs/ColumnChooser.h"
#include "session/Backend.h"
#include "store/RunNotes.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QLineSeries>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QMenu>
#include <QTimer>
#include <QFile>
#include <QHeaderView>
#include <QIcon>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QSet>
#include <QCheckBox>
#include <QToolButton>
#include <QListWidget>
#include <QStyledItemDelegate>
#include <QTest>

#include <cmath>
#include <functional>
#include <algorithm>
#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QByteArray specWith(const QString &commandLine, int nodes, int processes)
{
    const QJsonObject mpi{{"processCount", processes}, {"commandLine", commandLine}};
    const QJsonObject properties{{"nodeCount", nodes}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"},
                                 {"customMpiSettings", mpi}};
    return QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
}

// `steps` train records with falling loss, then one val record per "epoch" of 10 steps whose
// val_acc rises to `finalAcc`; the best val_acc is `peakAcc`, reached one epoch before the end.
QByteArray metrics(int steps, double finalAcc, double peakAcc)
{
    QByteArray lines;
    for (int i = 1; i <= steps; ++i) {
        lines += QStringLiteral("{\"time\": %1, \"kind\": \"train\", \"epoch\": %2, \"step\": %3, "
                                "\"global_step\": %3, \"loss\": %4, \"acc\": 0.5, \"lr\": 0.001}\n")
                     .arg(1000 + i).arg(1 + (i - 1) / 10).arg(i).arg(2.0 / i).toUtf8();
        if (i % 10 == 0) {
            const double acc = i == steps ? finalAcc : i == steps - 10 ? peakAcc : 0.1;
            lines += QStringLiteral("{\"time\": %1, \"kind\": \"val\", \"epoch\": %2, \"global_step\": %3, "
                                    "\"val_loss\": %4, \"val_acc\": %5}\n")
                         .arg(1000 + i).arg(i / 10).arg(i).arg(3.0 / i).arg(acc).toUtf8();
        }
    }
    return lines;
}

// The colours of the lines named `name` in a chart panel (any of them when `name` is empty).
QList<QColor> lineColors(const ChartPanel *panel, const QString &name = {})
{
    QList<QColor> colors;
    for (QAbstractSeries *series : panel->chart()->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(series); line && (name.isEmpty() || line->name() == name))
            colors << line->pen().color();
    }
    return colors;
}

QStringList columnTexts(const QAbstractItemModel *model, int column)
{
    QStringList texts;
    for (int r = 0; r < model->rowCount(); ++r)
        texts << model->index(r, column).data().toString();
    return texts;
}

} // namespace

class TestRunsTable : public QObject
{
    Q_OBJECT

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

    void commandLineParameters()
    {
        const auto p = RunParameters::fromCommandLine(
            QStringLiteral("traindesk-trainer --epochs 5 --lr=0.01 --augment --data $AZ_BATCHAI_JOB_MOUNT_ROOT/x "
                           "--dir /tmp/out --batch-size 64 --name 'a b' --note \"say \\\"hi\\\"\" --verbose"));
        QCOMPARE(p.value(QStringLiteral("epochs")), QStringLiteral("5"));
        QCOMPARE(p.value(QStringLiteral("lr")), QStringLiteral("0.01"));
        QCOMPARE(p.value(QStringLiteral("augment")), QStringLiteral("true"));
        QCOMPARE(p.value(QStringLiteral("batch-size")), QStringLiteral("64"));
        QCOMPARE(p.value(QStringLiteral("name")), QStringLiteral("a b"));
        QCOMPARE(p.value(QStringLiteral("note")), QStringLiteral("say \"hi\""));
        QCOMPARE(p.value(QStringLiteral("verbose")), QStringLiteral("true"));
        QVERIFY(!p.contains(QStringLiteral("data")));  // paths and variables are not settings
        QVERIFY(!p.contains(QStringLiteral("dir")));
        QCOMPARE(p.size(), 7);
        const auto shape = RunParameters::shapeOf(specWith(QStringLiteral("x"), 2, 8));
        QCOMPARE(shape.nodes, 2);
        QCOMPARE(shape.processes, 8);
    }

    void summaryOfRecords()
    {
        RunSummary summary;
        for (const QByteArray &line : metrics(30, 0.7, 0.9).split('\n'))
            summary.add(line);
        summary.add(R"({"time": 1, "kind": "rank", "rank": 1, "loss": 0.0001})");  // one rank's: not the job's
        summary.add(R"({"time": 1, "kind": "info", "epochs": 3, "device": "cpu", "augment": true})");
        summary.add("not json");
        // As the records wrote them (six digits).
        const double lastLoss = QString::number(2.0 / 30).toDouble();
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).last, lastLoss);
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).best, lastLoss);
        QCOMPARE(summary.metrics.value(QStringLiteral("val_acc")).last, 0.7);
        QCOMPARE(summary.metrics.value(QStringLiteral("val_acc")).best, 0.9);
        QCOMPARE(summary.metrics.value(QStringLiteral("val_loss")).best, QString::number(3.0 / 30).toDouble());
        QVERIFY(!summary.metrics.contains(QStringLiteral("lr")));  // a schedule, not a result
        QVERIFY(!summary.metrics.contains(QStringLiteral("global_step")));
        QCOMPARE(summary.info.value(QStringLiteral("epochs")), QStringLiteral("3"));
        QCOMPARE(summary.info.value(QStringLiteral("augment")), QStringLiteral("true"));
    }

    void scalarSeriesOfUsersScripts()
    {
        // A script's own series (records of kind "scalar": TensorBoard tags, printed names)
        // get last and best columns by their name; a name the trainer's records carry stays theirs.
        RunSummary summary;
        summary.add(R"({"time": 1, "kind": "train", "epoch": 1, "step": 1, "loss": 0.5, "acc": 0.6})");
        summary.add(R"({"time": 2, "kind": "scalar", "name": "train/loss", "value": 0.9, "step": 1, "file": "logs/events.out.tfevents.1"})");
        summary.add(R"({"time": 3, "kind": "scalar", "name": "train/loss", "value": 0.4, "step": 2, "file": "logs/events.out.tfevents.1"})");
        summary.add(R"({"time": 4, "kind": "scalar", "name": "train/loss", "value": 0.6, "step": 3, "file": "logs/events.out.tfevents.1"})");
        summary.add(R"({"time": 5, "kind": "scalar", "name": "Acc@1", "value": 41.5, "step": 10, "rank": 0})");
        summary.add(R"({"time": 6, "kind": "scalar", "name": "Acc@1", "value": 38.0, "step": 20, "rank": 0})");
        summary.add(R"({"time": 7, "kind": "scalar", "name": "acc", "value": 0.99, "step": 5})");
        summary.add(R"({"time": 8, "kind": "scalar", "name": "bad", "value": "nan", "step": 5})");
        QCOMPARE(summary.metrics.value(QStringLiteral("train/loss")).last, 0.6);
        QCOMPARE(summary.metrics.value(QStringLiteral("train/loss")).best, 0.4);
        QCOMPARE(summary.metrics.value(QStringLiteral("Acc@1")).last, 38.0);
        QCOMPARE(summary.metrics.value(QStringLiteral("Acc@1")).best, 41.5);
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).last, 0.6);
        QVERIFY(!summary.metrics.contains(QStringLiteral("bad")));
    }

    void lastIsWhatTheChartShows()
    {
        // The trainer's records of one epoch: train records (acc of the last batches), the
        // epoch record (acc: the epoch's mean) and done. The table's "acc (last)" was the
        // epoch mean (0.661) while the chart and its header showed the last batch (0.739).
        const QList<QByteArray> lines{
            R"({"time": 1, "kind": "train", "epoch": 1, "step": 10, "global_step": 10, "loss": 0.9, "acc": 0.52})",
            R"({"time": 2, "kind": "train", "epoch": 1, "step": 20, "global_step": 20, "loss": 0.6, "acc": 0.739})",
            R"({"time": 3, "kind": "val", "epoch": 1, "global_step": 20, "val_loss": 0.7, "val_acc": 0.7})",
            R"({"time": 3, "kind": "epoch", "epoch": 1, "global_step": 20, "loss": 0.75, "acc": 0.661, "val_loss": 0.7, "val_acc": 0.7, "images_per_sec": 900})",
            R"({"time": 4, "kind": "done", "global_step": 20, "val_loss": 0.7, "val_acc": 0.7, "images_per_sec": 800})"};
        RunSummary summary;
        MetricSeries series;
        QList<MetricRecord> records;
        for (const QByteArray &line : lines) {
            summary.add(line);
            records << *MetricRecord::fromJson(line);
        }
        series.append(records);
        using Metric = MetricSeries::Metric;
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).last, series.points(Metric::TrainAcc).last().y());
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).last, 0.739);
        QCOMPARE(summary.metrics.value(QStringLiteral("acc")).best, 0.739);
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).last, series.points(Metric::TrainLoss).last().y());
        QCOMPARE(summary.metrics.value(QStringLiteral("loss")).best, 0.6);
        QCOMPARE(summary.metrics.value(QStringLiteral("val_acc")).last, series.points(Metric::ValAcc).last().y());
        // What no train or val record carries still comes from the epoch and done records.
        QCOMPARE(summary.metrics.value(QStringLiteral("images_per_sec")).last, 800.0);
        QCOMPARE(summary.metrics.value(QStringLiteral("images_per_sec")).best, 900.0);

        // The chart's header says the same number.
        MetricsChartView view(&series);
        view.redrawNow();
        const auto *header = view.findChild<QLabel *>(QStringLiteral("chartSummary"));
        QVERIFY(header);
        QVERIFY2(header->text().contains(QStringLiteral("acc 0.7390")), qPrintable(header->text()));
    }

    void groupsColumnsAndTheJobInView()
    {
        // Three runs of one experiment: two at lr 0.1, one at lr 0.01.
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 1;
        ResourceSnapshot::ExperimentEntry exp;
        exp.experiment.id = 3;
        exp.experiment.name = QStringLiteral("demo");
        const QList<std::tuple<qint64, QString, QString, double>> runs{
            {11, QStringLiteral("a"), QStringLiteral("--lr 0.1"), 0.8}, {12, QStringLiteral("b"), QStringLiteral("--lr 0.1"), 0.9},
            {13, QStringLiteral("c"), QStringLiteral("--lr 0.01"), 0.5}};
        RunSummaries summaries;
        for (const auto &[id, name, args, acc] : runs) {
            Job job;
            job.id = id;
            job.experimentId = 3;
            job.name = name;
            job.state = JobState::Succeeded;
            job.spec = specWith(QStringLiteral("traindesk-trainer ") + args, 1, 1);
            exp.jobs << job;
            summaries[id].add(QStringLiteral(R"({"time": 1, "kind": "val", "val_loss": 0.5, "val_acc": %1})").arg(acc).toUtf8());
        }
        ws.experiments << exp;
        snapshot.workspaces << ws;
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshot);
        model.setSummaries(summaries);
        RunsFilterModel filter(&model);
        RunsGroupModel groups(&model, &filter);
        QAbstractItemModelTester tester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        groups.setGroupKey(QStringLiteral("lr"));
        QCOMPARE(groups.rowCount(), 2);
        const int accColumn = [&] {
            for (int c = 2; c < groups.columnCount(); ++c) {
                if (groups.headerData(c, Qt::Horizontal).toString() == QStringLiteral("val_acc (last)"))
                    return c;
            }
            return -1;
        }();
        QVERIFY(accColumn > 0);
        const int lr01 = groups.index(0, 0).data().toString() == QStringLiteral("0.1") ? 0 : 1;
        QCOMPARE(groups.index(lr01, 1).data().toInt(), 2);
        QCOMPARE(groups.index(lr01, accColumn).data(RunsGroupModel::MeanRole).toDouble(), 0.85);
        QVERIFY(std::abs(groups.index(lr01, accColumn).data(RunsGroupModel::SpreadRole).toDouble() - std::sqrt(0.005)) < 1e-9);
        QVERIFY(groups.index(lr01, accColumn).data().toString().contains(QStringLiteral("±")));
        QCOMPARE(groups.index(1 - lr01, accColumn).data(RunsGroupModel::MeanRole).toDouble(), 0.5);
        // Of the runs shown: a filter changes the groups.
        filter.setFilterText(QStringLiteral("val_acc>0.85"));
        QCOMPARE(groups.rowCount(), 1);
        QCOMPARE(groups.index(0, 1).data().toInt(), 1);
        groups.setGroupKey(QString());
        QCOMPARE(groups.rowCount(), 0);
        // The job's name heads its row (the frozen column), with the run's colour.
        filter.setFilterText(QString());
        QCOMPARE(filter.headerData(filter.mapFromSource(model.index(model.rowOf(13), 0)).row(), Qt::Vertical).toString(),
                 QStringLiteral("c"));
        const QIcon swatch = filter.headerData(0, Qt::Vertical, Qt::DecorationRole).value<QIcon>();
        const qint64 first = filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong();
        QCOMPARE(swatch.pixmap(10, 10).toImage().pixelColor(5, 5), ChartLines::runColor(first));
        // The run drawn in full below the table keeps its colour (its swatch changed when it
        // became the first chosen, issue 43).
        model.setMainJob(first);
        QCOMPARE(filter.headerData(0, Qt::Vertical, Qt::DecorationRole).value<QIcon>().pixmap(10, 10).toImage().pixelColor(5, 5),
                 ChartLines::runColor(first));
    }

    void manyRunsSortAndFilterInOneStep()
    {
        // 300 runs whose val_acc is i / 1000 and lr alternates 0.1 and 0.001.
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 1;
        ResourceSnapshot::ExperimentEntry exp;
        exp.experiment.id = 3;
        exp.experiment.name = QStringLiteral("many");
        RunSummaries summaries;
        const auto summaryOf = [](double acc) {
            RunSummary s;
            s.add(QStringLiteral(R"({"time": 1, "kind": "val", "val_loss": 0.5, "val_acc": %1})").arg(acc).toUtf8());
            return s;
        };
        for (int i = 0; i < 300; ++i) {
            Job job;
            job.id = 1000 + i;
            job.experimentId = 3;
            job.name = QStringLiteral("r%1").arg(i);
            job.state = JobState::Succeeded;
            job.spec = specWith(QStringLiteral("traindesk-trainer --lr %1").arg(i % 2 ? QStringLiteral("0.1") : QStringLiteral("0.001")), 1, 1);
            exp.jobs << job;
            summaries[job.id] = summaryOf(i / 1000.0);
        }
        ws.experiments << exp;
        snapshot.workspaces << ws;
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshot);
        model.setSummaries(summaries);
        for (int i = 0; i < 300; ++i)
            QCOMPARE(model.rowOf(1000 + i), i);
        QCOMPARE(model.rowOf(999), -1);
        RunsFilterModel filter(&model);
        RunsGroupModel groups(&model, &filter);
        groups.setGroupKey(QStringLiteral("lr"));
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int acc = model.columnOfKey(QStringLiteral("val_acc"));
        filter.sort(acc, Qt::DescendingOrder);
        QCOMPARE(filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1299);
        // A filter that keeps every other run is one layout change, the groups rebuilt once
        // (per run of rows that came or went, before: 150 removals, the groups each time).
        QSignalSpy removed(&filter, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&filter, &QAbstractItemModel::rowsInserted);
        QSignalSpy layout(&filter, &QAbstractItemModel::layoutChanged);
        QSignalSpy regrouped(&groups, &QAbstractItemModel::modelReset);
        filter.setFilterText(QStringLiteral("lr>0.01"));
        QCOMPARE(filter.rowCount(), 150);
        QCOMPARE(removed.count() + inserted.count(), 0);
        QCOMPARE(layout.count(), 1);
        QCOMPARE(regrouped.count(), 1);
        QCOMPARE(groups.rowCount(), 1);
        QCOMPARE(filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1299);
        // A sort changes no group.
        filter.sort(acc, Qt::AscendingOrder);
        QCOMPARE(regrouped.count(), 1);
        QCOMPARE(filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1001);
        // New values in place (the same runs and columns): the order follows them, not the
        // values the last sort read.
        for (int i = 0; i < 300; ++i)
            summaries[1000 + i] = summaryOf((300 - i) / 1000.0);
        model.setSummaries(summaries);
        QCOMPARE(filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1299);
        QCOMPARE(filter.index(149, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1001);
        filter.setFilterText(QString());
        QCOMPARE(filter.rowCount(), 300);
        QCOMPARE(filter.index(0, 0).data(RunsTableModel::JobIdRole).toLongLong(), 1299);
    }

    // Text anywhere (`run-001`) matches the rows whose cell texts hold it, whatever the case,
    // as reading every cell did; the rows' search texts follow a changed summary, tag or note.
    void textAnywhereMatchesTheCellsAndFollowsChanges()
    {
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 1;
        ResourceSnapshot::ExperimentEntry exp;
        exp.experiment.id = 3;
        exp.experiment.name = QStringLiteral("Texts");
        RunSummaries summaries;
        for (int i = 0; i < 60; ++i) {
            Job job;
            job.id = 2000 + i;
            job.experimentId = 3;
            job.name = QStringLiteral("Run-%1").arg(i, 3, 10, QLatin1Char('0'));
            job.state = i % 3 ? JobState::Succeeded : JobState::Failed;
            job.spec = specWith(QStringLiteral("traindesk-trainer --lr %1 --opt %2").arg(0.001 * (i % 7)).arg(i % 2 ? "Adam" : "sgd"), 1, 1);
            exp.jobs << job;
            RunSummary s;
            s.add(QStringLiteral(R"({"time": 1, "kind": "val", "val_acc": %1})").arg(i / 64.0).toUtf8());
            summaries[job.id] = s;
        }
        ws.experiments << exp;
        snapshot.workspaces << ws;
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshot);
        model.setSummaries(summaries);
        RunsFilterModel filter(&model);
        const auto shown = [&] {
            QSet<qint64> ids;
            for (int r = 0; r < filter.rowCount(); ++r)
                ids.insert(filter.index(r, 0).data(RunsTableModel::JobIdRole).toLongLong());
            return ids;
        };
        const auto byCells = [&](const QStringList &terms) {
            QSet<qint64> ids;
            for (int r = 0; r < model.rowCount(); ++r) {
                bool all = true;
                for (const QString &term : terms) {
                    bool any = false;
                    for (int c = 0; c < model.columnCount() && !any; ++c)
                        any = model.index(r, c).data().toString().contains(term, Qt::CaseInsensitive);
                    all = all && any;
                }
                if (all)
                    ids.insert(model.index(r, 0).data(RunsTableModel::JobIdRole).toLongLong());
            }
            return ids;
        };
        for (const QStringList &terms : QList<QStringList>{{"run-00"}, {"RUN-01"}, {"adam"}, {"failed", "ADAM"}, {"0.00"},
                                                          {"0.5"}, {"texts"}, {"1 × 1"}, {"nothing-like-it"}, {"sgd", "run-05"}}) {
            filter.setFilterText(terms.join(QLatin1Char(' ')));
            QCOMPARE(shown(), byCells(terms));
        }
        QVERIFY(!byCells({"run-05"}).isEmpty() && !byCells({"adam"}).isEmpty());
        // A number compared needs a value: jobs not started have no duration (not -1 s).
        filter.setFilterText(QStringLiteral("duration<5"));
        QCOMPARE(filter.rowCount(), 0);
        filter.setFilterText(QStringLiteral("val_acc<0.05"));
        QCOMPARE(shown(), byCells({}).intersect(QSet<qint64>{2000, 2001, 2002, 2003}));
        // A tag given, a note edited, new summaries: found at once.
        filter.setFilterText(QStringLiteral("zebra"));
        QCOMPARE(filter.rowCount(), 0);
        filter.setFilterText(QString());  // (a text filter shown would make every row's text at once)
        QHash<qint64, RunNote> notes;
        notes[2007].tags = {QStringLiteral("Zebra")};
        model.setNotes(notes);
        QVERIFY(!model.searchTextsMade());
        QTRY_VERIFY(model.searchTextsMade());  // made while idle, before any text is typed
        filter.setFilterText(QStringLiteral("zebra"));
        QCOMPARE(shown(), QSet<qint64>{2007});
        QVERIFY(model.setData(model.index(model.rowOf(2011), RunsTableModel::NoteColumn), QStringLiteral("a zebra too")));
        filter.setFilterText(QStringLiteral("ZEBRA"));
        QCOMPARE(shown(), (QSet<qint64>{2007, 2011}));
        const QString kept = model.searchTextOf(model.rowOf(2030));
        summaries[2020].add(QByteArrayLiteral(R"({"time": 2, "kind": "val", "val_acc": 0.123456})"));
        model.setSummaries(summaries);
        // Only the changed row's text is made again.
        QVERIFY(model.searchTextOf(model.rowOf(2030)).isSharedWith(kept));
        filter.setFilterText(QStringLiteral("0.12346"));
        QCOMPARE(shown(), QSet<qint64>{2020});
    }

    // Columns are measured when they come (a reset), not at each later sort or filter (with
    // ResizeToContents, every filter of 10,000 runs measured 39 columns of 130 rows again).
    void columnsAreMeasuredWhenTheyComeNotAtEachFilter()
    {
        struct CountingDelegate : QStyledItemDelegate
        {
            mutable int sizeHints = 0;
            QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
            {
                ++sizeHints;
                return QStyledItemDelegate::sizeHint(option, index);
            }
        } counting;
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 991;
        ResourceSnapshot::ExperimentEntry exp;
        exp.experiment.id = 993;
        exp.experiment.name = QStringLiteral("measured");
        RunSummaries summaries;
        for (int i = 0; i < 400; ++i) {
            Job job;
            job.id = 5000 + i;
            job.experimentId = 993;
            job.name = QStringLiteral("m%1").arg(i);
            job.state = JobState::Succeeded;
            job.spec = specWith(QStringLiteral("traindesk-trainer --lr %1").arg(i % 2 ? "0.1" : "0.001"), 1, 1);
            exp.jobs << job;
            RunSummary s;
            s.add(QStringLiteral(R"({"time": 1, "kind": "val", "val_acc": %1})").arg(i / 400.0).toUtf8());
            summaries[job.id] = s;
        }
        ws.experiments << exp;
        snapshot.workspaces << ws;
        RunsView view(m_backend.get());
        // Only the runs given here: the backend's snapshots and summaries do not reach it.
        QObject::disconnect(m_backend.get(), nullptr, &view, nullptr);
        view.table()->setItemDelegate(&counting);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showScope(991, 993);
        RunsTableModel *model = view.model();
        bool quiet = false;
        for (int attempt = 0; attempt < 3 && !quiet; ++attempt) {
            model->setSnapshot(snapshot);
            model->setSummaries(summaries);
            QCoreApplication::processEvents();
            QCOMPARE(model->rowCount(), 400);
            QVERIFY(counting.sizeHints > 0);  // measured when the columns came
            const int acc = model->columnOfKey(QStringLiteral("val_acc"));
            QVERIFY(view.table()->columnWidth(acc) >= view.table()->horizontalHeader()->sectionSizeHint(acc));
            QSignalSpy resets(model, &QAbstractItemModel::modelReset);
            counting.sizeHints = 0;
            for (const QString &filter : {QStringLiteral("m1"), QString(), QStringLiteral("lr>0.01"), QString()}) {
                view.filterEdit()->setText(filter);
                view.table()->sortByColumn(acc, filter.isEmpty() ? Qt::AscendingOrder : Qt::DescendingOrder);
                QCoreApplication::processEvents();
                view.table()->viewport()->repaint();
            }
            QCOMPARE(view.filterModel()->rowCount(), 400);
            // (A snapshot of the backend's own jobs coming meanwhile resets the model: again.)
            quiet = resets.isEmpty();
            if (quiet)
                QCOMPARE(counting.sizeHints, 0);
        }
        QVERIFY(quiet);
        view.table()->setItemDelegate(nullptr);
    }

    void parameterTableOfRuns()
    {
        // Three runs: lr 0.1, 0.1, 0.01, all with 5 epochs (no difference: no axis).
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace.id = 1;
        ResourceSnapshot::ExperimentEntry exp;
        exp.experiment.id = 3;
        const QList<std::tuple<qint64, QString, QString, double, double>> runs{
            {11, QStringLiteral("a"), QStringLiteral("--lr 0.1 --opt adam"), 0.8, 0.4},
            {12, QStringLiteral("b"), QStringLiteral("--lr 0.1 --opt sgd"), 0.9, 0.3},
            {13, QStringLiteral("c"), QStringLiteral("--lr 0.01 --opt adam"), 0.5, 0.7}};
        RunSummaries summaries;
        for (const auto &[id, name, args, acc, loss] : runs) {
            Job job;
            job.id = id;
            job.experimentId = 3;
            job.name = name;
            job.state = JobState::Succeeded;
            job.spec = specWith(QStringLiteral("traindesk-trainer --epochs 5 ") + args, 1, 1);
            exp.jobs << job;
            summaries[id].add(QStringLiteral(R"({"time": 1, "kind": "val", "val_loss": %1, "val_acc": %2})").arg(loss).arg(acc).toUtf8());
        }
        ws.experiments << exp;
        snapshot.workspaces << ws;
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshot);
        model.setSummaries(summaries);
        model.setMainJob(13);
        QCOMPARE(RunsParameterTable::defaultMetric(model), QStringLiteral("best_val_acc"));

        // Exactly the runs asked for, in that order, with their settings and metric.
        ParameterTable table = RunsParameterTable::of(model, {13, 11}, QStringLiteral("best_val_acc"), {});
        QCOMPARE(table.rows.size(), 2);
        QCOMPARE(table.rows[0].label, QStringLiteral("c"));
        QCOMPARE(table.rows[1].label, QStringLiteral("a"));
        QCOMPARE(table.parameters, QStringList{QStringLiteral("lr")});  // opt is adam for both
        QCOMPARE(table.rows[0].values, QList<QVariant>{0.01});
        QCOMPARE(table.rows[1].values, QList<QVariant>{0.1});
        QCOMPARE(*table.rows[0].metric, 0.5);
        QCOMPARE(*table.rows[1].metric, 0.8);
        QVERIFY(table.maximize);
        QCOMPARE(table.metric, QStringLiteral("val_acc (best)"));
        // Each in the colour of its swatch, the run drawn in full too.
        QCOMPARE(table.rows[0].color, ChartLines::runColor(13));
        QCOMPARE(table.rows[1].color, ChartLines::runColor(11));

        // All three: opt differs now, and a word is a category; a loss is minimised.
        table = RunsParameterTable::of(model, {11, 12, 13, 99}, QStringLiteral("best_val_loss"), {});
        QCOMPARE(table.rows.size(), 3);  // 99 is no run of the table
        QCOMPARE(table.parameters, (QStringList{QStringLiteral("lr"), QStringLiteral("opt")}));
        QCOMPARE(table.rows[1].values, (QList<QVariant>{0.1, QStringLiteral("sgd")}));
        QVERIFY(!table.maximize);
        QCOMPARE(table.bestRow(), 1);
        // A hidden column is no axis.
        table = RunsParameterTable::of(model, {11, 12, 13}, QStringLiteral("best_val_acc"), {QStringLiteral("opt")});
        QCOMPARE(table.parameters, QStringList{QStringLiteral("lr")});

        // The plots put each run where its values are: c (lr 0.01, acc 0.5) low and left.
        table = RunsParameterTable::of(model, {11, 12, 13}, QStringLiteral("best_val_acc"), {});
        ParallelCoordinatesPlot parallel;
        parallel.resize(600, 300);
        parallel.setTable(table);
        QVERIFY(parallel.pointOf(2, 0)->y() > parallel.pointOf(0, 0)->y());  // lr 0.01 below 0.1
        QVERIFY(parallel.pointOf(2, 2)->y() > parallel.pointOf(1, 2)->y());  // acc 0.5 below 0.9
        ParameterScatterPlot scatter;
        scatter.resize(600, 300);
        scatter.setTable(table);
        QVERIFY(scatter.pointOf(2)->x() < scatter.pointOf(0)->x());
        QCOMPARE(scatter.pointOf(0)->x(), scatter.pointOf(1)->x());
        QVERIFY(scatter.pointOf(1)->y() < scatter.pointOf(0)->y());  // 0.9 above 0.8
        // Drawn in the run's own colour (the best one, b, too).
        const QImage image = scatter.grab().toImage();
        QCOMPARE(image.pixelColor(scatter.pointOf(1)->toPoint()), table.rows[1].color);
        QCOMPARE(image.pixelColor(scatter.pointOf(2)->toPoint()), ChartLines::runColor(13));
    }

    void eachRunHasItsOwnColour()
    {
        // By id alone, and no two alike (ids 8 apart shared an olive, issue 43).
        QSet<QRgb> seen;
        for (qint64 id = 1; id <= 500; ++id) {
            const QColor c = ChartLines::automaticRunColor(id);
            QCOMPARE(ChartLines::runColor(id), c);
            seen.insert(c.rgb());
        }
        QCOMPARE(seen.size(), 500);
    }

    void columnChooserRemembers()
    {
        RunsView view(m_backend.get());
        QTableView *table = view.table();
        // The job stays at the left: its column is the vertical header, which never scrolls.
        QVERIFY(table->verticalHeader()->isVisibleTo(&view));
        QVERIFY(table->isColumnHidden(RunsTableModel::JobColumn));
        view.setColumnShown(QStringLiteral("cluster"), false);
        QVERIFY(table->isColumnHidden(RunsTableModel::ClusterColumn));
        QVERIFY(!table->isColumnHidden(RunsTableModel::StateColumn));
        RunsView again(m_backend.get());
        QVERIFY(again.hiddenColumns().contains(QStringLiteral("cluster")));
        QVERIFY(again.table()->isColumnHidden(RunsTableModel::ClusterColumn));
        again.setColumnShown(QStringLiteral("cluster"), true);
        QVERIFY(!again.table()->isColumnHidden(RunsTableModel::ClusterColumn));
    }

    void tagsAndNotes()
    {
        QCOMPARE(RunNotes::parseTags(QStringLiteral(" baseline, lr sweep ,,baseline")),
                 (QStringList{QStringLiteral("baseline"), QStringLiteral("lr sweep")}));
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        const auto exp = m_store.experiment(ws->id, QLatin1String(EmbeddedDefaults::experimentName));
        QVERIFY(ws && exp);
        RunsView view(m_backend.get());
        view.showScope(ws->id, exp->id);
        RunsTableModel *model = view.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 0, 10000);
        const qint64 id = model->index(0, 0).data(RunsTableModel::JobIdRole).toLongLong();
        // Typed in the Tags and Note cells: shown at once, stored, read back by another view.
        QVERIFY(model->setData(model->index(0, RunsTableModel::TagsColumn), QStringLiteral("baseline, fast")));
        QVERIFY(model->setData(model->index(0, RunsTableModel::NoteColumn), QStringLiteral("first try")));
        QCOMPARE(model->index(0, RunsTableModel::TagsColumn).data().toString(), QStringLiteral("baseline, fast"));
        QTRY_COMPARE_WITH_TIMEOUT(RunNotes::read(DataPaths::databasePath(), {id}).value(id).note, QStringLiteral("first try"), 10000);
        QCOMPARE(RunNotes::read(DataPaths::databasePath(), {id}).value(id).tags,
                 (QStringList{QStringLiteral("baseline"), QStringLiteral("fast")}));
        QTRY_COMPARE_WITH_TIMEOUT(model->noteOf(id).note, QStringLiteral("first try"), 10000);
        view.filterModel()->setFilterText(QStringLiteral("tag:baseline"));
        QCOMPARE(view.filterModel()->rowCount(), 1);
        view.filterModel()->setFilterText(QStringLiteral("tag:nothing-like-it"));
        QCOMPARE(view.filterModel()->rowCount(), 0);
        view.filterModel()->setFilterText(QString());
        RunsView again(m_backend.get());
        again.showScope(ws->id, exp->id);
        QTRY_COMPARE_WITH_TIMEOUT(again.model()->noteOf(id).note, QStringLiteral("first try"), 10000);
        // Cleared: the row goes.
        QVERIFY(model->setData(model->index(0, RunsTableModel::TagsColumn), QString()));
        QVERIFY(model->setData(model->index(0, RunsTableModel::NoteColumn), QString()));
        QTRY_VERIFY2_WITH_TIMEOUT(RunNotes::read(DataPaths::databasePath(), {id}).isEmpty(),
                                  qPrintable(view.statusText() + QLatin1Char('|') + RunNotes::read(DataPaths::databasePath(), {id}).value(id).note
                                             + QLatin1Char('|') + RunNotes::read(DataPaths::databasePath(), {id}).value(id).tags.join(QLatin1Char(','))),
                                  30000);
    }

    void sortsFiltersExportsAndOverlays()
    {
        // Three jobs whose best val_acc orders them b (0.95), c (0.85), a (0.75), while
        // their last val_acc orders them a (0.7), c (0.6), b (0.5).
        struct Made { QString name; qint64 id; QString dir; };
        QList<Made> made;
        const QList<std::tuple<QString, int, double, double, QString>> jobs{
            {QStringLiteral("runs-a"), 30, 0.7, 0.75, QStringLiteral("--epochs 3 --lr 0.001")},
            {QStringLiteral("runs-b"), 40, 0.5, 0.95, QStringLiteral("--epochs 4 --lr 0.01")},
            {QStringLiteral("runs-c"), 20, 0.6, 0.85, QStringLiteral("--epochs 2 --lr 0.1")}};
        for (const auto &[name, steps, last, peak, args] : jobs) {
            const QString dir = m_home.filePath(name);
            const qint64 id = createFakeRunningJob(m_store, name, dir);
            QVERIFY(id);
            auto job = m_store.jobById(id);
            job->spec = specWith(QStringLiteral("traindesk-trainer --dir $AZ_BATCHAI_OUTPUT_MODEL ") + args, 1, 2);
            QVERIFY(m_store.updateJob(*job));
            QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/metrics.jsonl"), metrics(steps, last, peak)));
            made.append({name, id, dir});
        }
        // runs-a's trainer says what it really ran with: its info record wins over the command line.
        QVERIFY(appendToFile(made[0].dir + QStringLiteral("/stdouterr/metrics.jsonl"),
                             R"({"time": 2000, "kind": "info", "epochs": 6, "device": "cpu"})" "\n"));

        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectByName(QStringLiteral("demo")), 10000);
        RunsView *runs = window.runsView();
        QCOMPARE(window.infoView()->extraTab(), static_cast<QWidget *>(runs));
        QCOMPARE(window.infoView()->currentWidget(), static_cast<QWidget *>(runs));
        QAbstractItemModelTester tester(runs->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester filterTester(runs->filterModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunsTableModel *model = runs->model();
        // The agent stores the records; the table shows them once read (every 2 s at most).
        QTRY_VERIFY_WITH_TIMEOUT(model->columnOfKey(QStringLiteral("best_val_acc")) >= 0
                                     && model->columnOfKey(QStringLiteral("device")) >= 0
                                     && model->index(model->rowOf(made[1].id), model->columnOfKey(QStringLiteral("loss")))
                                            .data().toString() == QString::number(2.0 / 40, 'g', 5),
                                 20000);
        QCOMPARE(model->rowCount(), 4);  // and the demo draft
        const int epochs = model->columnOfKey(QStringLiteral("epochs"));
        QCOMPARE(model->index(model->rowOf(made[0].id), epochs).data().toString(), QStringLiteral("6"));
        QCOMPARE(model->index(model->rowOf(made[1].id), epochs).data().toString(), QStringLiteral("4"));
        QCOMPARE(model->index(model->rowOf(made[0].id), RunsTableModel::ShapeColumn).data().toString(),
                 QStringLiteral("1 × 2"));
        QCOMPARE(model->index(model->rowOf(made[0].id), RunsTableModel::StateColumn).data().toString(),
                 QStringLiteral("running"));

        // Sorted by a metric: best val_acc, highest first; the draft has none and goes last.
        QTableView *table = runs->table();
        const int best = model->columnOfKey(QStringLiteral("best_val_acc"));
        const int last = model->columnOfKey(QStringLiteral("val_acc"));
        table->sortByColumn(best, Qt::DescendingOrder);
        QCOMPARE(columnTexts(runs->filterModel(), RunsTableModel::JobColumn),
                 (QStringList{QStringLiteral("runs-b"), QStringLiteral("runs-c"), QStringLiteral("runs-a"),
                              QString::fromLatin1(EmbeddedDefaults::demoJobName)}));
        table->sortByColumn(last, Qt::DescendingOrder);
        QCOMPARE(columnTexts(runs->filterModel(), RunsTableModel::JobColumn).mid(0, 3),
                 (QStringList{QStringLiteral("runs-a"), QStringLiteral("runs-c"), QStringLiteral("runs-b")}));
        table->sortByColumn(last, Qt::AscendingOrder);
        QCOMPARE(columnTexts(runs->filterModel(), RunsTableModel::JobColumn),
                 (QStringList{QStringLiteral("runs-b"), QStringLiteral("runs-c"), QStringLiteral("runs-a"),
                              QString::fromLatin1(EmbeddedDefaults::demoJobName)}));

        // Filtered: a number compared, a column's text, free text, and a key no column has.
        runs->filterEdit()->setText(QStringLiteral("best_val_acc>0.8"));
        QCOMPARE(runs->filterModel()->rowCount(), 2);
        runs->filterEdit()->setText(QStringLiteral("best_val_acc>0.8 lr=0.1"));
        QCOMPARE(columnTexts(runs->filterModel(), RunsTableModel::JobColumn), QStringList{QStringLiteral("runs-c")});
        runs->filterEdit()->setText(QStringLiteral("state:draft"));
        QCOMPARE(columnTexts(runs->filterModel(), RunsTableModel::JobColumn),
                 QStringList{QString::fromLatin1(EmbeddedDefaults::demoJobName)});
        runs->filterEdit()->setText(QStringLiteral("runs-"));
        QCOMPARE(runs->filterModel()->rowCount(), 3);
        runs->filterEdit()->setText(QStringLiteral("vall_acc>0.5"));
        QCOMPARE(runs->filterModel()->rowCount(), 0);
        QVERIFY2(runs->statusText().contains(QStringLiteral("vall_acc")), qPrintable(runs->statusText()));
        runs->filterEdit()->clear();
        QCOMPARE(runs->filterModel()->rowCount(), 4);

        // CSV: a header of keys and each job's values in full.
        const QString csvPath = m_home.filePath(QStringLiteral("runs.csv"));
        QSignalSpy exported(runs, &RunsView::exported);
        runs->exportCsv(csvPath);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 10000);
        QCOMPARE(exported.first().at(1).toString(), QString());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        const QList<QByteArray> header = lines.first().split(',');
        QVERIFY(header.contains("best_val_acc"));
        QVERIFY(header.contains("epochs"));
        const qsizetype bestAt = header.indexOf("best_val_acc");
        bool sawB = false;
        for (const QByteArray &line : lines) {
            if (line.startsWith("runs-b,")) {
                sawB = true;
                QCOMPARE(line.split(',').at(bestAt), QByteArray("0.94999999999999996"));
            }
        }
        QVERIFY(sawB);

        // Two rows chosen: the first in full, the other overlaid with all its training points.
        runs->chooseJobs({made[1].id, made[2].id});
        QCOMPARE(runs->chosenJobs().size(), 2);
        QVERIFY(runs->charts()->isVisible());
        const qint64 mainJob = runs->chosenJobs().first();
        const qint64 overlaid = runs->chosenJobs().last();
        const int mainSteps = mainJob == made[1].id ? 40 : 20;
        const int overlaidSteps = overlaid == made[1].id ? 40 : 20;
        const QString overlaidName = overlaid == made[1].id ? QStringLiteral("runs-b") : QStringLiteral("runs-c");
        QTRY_COMPARE_WITH_TIMEOUT(runs->series()->trainPointCount(), mainSteps, 10000);
        runs->charts()->redrawNow();
        QTRY_COMPARE_WITH_TIMEOUT(runs->charts()->lossPanel()->lineCount(overlaidName), overlaidSteps, 10000);
        // The plots below draw exactly the chosen runs, with their settings and best val_acc.
        RunsPlotTabs *plots = runs->plots();
        plots->setCurrentIndex(RunsPlotTabs::ParallelTab);
        QCOMPARE(plots->drawnJobs(), runs->chosenJobs());
        QCOMPARE(plots->metric(), QStringLiteral("best_val_acc"));
        const ParameterTable &drawn = plots->parallel()->table();
        QCOMPARE(drawn.rows.size(), 2);
        const int lrAxis = int(drawn.parameters.indexOf(QStringLiteral("lr")));
        QVERIFY(lrAxis >= 0);
        QVERIFY(drawn.parameters.contains(QStringLiteral("epochs")));
        QVERIFY(!drawn.parameters.contains(QStringLiteral("device")));  // runs-a's alone: not these runs'
        for (int i = 0; i < 2; ++i) {
            const bool isB = drawn.rows[i].label == QStringLiteral("runs-b");
            QCOMPARE(drawn.rows[i].label, isB ? QStringLiteral("runs-b") : QStringLiteral("runs-c"));
            QCOMPARE(drawn.rows[i].values.value(lrAxis), QVariant(isB ? 0.01 : 0.1));
            QCOMPARE(*drawn.rows[i].metric, isB ? 0.95 : 0.85);
            QCOMPARE(drawn.rows[i].color, model->colorOf(runs->chosenJobs().at(i)));
            QVERIFY(plots->parallel()->pointOf(i, 0));
        }
        QCOMPARE(plots->scatter()->table().rows.size(), 2);
        // Another metric and the scatter's setting, chosen beside the tabs.
        plots->setCurrentIndex(RunsPlotTabs::ScatterTab);
        QVERIFY(plots->parameterBox()->isVisibleTo(plots));
        plots->setMetric(QStringLiteral("val_loss"));
        QCOMPARE(plots->scatter()->table().metric, QStringLiteral("val_loss (last)"));
        QVERIFY(!plots->scatter()->table().maximize);
        plots->parameterBox()->setCurrentIndex(plots->parameterBox()->findText(QStringLiteral("lr")));
        QCOMPARE(plots->parameter(), QStringLiteral("lr"));
        QCOMPARE(plots->scatter()->parameter(), lrAxis);
        QVERIFY(plots->scatter()->pointOf(0) && plots->scatter()->pointOf(1));
        plots->setMetric(QStringLiteral("best_val_acc"));
        // Hiding a setting's column takes its axis away.
        runs->setColumnShown(QStringLiteral("epochs"), false);
        QVERIFY(!plots->table().parameters.contains(QStringLiteral("epochs")));
        runs->setColumnShown(QStringLiteral("epochs"), true);
        QVERIFY(plots->table().parameters.contains(QStringLiteral("epochs")));
        plots->setCurrentIndex(RunsPlotTabs::ChartsTab);

        // A third row joins the overlay; choosing one row again leaves no overlay.
        runs->chooseJobs({made[1].id, made[2].id, made[0].id});
        QTRY_COMPARE_WITH_TIMEOUT(runs->charts()->comparisons().size(), 2, 10000);
        runs->chooseJobs({made[0].id});
        QTRY_VERIFY_WITH_TIMEOUT(runs->charts()->comparisons().isEmpty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(runs->series()->trainPointCount(), 30, 10000);
        // One run chosen: the plots draw every run the filter shows.
        QCOMPARE(plots->drawnJobs().size(), 4);
        runs->filterEdit()->setText(QStringLiteral("runs-"));
        QCOMPARE(plots->drawnJobs().size(), 3);
        for (const Made &m : made)
            QVERIFY(plots->drawnJobs().contains(m.id));
        runs->filterEdit()->clear();
        // A click on a run's line in the plots chooses it, as a click on its row does.
        plots->setCurrentIndex(RunsPlotTabs::ParallelTab);
        ParallelCoordinatesPlot *parallel = plots->parallel();
        const int lineRow = int(plots->drawnJobs().indexOf(made[2].id));
        const int lrAt = int(plots->table().parameters.indexOf(QStringLiteral("lr")));
        QTRY_VERIFY(parallel->pointOf(lineRow, lrAt));
        const QPointF onLine = *parallel->pointOf(lineRow, lrAt);  // lr 0.1: runs-c's alone
        QCOMPARE(parallel->rowAt(onLine), lineRow);
        QTest::mouseClick(parallel, Qt::LeftButton, {}, onLine.toPoint());
        QCOMPARE(runs->chosenJobs(), QList<qint64>{made[2].id});
        plots->setCurrentIndex(RunsPlotTabs::ChartsTab);

        // The workspace's table has the same jobs with their experiment.
        QVERIFY(window.selectByName(QStringLiteral("default")));
        QCOMPARE(window.infoView()->extraTab(), static_cast<QWidget *>(runs));
        QTRY_COMPARE_WITH_TIMEOUT(runs->model()->rowCount(), 4, 10000);
        QVERIFY(!runs->table()->isColumnHidden(RunsTableModel::ExperimentColumn));
        QVERIFY(runs->chosenJobs().isEmpty());

        for (const Made &m : made)
            QVERIFY(appendToFile(m.dir + QStringLiteral("/exit_code"), "0\n"));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobsStatusText(), QStringLiteral("0 jobs running"), 10000);
    }

    void chosenColourEverywhere()
    {
        // After sortsFiltersExportsAndOverlays: its three runs, with their metrics.
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        const auto exp = m_store.experiment(ws->id, QLatin1String(EmbeddedDefaults::experimentName));
        QVERIFY(ws && exp);
        RunsView view(m_backend.get());
        view.resize(1000, 700);
        view.show();
        view.showScope(ws->id, exp->id);
        RunsTableModel *model = view.model();
        const auto runB = m_store.job(exp->id, QStringLiteral("runs-b"));
        const auto runC = m_store.job(exp->id, QStringLiteral("runs-c"));
        QVERIFY2(runB && runC, "runs-b and runs-c are made by sortsFiltersExportsAndOverlays");
        const qint64 b = runB->id;
        const qint64 c = runC->id;
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(c) >= 0, 10000);
        view.chooseJobs({b, c});
        const qint64 main = view.chosenJobs().first();
        const qint64 overlaid = view.chosenJobs().last();
        const QString overlaidName = overlaid == b ? QStringLiteral("runs-b") : QStringLiteral("runs-c");
        QTRY_VERIFY_WITH_TIMEOUT(view.charts()->lossPanel()->lineCount(overlaidName) > 0, 10000);
        QCOMPARE(lineColors(view.charts()->lossPanel(), overlaidName).value(0), ChartLines::runColor(overlaid));
        // The run drawn in full in its own colour too: the one of its swatch (issue 43).
        QVERIFY(lineColors(view.charts()->lossPanel()).contains(ChartLines::runColor(main)));
        QCOMPARE(model->colorOf(main), ChartLines::runColor(main));

        // Chosen for the overlaid run: its line, its swatch and its plots' colour.
        const QColor teal(QStringLiteral("#127a6e"));
        QVERIFY(ChartLines::runColor(overlaid) != teal);
        view.chooseColor(overlaid, teal);
        QTRY_COMPARE_WITH_TIMEOUT(lineColors(view.charts()->lossPanel(), overlaidName).value(0), teal, 10000);
        QCOMPARE(lineColors(view.charts()->accuracyPanel(), overlaidName).value(0), teal);
        const QModelIndex overlaidRow = view.filterModel()->mapFromSource(model->index(model->rowOf(overlaid), 0));
        QCOMPARE(view.filterModel()->headerData(overlaidRow.row(), Qt::Vertical, Qt::DecorationRole)
                     .value<QIcon>().pixmap(10, 10).toImage().pixelColor(5, 5), teal);
        const int plotRow = int(view.plots()->drawnJobs().indexOf(overlaid));
        QVERIFY(plotRow >= 0);
        QCOMPARE(view.plots()->table().rows.value(plotRow).color, teal);
        // And for the run drawn in full: its training line takes it.
        const QColor plum(QStringLiteral("#8e3b8a"));
        view.chooseColor(main, plum);
        QTRY_VERIFY_WITH_TIMEOUT(lineColors(view.charts()->lossPanel()).contains(plum), 10000);
        QCOMPARE(model->colorOf(main), plum);
        QVERIFY(!lineColors(view.charts()->lossPanel()).contains(ChartLines::mainRunColor()));

        // Stored with the run's note.
        const QString db = DataPaths::databasePath();
        QTRY_COMPARE_WITH_TIMEOUT(RunNotes::read(db, {overlaid}).value(overlaid).color, teal.name(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(RunNotes::read(db, {main}).value(main).color, plum.name(), 10000);

        // A restart: the process knows no colours; the store, opened anew, has them, and a
        // new runs view (as the window makes at its start) draws the run in them again.
        RunColors::instance()->setStored({});
        QVERIFY(ChartLines::runColor(overlaid) != teal);  // automatic again
        {
            Store reopened;
            QVERIFY(reopened.open(db).ok());
            QVERIFY(reopened.jobById(overlaid).ok());
        }
        RunsView again(m_backend.get());
        QTRY_COMPARE_WITH_TIMEOUT(RunColors::instance()->chosen(overlaid), teal, 10000);
        QCOMPARE(ChartLines::runColor(overlaid), teal);
        again.showScope(ws->id, exp->id);
        QTRY_VERIFY_WITH_TIMEOUT(again.model()->rowOf(overlaid) >= 0, 10000);
        again.chooseJobs({main, overlaid});
        QTRY_COMPARE_WITH_TIMEOUT(lineColors(again.charts()->lossPanel(), overlaidName).value(0), teal, 10000);
        QCOMPARE(again.model()->colorOf(overlaid), teal);

        // Back to automatic, from the run's menu: right click on its name, or the menu key on
        // its row. The row of notes goes (no tags, no note, no colour).
        const auto menuEntries = [this](const QString &choose, const std::function<void()> &open) {
            QStringList entries;
            QTimer::singleShot(0, this, [&entries, choose] {
                auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
                if (!menu)
                    return;
                for (QAction *action : menu->actions()) {
                    if (!action->objectName().contains(QLatin1String("olour")))
                        continue;  // the colour entries (runMenuDoesWhatAUserDoes has the others)
                    entries << action->text() + (action->isEnabled() ? QString() : QStringLiteral(" (off)"));
                    if (action->text() == choose)
                        action->trigger();
                }
                menu->close();
            });
            open();
            return entries;
        };
        const QStringList both{QStringLiteral("&Colour…"), QStringLiteral("&Automatic colour")};
        QHeaderView *names = view.table()->verticalHeader();
        QCOMPARE(menuEntries(QStringLiteral("&Automatic colour"), [&] {
                     const QPoint at(5, names->sectionViewportPosition(overlaidRow.row()) + 3);
                     QContextMenuEvent click(QContextMenuEvent::Mouse, at, names->viewport()->mapToGlobal(at));
                     QApplication::sendEvent(names->viewport(), &click);
                 }), both);
        const QModelIndex mainRow = view.filterModel()->mapFromSource(model->index(model->rowOf(main), RunsTableModel::StateColumn));
        view.table()->setCurrentIndex(mainRow);
        // The menu key, as the window delivers it: to the focused table, at its current cell.
        const auto menuKey = [&] {
            const QPoint at = view.table()->visualRect(mainRow).center();
            QContextMenuEvent key(QContextMenuEvent::Keyboard, at, view.table()->viewport()->mapToGlobal(at));
            QApplication::sendEvent(view.table(), &key);
        };
        QCOMPARE(menuEntries(QStringLiteral("&Automatic colour"), menuKey), both);
        QVERIFY(!RunColors::instance()->chosen(main).isValid());
        // With no colour chosen, there is nothing to go back from.
        QCOMPARE(menuEntries(QString(), menuKey), (QStringList{QStringLiteral("&Colour…"), QStringLiteral("&Automatic colour (off)")}));
        // (Taken back through the backend's worker: waited for, as the store read below.)
        QTRY_VERIFY_WITH_TIMEOUT(!RunColors::instance()->chosen(overlaid).isValid(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(RunNotes::read(db, {overlaid, main}).isEmpty(), 10000);
        // A colour that is not #rrggbb is refused, naming the job.
        const auto refused = RunNotes::write(db, overlaid, {{}, {}, QStringLiteral("teal")});
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QString::number(overlaid)) && refused.error().contains(QStringLiteral("#rrggbb")),
                 qPrintable(refused.error()));
    }

    void runMenuDoesWhatAUserDoes()
    {
        // The row's menu offered only colours (issue #43): open, compare, clone, tags,
        // download the model and delete now, as in W&B's or Azure ML's runs list.
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        const auto exp = m_store.experiment(ws->id, QLatin1String(EmbeddedDefaults::experimentName));
        QVERIFY(ws && exp);
        const auto runB = m_store.job(exp->id, QStringLiteral("runs-b"));
        QVERIFY2(runB, "runs-b is made by sortsFiltersExportsAndOverlays");
        const qint64 b = runB->id;
        RunsView view(m_backend.get());
        view.resize(1000, 700);
        view.show();
        view.showScope(ws->id, exp->id);
        QTRY_VERIFY_WITH_TIMEOUT(view.model()->rowOf(b) >= 0, 10000);
        view.chooseJobs({});
        const auto actionsOf = [](QMenu *menu) {
            QHash<QString, QAction *> byName;
            QStringList names;
            for (QAction *action : menu->actions()) {
                if (!action->isSeparator()) {
                    byName.insert(action->objectName(), action);
                    names << action->objectName();
                }
            }
            return std::make_pair(names, byName);
        };
        std::unique_ptr<QMenu> menu(view.runMenu(b));
        auto [names, actions] = actionsOf(menu.get());
        QCOMPARE(names, (QStringList{QStringLiteral("openRun"), QStringLiteral("compareRun"), QStringLiteral("cloneRun"),
                                     QStringLiteral("tagRun"), QStringLiteral("downloadRunModel"), QStringLiteral("deleteRun"),
                                     QStringLiteral("colourRun"), QStringLiteral("automaticColourRun")}));
        QCOMPARE(menu->defaultAction(), actions.value(QStringLiteral("openRun")));

        QSignalSpy opened(&view, &RunsView::jobActivated);
        actions.value(QStringLiteral("openRun"))->trigger();
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().first().toLongLong(), b);
        // Compare: chosen (charted below), and the next menu takes it back out.
        actions.value(QStringLiteral("compareRun"))->trigger();
        QCOMPARE(view.chosenJobs(), QList<qint64>{b});
        menu.reset(view.runMenu(b));
        std::tie(names, actions) = actionsOf(menu.get());
        QCOMPARE(actions.value(QStringLiteral("compareRun"))->text(), QStringLiteral("Remove from the co&mparison"));
        actions.value(QStringLiteral("compareRun"))->trigger();
        QVERIFY(view.chosenJobs().isEmpty());
        // Clone and delete go to the window's own (which asks before deleting).
        QSignalSpy cloned(&view, &RunsView::cloneRequested);
        actions.value(QStringLiteral("cloneRun"))->trigger();
        QCOMPARE(cloned.count(), 1);
        QCOMPARE(cloned.first().first().toLongLong(), b);
        const Job *job = m_backend->snapshot().findJob(b);
        QVERIFY(job);
        QCOMPARE(actions.value(QStringLiteral("deleteRun"))->isEnabled(), job->state != JobState::Queued && !isActive(job->state));
        QSignalSpy deleted(&view, &RunsView::deleteRequested);
        actions.value(QStringLiteral("deleteRun"))->trigger();
        QCOMPARE(deleted.count(), 1);
        // Tags: the run's Tags cell opens for typing, shown if it was hidden.
        view.setColumnShown(QStringLiteral("tags"), false);
        actions.value(QStringLiteral("tagRun"))->trigger();
        QVERIFY(!view.hiddenColumns().contains(QStringLiteral("tags")));
        const auto editors = view.table()->viewport()->findChildren<QLineEdit *>();
        QVERIFY(std::any_of(editors.cbegin(), editors.cend(), [](const QLineEdit *e) { return e->isVisible(); }));
        QCOMPARE(view.table()->currentIndex().column(), int(RunsTableModel::TagsColumn));
        QCOMPARE(view.filterModel()->mapToSource(view.table()->currentIndex()).row(), view.model()->rowOf(b));
        // The model, not the checkpoints beside it.
        QVERIFY(!TrialModelDownload::isCheckpoint(QStringLiteral("saved_models/fashion_mnist_trained_model.h5")));
        QVERIFY(!TrialModelDownload::isCheckpoint(QStringLiteral("model.onnx")));
        QVERIFY(TrialModelDownload::isCheckpoint(QStringLiteral("checkpoints/epoch-0002.ckpt")));
        QVERIFY(TrialModelDownload::isCheckpoint(QStringLiteral("run/Checkpoints/weights.h5")));
        QVERIFY(TrialModelDownload::isCheckpoint(QStringLiteral("model-3.ckpt")));
    }

    void columnChooserStaysOpenSearchesAndHidesConstants()
    {
        // Two runs that differ in lr only: the chooser in the Columns menu stays open while
        // columns are ticked, finds a column by name, and hides the settings that do not
        // vary (28 clicks to hide 14 columns before, issue 43).
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        const auto exp = m_store.createExperiment(ws->id, QStringLiteral("columns"));
        QVERIFY(exp);
        for (const char *lr : {"0.1", "0.01"}) {
            Job job;
            job.experimentId = exp->id;
            job.clusterId = m_store.cluster(ws->id, QStringLiteral("local"))->id;
            job.name = QStringLiteral("lr-%1").arg(QLatin1String(lr));
            job.name.replace(QLatin1Char('.'), QLatin1Char('_'));
            job.state = JobState::Draft;
            job.spec = specWith(QStringLiteral("traindesk-trainer --batch 32 --lr ") + QLatin1String(lr), 1, 1);
            QVERIFY(m_store.createJob(job));
        }
        m_backend->pollNow();
        RunsView view(m_backend.get());
        view.resize(1000, 700);
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT((view.showScope(ws->id, exp->id), view.model()->rowCount() == 2), 10000);
        RunsTableModel *model = view.model();
        QTRY_VERIFY_WITH_TIMEOUT(model->columnOfKey(QStringLiteral("lr")) >= 0 && model->columnOfKey(QStringLiteral("batch")) >= 0,
                                 10000);
        const int lr = model->columnOfKey(QStringLiteral("lr"));
        const int batch = model->columnOfKey(QStringLiteral("batch"));

        QMenu *menu = view.columnsButton()->menu();
        menu->popup(view.columnsButton()->mapToGlobal(QPoint(0, view.columnsButton()->height())));
        QTRY_VERIFY(menu->isVisible());
        ColumnChooser *chooser = view.columnChooser();
        QListWidget *list = chooser->list();
        // Search: only the matching columns are listed.
        chooser->search()->setText(QStringLiteral("bat"));
        QCOMPARE(chooser->visibleKeys(), QStringList{QStringLiteral("batch")});
        // Space on the listed column hides it; the menu stays open for the next one.
        for (int i = 0; i < list->count(); ++i) {
            if (!list->item(i)->isHidden())
                list->setCurrentRow(i);
        }
        QTest::keyClick(list, Qt::Key_Space);
        QVERIFY(view.table()->isColumnHidden(batch));
        QVERIFY(menu->isVisible());
        QTest::keyClick(list, Qt::Key_Space);
        QVERIFY(!view.table()->isColumnHidden(batch));
        chooser->search()->clear();
        QVERIFY(chooser->visibleKeys().size() > 2);
        // Settings that do not vary: batch (32 in both) goes, lr stays.
        chooser->hideConstant()->setChecked(true);
        QVERIFY(view.hidesConstantSettings());
        QVERIFY(view.table()->isColumnHidden(batch));
        QVERIFY(!view.table()->isColumnHidden(lr));
        QVERIFY(menu->isVisible());
        saveGrab(menu, QStringLiteral("runs-column-chooser"));
        menu->close();
        view.setHideConstantSettings(false);
        QVERIFY(!view.table()->isColumnHidden(batch));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestRunsTable)
#include "tst_runstable.moc"

// The runs plots (RunsPlotTabs: parallel coordinates and setting vs metric) draw the runs they
// are given after every change, though they draw the runs once into a kept image and keep
// their table between redraws that change only the metric, the setting or the chosen runs
// (issue #44: 10,000 runs under 100 ms a redraw). Each plot is compared with a plot made
// afresh for the same runs, and where the lines are, with the runs' colours.
#include "Grab.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"
#include "charts/RunColors.h"
#include "metrics/RunSummary.h"
#include "runs/RunsParameterTable.h"
#include "runs/RunsPlotTabs.h"
#include "runs/RunsTableModel.h"

#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

struct Run
{
    qint64 id;
    double lr;
    int batch;
    QString optimizer;
    double acc;
    double loss;
};

ResourceSnapshot snapshotOf(const QList<Run> &runs)
{
    ResourceSnapshot snapshot;
    ResourceSnapshot::WorkspaceEntry ws;
    ws.workspace.id = 1;
    ResourceSnapshot::ExperimentEntry exp;
    exp.experiment.id = 3;
    for (const Run &r : runs) {
        Job job;
        job.id = r.id;
        job.experimentId = 3;
        job.name = QStringLiteral("run-%1").arg(r.id);
        job.state = JobState::Succeeded;
        exp.jobs << job;
    }
    ws.experiments << exp;
    snapshot.workspaces << ws;
    return snapshot;
}

RunSummaries summariesOf(const QList<Run> &runs)
{
    RunSummaries summaries;
    for (const Run &r : runs) {
        summaries[r.id].add(QStringLiteral(R"({"time": 1, "kind": "info", "lr": %1, "batch_size": %2, "optimizer": "%3"})")
                                .arg(r.lr).arg(r.batch).arg(r.optimizer).toUtf8());
        summaries[r.id].add(QStringLiteral(R"({"time": 2, "kind": "val", "val_loss": %1, "val_acc": %2})")
                                .arg(r.loss).arg(r.acc).toUtf8());
    }
    return summaries;
}

QImage imageOf(QWidget *widget)
{
    return widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
}

// What a parallel-coordinates plot made now for `table`, at `size`, draws.
QImage freshParallel(const ParameterTable &table, QSize size)
{
    ParallelCoordinatesPlot plot;
    plot.resize(size);
    plot.setTable(table);
    return imageOf(&plot);
}

QImage freshScatter(const ParameterTable &table, int parameter, QSize size)
{
    ParameterScatterPlot plot;
    plot.resize(size);
    plot.setTable(table);
    plot.setParameter(parameter);
    return imageOf(&plot);
}

// A line (or dot) of `color` passes through `at`: a pixel next to it has that colour, or
// nearly (antialiased on the base).
bool drawnAt(const QImage &image, QPointF at, const QColor &color)
{
    for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
            const QColor c = image.pixelColor(at.toPoint() + QPoint(dx, dy));
            if (std::abs(c.red() - color.red()) < 70 && std::abs(c.green() - color.green()) < 70
                && std::abs(c.blue() - color.blue()) < 70)
                return true;
        }
    }
    return false;
}

// Where row `row`'s line is between axes `a` and `b`, a fraction `t` of the way.
QPointF between(const ParallelCoordinatesPlot *plot, int row, int a, int b, double t)
{
    return *plot->pointOf(row, a) * (1 - t) + *plot->pointOf(row, b) * t;
}

} // namespace

class TestRunsPlots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cachedPlotsFollowTheirRuns()
    {
        // Four runs whose lines do not cross between the first two axes (batch_size, lr);
        // run 4 has the best val_acc, run 1 the best val_loss: those are drawn over the
        // image, so the runs looked at are 2 and 3.
        QList<Run> runs{{1, 1.0, 10, QStringLiteral("adam"), 0.1, 0.1},
                        {2, 2.0, 20, QStringLiteral("sgd"), 0.2, 0.4},
                        {3, 3.0, 30, QStringLiteral("adam"), 0.3, 0.2},
                        {4, 4.0, 40, QStringLiteral("sgd"), 0.4, 0.3}};
        const QColor red(200, 0, 0), green(0, 150, 0), blue(0, 0, 210), magenta(200, 0, 200), orange(240, 140, 0);
        RunColors::instance()->setChosen(1, red);
        RunColors::instance()->setChosen(2, green);
        RunColors::instance()->setChosen(3, blue);
        RunColors::instance()->setChosen(4, magenta);
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshotOf(runs));
        model.setSummaries(summariesOf(runs));

        RunsPlotTabs tabs(new QLabel(QStringLiteral("charts")));
        tabs.resize(900, 440);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        QList<qint64> shown{1, 2, 3, 4};
        // As the runs view does: the model's changes reach it before the plots' own watch
        // (it connected first), and it gives the plots the same runs again.
        connect(&model, &QAbstractItemModel::dataChanged, &tabs, [&] { tabs.setRuns(&model, shown, {}, QStringLiteral("runs")); });
        tabs.setCurrentIndex(RunsPlotTabs::ParallelTab);
        tabs.setRuns(&model, shown, {}, QStringLiteral("runs"));
        ParallelCoordinatesPlot *parallel = tabs.parallel();
        QCOMPARE(tabs.table().parameters, (QStringList{QStringLiteral("batch_size"), QStringLiteral("lr"), QStringLiteral("optimizer")}));
        QCOMPARE(tabs.metric(), QStringLiteral("best_val_acc"));
        QImage image = imageOf(parallel);
        QCOMPARE(image, freshParallel(tabs.table(), parallel->size()));
        const QPointF run2 = between(parallel, 1, 0, 1, 0.5);
        QVERIFY(drawnAt(image, run2, green));
        QVERIFY(drawnAt(image, between(parallel, 2, 0, 1, 0.5), blue));
        saveGrab(parallel, QStringLiteral("runsplots-4-runs"));

        // A filter leaves runs 1, 3 and 4: run 2's line goes, run 3's moves (batch 30 is now
        // two thirds up its axis).
        shown = {1, 3, 4};
        tabs.setRuns(&model, shown, {}, QStringLiteral("runs"));
        QCOMPARE(tabs.table().rows.size(), 3);
        image = imageOf(parallel);
        QCOMPARE(image, freshParallel(tabs.table(), parallel->size()));
        QVERIFY(!drawnAt(image, run2, green));
        QVERIFY(drawnAt(image, between(parallel, 1, 0, 1, 0.5), blue));

        // Another metric, the same runs: run 2 meets the val_loss axis at its top (the
        // worst, 0.4), where val_acc put it a third up.
        shown = {1, 2, 3, 4};
        tabs.setRuns(&model, shown, {}, QStringLiteral("runs"));
        const QPointF byAcc = between(parallel, 1, 2, 3, 0.9);
        tabs.setMetric(QStringLiteral("best_val_loss"));
        QCOMPARE(tabs.metric(), QStringLiteral("best_val_loss"));
        QCOMPARE(*tabs.table().rows.at(1).metric, 0.4);
        image = imageOf(parallel);
        QCOMPARE(image, freshParallel(tabs.table(), parallel->size()));
        const QPointF byLoss = between(parallel, 1, 2, 3, 0.9);
        QVERIFY(byLoss.y() < byAcc.y() - 20);
        QVERIFY(drawnAt(image, byLoss, green));
        QVERIFY(!drawnAt(image, byAcc, green));

        // The runs' values change in the model (summaries read again): run 2's batch is 35
        // now. The plots are made again though the view gives them the same runs.
        runs[1].batch = 35;
        model.setSummaries(summariesOf(runs));
        QTRY_COMPARE(tabs.parallel()->table().rows.at(1).values.at(0), QVariant(35.0));
        const ParameterTable again = RunsParameterTable::of(model, shown, QStringLiteral("best_val_loss"), {});
        QCOMPARE(tabs.table().rows.at(1).values, again.rows.at(1).values);
        image = imageOf(parallel);
        QCOMPARE(image, freshParallel(again, parallel->size()));
        QVERIFY(!drawnAt(image, run2, green));  // where batch 20 was
        QVERIFY(drawnAt(image, between(parallel, 1, 0, 1, 0.5), green));

        // Another colour for run 2: drawn in it at once.
        RunColors::instance()->setChosen(2, orange);
        QTRY_VERIFY(drawnAt(imageOf(parallel), between(parallel, 1, 0, 1, 0.5), orange));
        QCOMPARE(imageOf(parallel), freshParallel(tabs.table(), parallel->size()));

        // Another size: the image follows.
        const QSize before = parallel->size();
        tabs.resize(760, 400);
        QTRY_VERIFY(parallel->size() != before);
        QCOMPARE(imageOf(parallel), freshParallel(tabs.table(), parallel->size()));

        // The pointer on run 3's line: drawn over the others; a click chooses run 3.
        const QPointF onRun3 = *parallel->pointOf(2, 1);
        QCOMPARE(parallel->rowAt(onRun3), 2);
        QMouseEvent move(QEvent::MouseMove, onRun3, parallel->mapToGlobal(onRun3), Qt::NoButton, {}, {});
        QApplication::sendEvent(parallel, &move);
        QCOMPARE(parallel->hoveredRow(), 2);
        QSignalSpy clicked(&tabs, &RunsPlotTabs::runClicked);
        QTest::mouseClick(parallel, Qt::LeftButton, {}, onRun3.toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toLongLong(), qint64(3));

        // The scatter: lr along x, then batch_size; each its own table's image.
        tabs.setCurrentIndex(RunsPlotTabs::ScatterTab);
        ParameterScatterPlot *scatter = tabs.scatter();
        tabs.setParameter(QStringLiteral("lr"));
        QCOMPARE(imageOf(scatter), freshScatter(tabs.table(), 1, scatter->size()));
        const QPointF lrDot = *scatter->pointOf(1);
        QVERIFY(drawnAt(imageOf(scatter), lrDot, orange));
        tabs.setParameter(QStringLiteral("batch_size"));
        QCOMPARE(scatter->parameter(), 0);
        image = imageOf(scatter);
        QCOMPARE(image, freshScatter(tabs.table(), 0, scatter->size()));
        QVERIFY(drawnAt(image, *scatter->pointOf(1), orange));
        QVERIFY(!drawnAt(image, lrDot, orange));  // lr 2 is a third along, batch 35 four fifths
        // And a click on a dot chooses its run.
        QTest::mouseClick(scatter, Qt::LeftButton, {}, scatter->pointOf(2)->toPoint());
        QCOMPARE(clicked.count(), 2);
        QCOMPARE(clicked.last().first().toLongLong(), qint64(3));
        saveGrab(scatter, QStringLiteral("runsplots-4-runs-scatter"));
        for (qint64 id = 1; id <= 4; ++id)
            RunColors::instance()->setChosen(id, {});
    }

    void manyRunsAtWholePixels()
    {
        // 2,500 runs (past 2,000: aliased lines), then every other one: each drawn as a plot
        // made afresh draws them.
        QList<Run> runs;
        const QStringList optimizers{QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("adamw")};
        for (int i = 0; i < 2500; ++i) {
            runs.append({100 + i, std::pow(10.0, -5 + 4.0 * ((i * 37) % 2500) / 2500), 16 << (i % 5), optimizers.at(i % 3),
                         0.5 + 0.4 * ((i * 53) % 2500) / 2500, 0.2 + 0.5 * ((i * 71) % 2500) / 2500});
        }
        RunsTableModel model;
        model.setScope(1, 3);
        model.setSnapshot(snapshotOf(runs));
        model.setSummaries(summariesOf(runs));
        RunsPlotTabs tabs(new QLabel(QStringLiteral("charts")));
        tabs.resize(1000, 460);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        tabs.setCurrentIndex(RunsPlotTabs::ParallelTab);
        QList<qint64> all;
        QList<qint64> half;
        for (const Run &r : runs) {
            all.append(r.id);
            if (r.id % 2)
                half.append(r.id);
        }
        tabs.setRuns(&model, all, {}, QStringLiteral("2,500 runs"));
        QCOMPARE(tabs.table().rows.size(), 2500);
        const QImage first = imageOf(tabs.parallel());
        QCOMPARE(first, freshParallel(tabs.table(), tabs.parallel()->size()));
        saveGrab(tabs.parallel(), QStringLiteral("runsplots-2500-runs"));
        tabs.setRuns(&model, half, {}, QStringLiteral("1,250 runs"));
        QCOMPARE(tabs.table().rows.size(), 1250);
        const QImage second = imageOf(tabs.parallel());
        QVERIFY(second != first);
        QCOMPARE(second, freshParallel(tabs.table(), tabs.parallel()->size()));
        tabs.setCurrentIndex(RunsPlotTabs::ScatterTab);
        tabs.setParameter(QStringLiteral("lr"));
        QCOMPARE(imageOf(tabs.scatter()), freshScatter(tabs.table(), tabs.scatter()->parameter(), tabs.scatter()->size()));
        saveGrab(tabs.scatter(), QStringLiteral("runsplots-1250-runs-scatter"));
    }
};

QTEST_MAIN(TestRunsPlots)
#include "tst_runsplots.moc"

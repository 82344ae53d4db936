// bench_runs: the Runs tab on a store of many runs (bench/runs/make_runs_store: 10,000 runs,
// 12 settings, 8 series of 1,000 points each), in the real window on the real Backend.
//  1. Cold start: the window made, the experiment chosen, until its RUNS rows are shown with
//     their summaries and tags; then sorted (best val_acc), filtered (`lr>1e-3 tag:best`) and
//     grouped (by optimizer), painted. Target: <= 1 s in all.
//  2. Each later sort and filter, painted. Target: <= 100 ms each.
//  3. Scrolling the table (down and across) a page a frame: the longest stall of the GUI
//     thread (StallMeter). Target: <= 16 ms.
//  4. Parallel coordinates and the setting-vs-metric scatter of every run shown: for another
//     metric or setting, and made again for other runs (all shown / every other), painted.
//     Target: <= 100 ms a redraw.
//  5. 100 runs chosen: their charts overlaid (read from the store by the Backend), drawn,
//     zoomed and panned. Targets: <= 100 ms to draw, <= 16 ms a pan/zoom frame.
//  6. The GUI's memory (RSS) with all of it open. Target: < 1 GB.
//  7. --overlay-points N: 100 runs of N points a series in memory (N = 50,000: 10 M points
//     over loss and accuracy) overlaid on one chart view, drawn, zoomed and panned.
// Not a test (ctest does not run it): it prints numbers for bench/RESULTS.md.
//   bench_runs --home DIR [--experiment runs] [--overlay-points 50000]
#include "MainWindow.h"
#include "common/DataPaths.h"
#include "StallMeter.h"
#include "charts/ChartPanel.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "charts/ParallelCoordinatesPlot.h"
#include "charts/ParameterScatterPlot.h"
#include "charts/ZoomableChartView.h"
#include "runs/RunsFilterModel.h"
#include "runs/RunsGroupModel.h"
#include "runs/RunsPlotTabs.h"
#include "runs/RunsTableModel.h"
#include "runs/RunsView.h"
#include "session/Backend.h"
#include "tree/ResourceTreeModel.h"

#include <QApplication>
#include <QChart>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLineSeries>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTableView>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

void wait(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until `done` holds (checked every 5 ms); false after `seconds`.
bool waitFor(const std::function<bool()> &done, double seconds)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > seconds * 1000)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::msleep(1);
    }
    return true;
}

// Paints the whole widget now, into an image (a repaint() may find nothing to do).
void paint(QWidget *widget)
{
    const QPixmap pixmap = widget->grab();
    Q_UNUSED(pixmap);
}

QString procField(const char *file, const char *field)
{
    QFile f(QString::fromLatin1(file));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field))
            return QString::fromUtf8(line.mid(line.indexOf(':') + 1).simplified());
    }
    return {};
}

double rssMb(const char *field = "VmRSS")
{
    return procField("/proc/self/status", field).section(QLatin1Char(' '), 0, 0).toDouble() / 1024.0;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().split(' ').mid(0, 3).join(' ')) : QString();
}

qint64 cpuNs(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Wall time, and the CPU time of the GUI thread (and of the whole process) meanwhile: on a
// busy machine the wall time includes waiting for a core, the CPU time does not.
struct Stopwatch
{
    QElapsedTimer wall;
    qint64 thread0 = 0, process0 = 0;
    void start()
    {
        wall.start();
        thread0 = cpuNs(CLOCK_THREAD_CPUTIME_ID);
        process0 = cpuNs(CLOCK_PROCESS_CPUTIME_ID);
    }
    void restart() { start(); }
    double cpuMs() const { return (cpuNs(CLOCK_THREAD_CPUTIME_ID) - thread0) / 1e6; }
    double processCpuMs() const { return (cpuNs(CLOCK_PROCESS_CPUTIME_ID) - process0) / 1e6; }
};

double ms(const Stopwatch &t)
{
    return t.wall.nsecsElapsed() / 1e6;
}

QString verdict(double value, double target)
{
    return value <= target ? QStringLiteral("met") : QStringLiteral("NOT met (%1x the target)").arg(value / target, 0, 'f', 1);
}

double maxOf(const QList<double> &v)
{
    return v.isEmpty() ? 0 : *std::max_element(v.cbegin(), v.cend());
}

double medianOf(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v.at(v.size() / 2);
}

struct Times
{
    QList<double> all;
    QList<double> cpu;  // the GUI thread's
    void add(const Stopwatch &t)
    {
        all.append(ms(t));
        cpu.append(t.cpuMs());
    }
    double max() const { return maxOf(all); }
    double maxCpu() const { return maxOf(cpu); }
    QString text() const
    {
        return QStringLiteral("median %1 ms, max %2 ms wall; GUI thread CPU median %3 ms, max %4 ms (%5 times)")
            .arg(medianOf(all), 0, 'f', 1).arg(max(), 0, 'f', 1).arg(medianOf(cpu), 0, 'f', 1).arg(maxCpu(), 0, 'f', 1)
            .arg(all.size());
    }
};

QList<MetricRecord> curve(int points, int run)
{
    QList<MetricRecord> records;
    records.reserve(points);
    for (int i = 1; i <= points; ++i) {
        MetricRecord r;
        r.kind = QStringLiteral("train");
        r.epoch = i / 1000;
        r.step = i % 1000;
        r.globalStep = i;
        r.time = 1700000000.0 + i;
        r.loss = 0.1 + run * 0.003 + 2.3 * std::exp(-i * 4.0 / points) + 0.03 * std::sin(i * 0.37 + run);
        r.acc = 1.0 - r.loss / 2.5;
        records.append(r);
    }
    return records;
}

// Sends `event` to the loss chart's viewport, as the window system would.
void send(QWidget *viewport, QEvent *event)
{
    QCoreApplication::sendEvent(viewport, event);
}

// The user's gestures on the loss chart, as input events: five wheel zooms in (a frame each:
// the event handled and the chart painted), the wheel's pause (the zoom applied and the
// lines reduced to the new range: a redraw), then a Shift+drag of 8 moves of 20 pixels (a
// frame each) and its release (the range applied and reduced again), and Home (all again).
// Frames paint the chart being worked (what the screen repaints); settles paint the view.
void zoomAndPan(MetricsChartView *view, Times &zoom, Times &pan, Times &settle)
{
    ChartPanel *loss = view->lossPanel();
    ZoomableChartView *chart = loss->view();
    QWidget *viewport = chart->viewport();
    const auto settled = [&] {
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        paint(view);
        return loss->drawnIsCurrent();
    };
    for (int i = 0; i < 5; ++i) {
        const QRectF plot = loss->chart()->plotArea();
        const QPoint at = chart->mapFromScene(loss->chart()->mapToScene(
            QPointF(plot.left() + plot.width() * (0.1 + 0.15 * i), plot.center().y())));
        for (int k = 0; k < 5; ++k) {
            Stopwatch t;
            t.start();
            QWheelEvent wheel(at, chart->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            send(viewport, &wheel);
            QCoreApplication::processEvents();
            paint(chart);
            zoom.add(t);
        }
        Stopwatch t;
        t.start();
        chart->finishGesture();  // what the wheel's pause does
        if (!settled())
            std::printf("  (the zoom's lines were not reduced to the new range)\n");
        settle.add(t);
        QPoint pos = at;
        QMouseEvent press(QEvent::MouseButtonPress, pos, chart->mapToGlobal(pos), Qt::LeftButton, Qt::LeftButton,
                          Qt::ShiftModifier);
        send(viewport, &press);
        for (int k = 0; k < 8; ++k) {
            t.restart();
            pos += QPoint(-20, 0);
            QMouseEvent move(QEvent::MouseMove, pos, chart->mapToGlobal(pos), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
            send(viewport, &move);
            QCoreApplication::processEvents();
            paint(chart);
            pan.add(t);
        }
        t.restart();
        QMouseEvent release(QEvent::MouseButtonRelease, pos, chart->mapToGlobal(pos), Qt::LeftButton, Qt::NoButton,
                            Qt::ShiftModifier);
        send(viewport, &release);
        if (!settled())
            std::printf("  (the pan's lines were not reduced to the new range)\n");
        settle.add(t);
        t.restart();
        QKeyEvent home(QEvent::KeyPress, Qt::Key_Home, Qt::NoModifier);
        QCoreApplication::sendEvent(chart, &home);
        settled();
        settle.add(t);
    }
}

// How many pixels of `a` and `b` differ, and an image of them (red) over a faint `a`.
int differingPixels(const QImage &a, const QImage &b, QImage *diff)
{
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    *diff = QImage(x.size(), QImage::Format_RGB32);
    int count = 0;
    for (int row = 0; row < x.height() && row < y.height(); ++row) {
        for (int col = 0; col < x.width() && col < y.width(); ++col) {
            const QRgb p = x.pixel(col, row), q = y.pixel(col, row);
            const bool differs = p != q;
            count += differs ? 1 : 0;
            diff->setPixel(col, row, differs ? qRgb(255, 0, 0) : qRgb(255 - (255 - qRed(p)) / 4, 255 - (255 - qGreen(p)) / 4,
                                                                         255 - (255 - qBlue(p)) / 4));
        }
    }
    return count;
}

// What the user sees, reduced and whole: `panel` grabbed as drawn (its lines reduced to the
// pixel columns), then with every line given all its points (`whole` by legend name; the
// run's own raw line as "\x01raw"), grabbed again; both saved under `dir` with their
// difference. Returns the pixels that differ.
int compareWithWhole(ChartPanel *panel, const QHash<QString, QList<QPointF>> &whole, const QString &dir, const QString &name)
{
    QCoreApplication::processEvents();
    const QImage reduced = panel->view()->grab().toImage();
    const QList<QAbstractSeries *> series = panel->chart()->series();
    for (QAbstractSeries *s : series) {
        auto *line = qobject_cast<QLineSeries *>(s);
        if (!line || !line->isVisible() || line->count() == 0)
            continue;
        const QString key = s == series.value(series.size() - 3) ? QStringLiteral("\x01raw") : line->name();
        if (whole.contains(key))
            line->replace(whole.value(key));
    }
    QCoreApplication::processEvents();
    const QImage full = panel->view()->grab().toImage();
    QImage diff;
    const int differing = differingPixels(reduced, full, &diff);
    reduced.save(dir + QStringLiteral("/%1-reduced.png").arg(name));
    full.save(dir + QStringLiteral("/%1-whole.png").arg(name));
    diff.save(dir + QStringLiteral("/%1-diff.png").arg(name));
    panel->resetZoom();
    return differing;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("TrainDesk runs benchmark"));
    parser.addHelpOption();
    const QCommandLineOption homeOption(QStringLiteral("home"), QStringLiteral("The data directory (make_runs_store's HOME)."), QStringLiteral("dir"));
    const QCommandLineOption experimentOption(QStringLiteral("experiment"), QStringLiteral("The experiment shown."), QStringLiteral("name"), QStringLiteral("runs"));
    const QCommandLineOption overlayOption(QStringLiteral("overlay-points"), QStringLiteral("Points a series of 100 runs in memory (0: skip)."),
                                           QStringLiteral("n"), QStringLiteral("50000"));
    const QCommandLineOption tableOnlyOption(QStringLiteral("table-only"), QStringLiteral("Only the cold start and the sorts and filters (1 and 2)."));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshots"),
                                              QStringLiteral("Save the overlaid charts reduced and whole (PNG) in this folder."),
                                              QStringLiteral("dir"));
    parser.addOptions({homeOption, experimentOption, overlayOption, tableOnlyOption, screenshotOption});
    parser.process(app);
    if (!parser.isSet(homeOption)) {
        std::fprintf(stderr, "bench_runs: --home DIR is needed (bench/runs/make_runs_store DIR)\n");
        return 2;
    }
    qputenv("TRAINDESK_HOME", parser.value(homeOption).toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TrainDeskBench"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, parser.value(homeOption) + QStringLiteral("/bench-settings"));
    QSettings().clear();
    std::printf("machine: %s, %d threads, %s; Qt %s, platform %s; load average before: %s\n",
                qPrintable(procField("/proc/cpuinfo", "model name")), QThread::idealThreadCount(),
                qPrintable(QSysInfo::prettyProductName()), qVersion(), qPrintable(QGuiApplication::platformName()),
                qPrintable(loadAverage()));
    const double rssBefore = rssMb();

    // 1. Cold start.
    Stopwatch cold;
    cold.start();
    Backend backend(DataPaths::databasePath());
    MainWindow window(&backend);
    window.resize(1400, 900);
    window.show();
    const ResourceSnapshot::ExperimentEntry *experiment = nullptr;
    if (!waitFor([&] {
            for (const auto &ws : backend.snapshot().workspaces) {
                for (const auto &e : ws.experiments) {
                    if (e.experiment.name == parser.value(experimentOption))
                        experiment = backend.snapshot().findExperiment(e.experiment.id);
                }
            }
            return experiment != nullptr;
        }, 120)) {
        std::fprintf(stderr, "bench_runs: no experiment '%s' in %s\n", qPrintable(parser.value(experimentOption)),
                     qPrintable(DataPaths::databasePath()));
        return 1;
    }
    const double snapshotMs = ms(cold);
    const int runs = int(experiment->jobs.size());
    const qint64 experimentId = experiment->experiment.id;
    window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Experiment, experimentId));
    RunsView *view = window.runsView();
    RunsTableModel *model = view->model();
    waitFor([&] { return model->rowCount() == runs; }, 120);
    paint(view->table());
    const double rowsMs = ms(cold);
    waitFor([&] { return model->columnOfKey(QStringLiteral("best_val_acc")) >= 0; }, 120);
    const double summariesMs = ms(cold);
    waitFor([&] {
        for (int r = 0; r < model->rowCount(); r += 7) {
            if (!model->noteOf(model->index(r, 0).data(RunsTableModel::JobIdRole).toLongLong()).tags.isEmpty())
                return true;
        }
        return false;
    }, 120);
    const double notesMs = ms(cold);
    Stopwatch part;
    part.start();
    view->table()->sortByColumn(model->columnOfKey(QStringLiteral("best_val_acc")), Qt::DescendingOrder);
    const double sortMs = ms(part);
    part.restart();
    view->filterEdit()->setText(QStringLiteral("lr>1e-3 tag:best"));
    const double filterMs = ms(part);
    part.restart();
    view->setGroupBy(QStringLiteral("optimizer"));
    const double groupMs = ms(part);
    part.restart();
    QCoreApplication::processEvents();
    paint(&window);
    const double paintMs = ms(part);
    const double coldMs = ms(cold);
    const int shown = view->filterModel()->rowCount();
    std::printf("\n1. cold start, %d runs (%d columns): snapshot %.0f ms, %d rows shown %.0f ms, summaries %.0f ms, "
                "tags %.0f ms; then sort %.0f ms, filter `lr>1e-3 tag:best` (%d rows) %.0f ms, group by optimizer "
                "(%d groups) %.0f ms, paint %.0f ms\n",
                runs, model->columnCount(), snapshotMs, runs, rowsMs, summariesMs, notesMs, sortMs, shown, filterMs,
                view->groupModel()->rowCount(), groupMs, paintMs);
    std::printf("  RESULT cold start to %d rows shown, sorted, filtered, grouped: %.0f ms wall (target <= 1000 ms): %s; "
                "CPU meanwhile: GUI thread %.0f ms, the whole process (its workers too) %.0f ms (load %s)\n",
                runs, coldMs, qPrintable(verdict(coldMs, 1000)), cold.cpuMs(), cold.processCpuMs(), qPrintable(loadAverage()));

    // 2. Later sorts and filters, each painted.
    Times sorts, filters;
    const QStringList sortKeys{QStringLiteral("lr"), QStringLiteral("val_loss"), QStringLiteral("started"),
                               QStringLiteral("optimizer"), QStringLiteral("state"), QStringLiteral("best_val_acc")};
    const QStringList filterTexts{QStringLiteral(""), QStringLiteral("lr>1e-3 tag:best"), QStringLiteral("optimizer=adam"),
                                  QStringLiteral("val_acc>0.8 batch_size<=128"), QStringLiteral("run-001"),
                                  QStringLiteral("tag:baseline"), QStringLiteral("")};
    for (int round = 0; round < 2; ++round) {
        for (const QString &filter : filterTexts) {
            for (const QString &key : sortKeys) {
                Stopwatch t;
                t.start();
                view->table()->sortByColumn(model->columnOfKey(key), round ? Qt::AscendingOrder : Qt::DescendingOrder);
                QCoreApplication::processEvents();
                paint(view->table());
                sorts.add(t);
            }
            Stopwatch t;
            t.start();
            view->filterEdit()->setText(filter);
            QCoreApplication::processEvents();
            paint(view->table());
            filters.add(t);
            if (round == 0)
                std::printf("  filter `%s`: %d rows, %.1f ms (GUI thread CPU %.1f ms)\n", qPrintable(filter),
                            view->filterModel()->rowCount(), filters.all.last(), filters.cpu.last());
        }
    }
    std::printf("2. later sorts (with the group table following): %s\n   later filters: %s\n", qPrintable(sorts.text()),
                qPrintable(filters.text()));
    std::printf("  RESULT sort %.1f ms, filter %.1f ms at most (target <= 100 ms): %s, %s; GUI thread CPU at most %.1f, %.1f ms "
                "(load %s)\n", sorts.max(), filters.max(), qPrintable(verdict(sorts.max(), 100)),
                qPrintable(verdict(filters.max(), 100)), sorts.maxCpu(), filters.maxCpu(), qPrintable(loadAverage()));

    if (parser.isSet(tableOnlyOption))
        return 0;

    // 3. Scrolling.
    view->setGroupBy(QString());
    view->filterEdit()->clear();
    QCoreApplication::processEvents();
    StallMeter meter;
    meter.start();
    wait(300);
    meter.reset();
    {
        QScrollBar *down = view->table()->verticalScrollBar();
        QScrollBar *across = view->table()->horizontalScrollBar();
        QEventLoop loop;
        QTimer frame;
        int step = 0;
        QObject::connect(&frame, &QTimer::timeout, &loop, [&] {
            // A page a frame to the end and back, then across the columns.
            if (step < 120)
                down->setValue(step < 60 ? down->value() + down->pageStep() * 3 : down->value() - down->pageStep() * 3);
            else if (step < 160)
                across->setValue(step < 140 ? across->value() + across->pageStep() : across->value() - across->pageStep());
            else
                loop.quit();
            ++step;
        });
        frame.start(16);
        loop.exec();
    }
    const double scrollMax = meter.maxMs();
    const double scrollCpu = meter.maxCpuMs();
    std::printf("3. scrolling (160 frames, 3 pages down a frame, then across): longest stall %.1f ms (p99 %.1f ms, %d probes); "
                "the GUI thread's own work in it at most %.1f ms\n", scrollMax, meter.percentileMs(99), meter.samples(), scrollCpu);
    std::printf("  RESULT scrolling stall %.1f ms (target <= 16 ms): %s (load %s)\n", scrollMax,
                qPrintable(verdict(scrollMax, 16)), qPrintable(loadAverage()));

    // 4. Parallel coordinates and the scatter over every run shown.
    RunsPlotTabs *plots = view->plots();
    // First shown: every run's settings read from the model, the table made, painted.
    Stopwatch firstShown;
    firstShown.start();
    plots->setCurrentIndex(RunsPlotTabs::ParallelTab);
    paint(plots->parallel());
    const double firstShownMs = ms(firstShown);
    const double firstShownCpu = firstShown.cpuMs();
    Times parallel, scatter;
    for (int i = 0; i < 5; ++i) {
        plots->setCurrentIndex(RunsPlotTabs::ParallelTab);
        Stopwatch t;
        t.start();
        plots->setMetric(i % 2 ? QStringLiteral("best_val_loss") : QStringLiteral("best_val_acc"));
        paint(plots->parallel());
        parallel.add(t);
        plots->setCurrentIndex(RunsPlotTabs::ScatterTab);
        t.restart();
        plots->setParameter(i % 2 ? QStringLiteral("batch_size") : QStringLiteral("lr"));
        paint(plots->scatter());
        scatter.add(t);
    }
    Times parallelPaint;
    plots->setCurrentIndex(RunsPlotTabs::ParallelTab);
    for (int i = 0; i < 3; ++i) {
        Stopwatch t;
        t.start();
        paint(plots->parallel());
        parallelPaint.add(t);
    }
    // Other runs (a filter, a choice of runs): the table made again from the model, and
    // painted; all the runs shown and every other one, in turn.
    const QList<qint64> allShown = plots->drawnJobs();
    QList<qint64> half;
    for (qsizetype i = 0; i < allShown.size(); i += 2)
        half.append(allShown.at(i));
    Times parallelRuns, scatterRuns;
    for (int i = 0; i < 6; ++i) {
        const bool scatterTab = i >= 3;
        plots->setCurrentIndex(scatterTab ? RunsPlotTabs::ScatterTab : RunsPlotTabs::ParallelTab);
        Stopwatch t;
        t.start();
        plots->setRuns(model, i % 2 ? half : allShown, {}, QStringLiteral("runs"));
        paint(scatterTab ? static_cast<QWidget *>(plots->scatter()) : plots->parallel());
        (scatterTab ? scatterRuns : parallelRuns).add(t);
    }
    plots->setRuns(model, allShown, {}, QStringLiteral("runs"));
    // With TRAINDESK_UI_GRABS=<folder>: what the plots of all the runs look like, to be looked at.
    if (const QString grabs = qEnvironmentVariable("TRAINDESK_UI_GRABS"); !grabs.isEmpty()) {
        for (int tab : {int(RunsPlotTabs::ParallelTab), int(RunsPlotTabs::ScatterTab)}) {
            plots->setCurrentIndex(tab);
            QCoreApplication::processEvents();
            plots->grab().save(grabs + (tab == RunsPlotTabs::ParallelTab ? QStringLiteral("/bench-runs-parallel.png")
                                                                        : QStringLiteral("/bench-runs-scatter.png")));
        }
    }
    std::printf("4. plots of %lld runs: parallel coordinates for another metric, painted %s (paint alone %s); setting vs "
                "metric for another setting %s; for other runs (all %lld / every other, the table made again from the "
                "model): parallel coordinates %s, setting vs metric %s\n",
                qlonglong(allShown.size()), qPrintable(parallel.text()), qPrintable(parallelPaint.text()),
                qPrintable(scatter.text()), qlonglong(allShown.size()), qPrintable(parallelRuns.text()),
                qPrintable(scatterRuns.text()));
    std::printf("  RESULT parallel coordinates %.1f ms, scatter %.1f ms a redraw (target <= 100 ms): %s, %s; GUI thread CPU "
                "at most %.1f, %.1f ms (load %s)\n", parallel.max(), scatter.max(), qPrintable(verdict(parallel.max(), 100)),
                qPrintable(verdict(scatter.max(), 100)), parallel.maxCpu(), scatter.maxCpu(), qPrintable(loadAverage()));
    std::printf("  RESULT plots first shown (every run's settings read from the model): %.1f ms (target <= 100 ms): %s; "
                "GUI thread CPU %.1f ms (load %s)\n", firstShownMs, qPrintable(verdict(firstShownMs, 100)), firstShownCpu,
                qPrintable(loadAverage()));
    std::printf("  RESULT plots made for other runs: parallel coordinates %.1f ms, scatter %.1f ms (target <= 100 ms): %s, %s; "
                "GUI thread CPU at most %.1f, %.1f ms (load %s)\n", parallelRuns.max(), scatterRuns.max(),
                qPrintable(verdict(parallelRuns.max(), 100)), qPrintable(verdict(scatterRuns.max(), 100)),
                parallelRuns.maxCpu(), scatterRuns.maxCpu(), qPrintable(loadAverage()));

    // 5. 100 runs overlaid from the store.
    plots->setCurrentIndex(RunsPlotTabs::ChartsTab);
    QList<qint64> chosen;
    for (int r = 0; r < 100 && r < view->filterModel()->rowCount(); ++r)
        chosen.append(view->filterModel()->index(r, 0).data(RunsTableModel::JobIdRole).toLongLong());
    MetricsChartView *charts = view->charts();
    Stopwatch overlay;
    overlay.start();
    view->chooseJobs(chosen);
    const bool loaded = waitFor([&] {
        if (charts->comparisons().size() < chosen.size() - 1 || view->series()->records().isEmpty())
            return false;
        for (const ComparedJob &c : charts->comparisons()) {
            if (!c.series || c.series->records().size() < 2)
                return false;
        }
        return true;
    }, 300);
    charts->redrawNow();
    paint(charts);
    const double overlayLoadMs = ms(overlay);
    qlonglong points = 0;
    for (const ComparedJob &c : charts->comparisons())
        points += c.series->records().size();
    points += view->series()->records().size();
    Times redraw, zoom, pan, settle;
    for (int i = 0; i < 5; ++i) {
        Stopwatch t;
        t.start();
        charts->redrawNow();
        paint(charts);
        redraw.add(t);
    }
    zoomAndPan(charts, zoom, pan, settle);
    std::printf("5. %lld runs chosen (%s, %lld records, each up to 8 values): read and first drawn in %.0f ms; redraw %s; "
                "zoom frame %s; pan frame %s; gesture end (range applied, lines reduced again, painted) %s; "
                "points Qt Charts holds of a run's loss line: %lld\n",
                qlonglong(chosen.size()), loaded ? "all read" : "NOT all read in 300 s", points, overlayLoadMs,
                qPrintable(redraw.text()), qPrintable(zoom.text()), qPrintable(pan.text()), qPrintable(settle.text()),
                qlonglong(charts->comparisons().isEmpty() ? 0 : charts->lossPanel()->drawnLine(charts->comparisons().first().name).size()));
    const double frame = std::max(zoom.max(), pan.max());
    const double redrawMax = std::max(redraw.max(), settle.max());
    std::printf("  RESULT overlay of %lld runs from the store: redraw %.1f ms (target <= 100 ms): %s; pan/zoom frame %.1f ms "
                "(target <= 16 ms): %s; GUI thread CPU at most %.1f ms a redraw, %.1f ms a frame (load %s)\n",
                qlonglong(chosen.size()), redrawMax, qPrintable(verdict(redrawMax, 100)), frame,
                qPrintable(verdict(frame, 16)), std::max(redraw.maxCpu(), settle.maxCpu()), std::max(zoom.maxCpu(), pan.maxCpu()),
                qPrintable(loadAverage()));

    // 6. Memory with all of it open.
    std::printf("6. GUI memory with the %d runs, the plots and the %lld overlaid runs open: RSS %.0f MB (peak %.0f MB; "
                "%.0f MB before the window)\n", runs, qlonglong(chosen.size()), rssMb(), rssMb("VmHWM"), rssBefore);
    std::printf("  RESULT GUI RSS %.0f MB (target < 1024 MB): %s\n", rssMb(), qPrintable(verdict(rssMb(), 1024)));

    // 7. 100 runs of many points in memory, overlaid.
    const int overlayPoints = parser.value(overlayOption).toInt();
    if (overlayPoints > 0) {
        std::vector<std::unique_ptr<MetricSeries>> series;  // outlive the view
        for (int run = 0; run < 100; ++run) {
            series.push_back(std::make_unique<MetricSeries>());
            series.back()->reset(curve(overlayPoints, run));
        }
        MetricsChartView big(series.front().get());
        big.resize(1280, 600);
        big.show();
        wait(100);
        QList<QPair<qint64, QString>> candidates;
        for (int run = 1; run < 100; ++run)
            candidates.append({run, QStringLiteral("run %1").arg(run)});
        big.setComparisonCandidates(candidates);
        Stopwatch first;
        first.start();
        for (int run = 1; run < 100; ++run)
            big.addComparison({run, candidates.at(run - 1).second, series.at(run).get()});
        big.redrawNow();
        paint(&big);
        const double firstMs = ms(first);
        Times bigRedraw, bigZoom, bigPan, bigSettle;
        for (int i = 0; i < 5; ++i) {
            Stopwatch t;
            t.start();
            big.redrawNow();
            paint(&big);
            bigRedraw.add(t);
        }
        zoomAndPan(&big, bigZoom, bigPan, bigSettle);
        std::printf("7. 100 runs x %d records (loss and accuracy: %lld points) in memory: first draw %.0f ms; redraw %s; "
                    "zoom frame %s; pan frame %s; gesture end %s; RSS now %.0f MB\n",
                    overlayPoints, qlonglong(overlayPoints) * 200, firstMs, qPrintable(bigRedraw.text()),
                    qPrintable(bigZoom.text()), qPrintable(bigPan.text()), qPrintable(bigSettle.text()), rssMb());
        if (parser.isSet(screenshotOption)) {
            // The 100 runs as drawn and whole: the smoothed line of each, the shown run's raw.
            const QString dir = parser.value(screenshotOption);
            QHash<QString, QList<QPointF>> whole;
            for (int run = 1; run < 100; ++run)
                whole.insert(candidates.at(run - 1).second,
                             series.at(run)->smoothedPoints(MetricSeries::Metric::TrainLoss, MetricSeries::XAxis::Step, big.smoothing()));
            whole.insert(QStringLiteral("\x01raw"), series.front()->points(MetricSeries::Metric::TrainLoss));
            whole.insert(big.lossPanel()->chart()->series().value(big.lossPanel()->chart()->series().size() - 2)->name(),
                         series.front()->smoothedPoints(MetricSeries::Metric::TrainLoss, MetricSeries::XAxis::Step, big.smoothing()));
            const int differing = compareWithWhole(big.lossPanel(), whole, dir, QStringLiteral("overlay-100-runs"));
            // One noisy line of 100,000 points with two one-point spikes, alone.
            ChartPanel spikes(QStringLiteral("One line, 100,000 points, two spikes"), QStringLiteral("loss"));
            spikes.resize(900, 450);
            spikes.show();
            QList<QPointF> points;
            for (int i = 0; i < 100000; ++i)
                points.append(QPointF(i, 1.0 + 0.3 * std::exp(-i / 20000.0) + 0.05 * std::sin(i * 0.37) + 0.02 * ((i * 7919) % 11)));
            points[31234].setY(2.5);
            points[71234].setY(0.2);
            spikes.setData(points, {}, {}, false);
            wait(100);
            const int spikeDiffering = compareWithWhole(&spikes, {{QStringLiteral("\x01raw"), points}}, dir, QStringLiteral("spikes"));
            std::printf("   screenshots in %s: 100 runs overlaid, reduced vs whole: %d pixels differ; one line of 100,000 "
                        "points with spikes: %d pixels differ (of %d)\n", qPrintable(dir), differing, spikeDiffering,
                        spikes.view()->width() * spikes.view()->height());
        }
        const double bigFrame = std::max(bigZoom.max(), bigPan.max());
        const double bigRedrawMax = std::max(bigRedraw.max(), bigSettle.max());
        std::printf("  RESULT overlay of %lld points: redraw %.1f ms (target <= 100 ms): %s; pan/zoom frame %.1f ms "
                    "(target <= 16 ms): %s; GUI thread CPU at most %.1f ms a redraw, %.1f ms a frame (load %s); "
                    "GUI RSS %.0f MB (target < 1024 MB): %s\n",
                    qlonglong(overlayPoints) * 200, bigRedrawMax, qPrintable(verdict(bigRedrawMax, 100)), bigFrame,
                    qPrintable(verdict(bigFrame, 16)), std::max(bigRedraw.maxCpu(), bigSettle.maxCpu()),
                    std::max(bigZoom.maxCpu(), bigPan.maxCpu()), qPrintable(loadAverage()), rssMb(),
                    qPrintable(verdict(rssMb(), 1024)));
    }
    meter.stop();
    std::printf("load average after: %s\n", qPrintable(loadAverage()));
    return 0;
}

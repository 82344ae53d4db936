// bench_gui: how the GUI holds up, on this machine.
//  1. The longest stall of the GUI event loop while a fake job writes 10,000 metric
//     records a second and a 100 MB log into its job directory: the real Backend and
//     MainWindow follow it (charts tab first, then the logs tab). Target: < 50 ms.
//  2. A chart of 1,000,000 points: redrawn (series -> downsampled -> painted) and zoomed
//     into 1% of its range (re-downsampled to what is shown, painted). Target: < 100 ms.
//  3. A chart growing by 1,000 records a redraw up to 200,000 (a 10,000-a-second job).
// Not a test (ctest does not run it): it prints numbers for bench/RESULTS.md.
//   bench_gui [--seconds 20] [--rate 10000] [--log-mb 100] [--points 1000000]
// BENCH_VERBOSE=1 adds the charts' paint time mid-stream and the growing chart's steps.
#include "FakeJob.h"
#include "MainWindow.h"
#include "JobStreamer.h"
#include "StallMeter.h"
#include "charts/ChartPanel.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "job/JobView.h"
#include "logs/LogView.h"
#include "session/Backend.h"

#include <QApplication>
#include <QChart>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

qint64 threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Times every event the GUI thread handles (outermost ones only), in CPU time so that
// waiting for a core on a busy machine does not count: which handlers hold the loop.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Slow
    {
        double ms;     // the GUI thread's CPU time in the handler
        double wallMs;
        QString what;
    };

    bool notify(QObject *receiver, QEvent *event) override
    {
        // notify() runs in every thread: only the GUI thread's events count here.
        if (m_depth > 0 || !m_timing || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const qint64 cpu0 = threadCpuNs();
        const int type = event->type();
        const QString what = QString::fromLatin1(receiver->metaObject()->className());
        const bool result = QApplication::notify(receiver, event);
        const double wallMs = t.nsecsElapsed() / 1e6;
        const double ms = double(threadCpuNs() - cpu0) / 1e6;
        --m_depth;
        if (ms > 5) {
            QString name = what;
            if (!receiver->objectName().isEmpty())
                name += QLatin1Char(' ') + receiver->objectName();
            if (receiver->parent())
                name += QStringLiteral(" in ") + QString::fromLatin1(receiver->parent()->metaObject()->className());
            m_slow.append({ms, wallMs, QStringLiteral("%1 (event %2)").arg(name).arg(type)});
            std::sort(m_slow.begin(), m_slow.end(), [](const Slow &a, const Slow &b) { return a.ms > b.ms; });
            if (m_slow.size() > 8)
                m_slow.resize(8);
        }
        return result;
    }

    void startTiming()
    {
        m_slow.clear();
        m_timing = true;
    }
    QList<Slow> slowest() const { return m_slow; }

private:
    int m_depth = 0;
    bool m_timing = false;
    QList<Slow> m_slow;
};

void wait(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

QString cpuModel()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : cpuinfo.readAll().split('\n')) {
            if (line.startsWith("model name"))
                return QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
        }
    }
    return QSysInfo::currentCpuArchitecture();
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().split(' ').mid(0, 3).join(' ')) : QString();
}

struct Phase
{
    QString name;
    double maxMs = 0;
    double p99Ms = 0;
    int over50 = 0;
    int samples = 0;
    double maxCpuMs = 0;
    double p99CpuMs = 0;
};

Phase measure(StallMeter &meter, const QString &name, int ms)
{
    meter.reset();
    wait(ms);
    return {name, meter.maxMs(), meter.percentileMs(99), meter.countOver(50), meter.samples(),
            meter.maxCpuMs(), meter.percentileCpuMs(99)};
}

// Paints the whole widget now, into an image (a repaint() may find nothing to do).
void paint(QWidget &widget)
{
    const QPixmap pixmap = widget.grab();
    Q_UNUSED(pixmap);
}

// `ranks` > 0: each train record followed by one "rank" record per rank (the trainer's form).
QList<MetricRecord> millionRecords(int count, int ranks = 0)
{
    QList<MetricRecord> records;
    records.reserve(qsizetype(count) * (1 + ranks) + count / 10000 + 1);
    for (int i = 1; i <= count; ++i) {
        MetricRecord r;
        r.kind = QStringLiteral("train");
        r.epoch = i / 10000 + 1;
        r.step = i % 10000;
        r.globalStep = i;
        r.time = 1700000000.0 + i * 0.01;
        r.loss = 2.3 * std::exp(-i / 300000.0) + 0.05 * std::sin(i * 0.37);
        r.acc = 1.0 - r.loss / 2.5;
        records.append(r);
        for (int k = 0; k < ranks; ++k) {
            MetricRecord m = r;
            m.kind = QStringLiteral("rank");
            m.rank = k;
            m.loss = r.loss + 0.02 * (k - ranks / 2.0) + 0.03 * std::sin(i * 0.11 + k);
            records.append(m);
        }
        if (i % 10000 == 0) {
            MetricRecord v;
            v.kind = QStringLiteral("val");
            v.epoch = r.epoch - 1;
            v.globalStep = i;
            v.time = r.time;
            v.valLoss = r.loss * 1.1;
            v.valAcc = r.acc * 0.98;
            records.append(v);
        }
    }
    return records;
}

// Runs `body` `runs` times; returns the times in ms, sorted.
template<typename Body>
QList<double> timed(int runs, Body body)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        body(i);
        times.append(t.nsecsElapsed() / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times;
}

// --watch-home: the window on a data directory where the agent already watches running jobs
// (bench/agent/run_watch_bench.sh): the longest stall while the agent's pushes arrive.
int watchExistingHome(TimingApplication &app, const QString &home, double seconds)
{
    qputenv("TRAINDESK_HOME", home.toUtf8());
    Store store;
    if (!store.open(DataPaths::databasePath())) {
        std::fprintf(stderr, "bench_gui: cannot open %s\n", qPrintable(DataPaths::databasePath()));
        return 1;
    }
    const QList<Job> running = store.jobsInStates({JobState::Running});
    if (running.isEmpty()) {
        std::fprintf(stderr, "bench_gui: no running job in %s\n", qPrintable(home));
        return 1;
    }
    Backend backend(DataPaths::databasePath());
    MainWindow window(&backend);
    window.resize(1280, 800);
    window.show();
    for (int i = 0; i < 100 && !window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, running.first().id)); ++i)
        wait(50);
    window.jobView()->setCurrentIndex(JobView::ChartsTab);
    wait(1000);
    StallMeter meter;
    meter.start();
    app.startTiming();
    const Phase phase = measure(meter, QStringLiteral("agent watching, charts tab"), int(seconds * 1000));
    meter.stop();
    std::printf("GUI connected to the agent with %lld running jobs, one job's charts shown, %.0f s: "
                "longest stall %.1f ms (p99 %.1f ms, %d of %d probes over 50 ms; GUI thread's own work at most %.1f ms)\n",
                qlonglong(running.size()), seconds, phase.maxMs, phase.p99Ms, phase.over50, phase.samples, phase.maxCpuMs);
    for (const auto &slow : app.slowest())
        std::printf("  slowest handler: %.1f ms CPU (%.1f ms wall) %s\n", slow.ms, slow.wallMs, qPrintable(slow.what));
    return 0;
}

QString summary(const QList<double> &sorted)
{
    return QStringLiteral("median %1 ms, max %2 ms (%3 runs)")
        .arg(sorted.at(sorted.size() / 2), 0, 'f', 1)
        .arg(sorted.last(), 0, 'f', 1)
        .arg(sorted.size());
}

} // namespace

int main(int argc, char *argv[])
{
    TimingApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("TrainDesk GUI benchmark"));
    parser.addHelpOption();
    const QCommandLineOption secondsOption(QStringLiteral("seconds"), QStringLiteral("Streaming time (s)."), QStringLiteral("s"), QStringLiteral("20"));
    const QCommandLineOption rateOption(QStringLiteral("rate"), QStringLiteral("Metric records a second."), QStringLiteral("n"), QStringLiteral("10000"));
    const QCommandLineOption logOption(QStringLiteral("log-mb"), QStringLiteral("Log size (MB)."), QStringLiteral("mb"), QStringLiteral("100"));
    const QCommandLineOption pointsOption(QStringLiteral("points"), QStringLiteral("Chart points."), QStringLiteral("n"), QStringLiteral("1000000"));
    const QCommandLineOption watchHomeOption(QStringLiteral("watch-home"),
                                            QStringLiteral("Only measure the window on this data directory, whose agent watches running jobs."),
                                            QStringLiteral("dir"));
    parser.addOptions({secondsOption, rateOption, logOption, pointsOption, watchHomeOption});
    parser.process(app);
    if (parser.isSet(watchHomeOption)) {
        QStandardPaths::setTestModeEnabled(true);
        return watchExistingHome(app, parser.value(watchHomeOption), std::max(2.0, parser.value(secondsOption).toDouble()));
    }
    const double seconds = std::max(2.0, parser.value(secondsOption).toDouble());
    const int rate = parser.value(rateOption).toInt();
    const qint64 logBytes = qint64(parser.value(logOption).toDouble() * 1024 * 1024);
    const int points = parser.value(pointsOption).toInt();

    QTemporaryDir home;
    qputenv("TRAINDESK_HOME", home.path().toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TrainDeskBench"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, home.filePath(QStringLiteral("settings")));

    std::printf("machine: %s, %d threads, %s; Qt %s, platform %s; load average before: %s\n",
                qPrintable(cpuModel()), QThread::idealThreadCount(), qPrintable(QSysInfo::prettyProductName()),
                qVersion(), qPrintable(QGuiApplication::platformName()), qPrintable(loadAverage()));

    // 1. A job streaming metrics and its log, followed by the real window.
    {
        Store store;
        if (!store.open(DataPaths::databasePath()) || !EmbeddedDefaults::ensure(store)) {
            std::fprintf(stderr, "bench_gui: cannot set up the data directory\n");
            return 1;
        }
        const QString jobDir = home.filePath(QStringLiteral("job"));
        const qint64 jobId = createFakeRunningJob(store, QStringLiteral("stream"), jobDir);
        if (!jobId) {
            std::fprintf(stderr, "bench_gui: cannot create the job\n");
            return 1;
        }
        Backend backend(DataPaths::databasePath());  // the app's poll interval
        MainWindow window(&backend);
        window.resize(1280, 800);
        window.show();
        for (int i = 0; i < 100 && !window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, jobId)); ++i)
            wait(50);
        window.jobView()->setCurrentIndex(JobView::ChartsTab);
        wait(500);

        StallMeter meter;
        meter.start();
        const Phase idle = measure(meter, QStringLiteral("idle (no job output)"), 2000);
        JobStreamer streamer(jobDir + QStringLiteral("/stdouterr"), rate, logBytes, seconds);
        streamer.start();
        const int half = int(seconds * 500);
        app.startTiming();
        const Phase charts = measure(meter, QStringLiteral("streaming, charts tab"), half);
        const QList<TimingApplication::Slow> chartsSlowest = app.slowest();
        app.startTiming();
        if (qEnvironmentVariableIsSet("BENCH_VERBOSE")) {
            // Paint cost of the charts as they are now, with and without smoothing.
            MetricsChartView *charts = window.jobView()->charts();
            for (double smoothing : {0.6, 0.0, 0.6}) {
                charts->setSmoothing(smoothing);
                charts->redrawNow();
                QElapsedTimer t;
                t.start();
                paint(*charts);
                std::printf("charts paint with smoothing %.1f: %.1f ms (raw %d, smooth %d points per panel)\n", smoothing,
                            t.nsecsElapsed() / 1e6, charts->lossPanel()->rawCount(), charts->lossPanel()->smoothCount());
            }
        }
        window.jobView()->setCurrentIndex(JobView::LogsTab);
        const Phase logs = measure(meter, QStringLiteral("streaming, logs tab (following)"), half);
        const QList<TimingApplication::Slow> logsSlowest = app.slowest();
        streamer.stop();
        const Phase drain = measure(meter, QStringLiteral("after the stream (catching up)"), 3000);
        meter.stop();

        std::printf("\nstream: %.0f s, %lld metric records (%.0f/s), %.1f MB of log; the chart holds %lld records, "
                    "the log view %d lines\n",
                    seconds, qlonglong(streamer.recordsWritten()), double(streamer.recordsWritten()) / seconds,
                    double(streamer.logBytesWritten()) / 1048576.0, qlonglong(window.jobView()->series()->records().size()),
                    window.jobView()->logs()->textView()->blockCount());
        std::printf("  (stall: how late a probe posted every 2 ms ran; GUI CPU: the GUI thread's own work in that time)\n");
        for (const Phase &p : {idle, charts, logs, drain}) {
            std::printf("  %-34s longest stall %6.1f ms (p99 %5.1f, %d of %d probes > 50 ms); GUI CPU in it: max %5.1f ms, p99 %5.1f ms\n",
                        qPrintable(p.name), p.maxMs, p.p99Ms, p.over50, p.samples, p.maxCpuMs, p.p99CpuMs);
        }
        for (const auto &[name, slow] : {std::pair{QStringLiteral("charts tab"), chartsSlowest},
                                          std::pair{QStringLiteral("logs tab"), logsSlowest}}) {
            QStringList parts;
            for (const TimingApplication::Slow &s : slow)
                parts << QStringLiteral("%1 ms CPU (%2 ms wall) %3").arg(s.ms, 0, 'f', 1).arg(s.wallMs, 0, 'f', 1).arg(s.what);
            std::printf("  slowest event handlers, %s: %s\n", qPrintable(name),
                        parts.isEmpty() ? "none over 5 ms" : qPrintable(parts.join(QStringLiteral("; "))));
        }
        const double worst = std::max({charts.maxMs, logs.maxMs, drain.maxMs});
        const double worstCpu = std::max({charts.maxCpuMs, logs.maxCpuMs, drain.maxCpuMs});
        std::printf("  RESULT event loop: longest stall while streaming %.1f ms (target < 50 ms): %s; "
                    "of it the GUI thread's own work at most %.1f ms\n", worst, worst < 50 ? "met" : "NOT met", worstCpu);
        appendToFile(jobDir + QStringLiteral("/exit_code"), "0\n");
    }

    // 2. One chart view, a million points.
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1280, 600);
        view.show();
        wait(200);
        QElapsedTimer load;
        load.start();
        series.reset(millionRecords(points));
        const double loadMs = load.nsecsElapsed() / 1e6;
        // The first redraw also builds the series' per-metric caches.
        QElapsedTimer firstTimer;
        firstTimer.start();
        view.redrawNow();
        paint(view);
        const double firstMs = firstTimer.nsecsElapsed() / 1e6;
        const auto redraw = timed(7, [&](int) {
            view.redrawNow();
            paint(view);
        });
        std::printf("\nchart: %d points (+ %d validation points), loaded into the series in %.0f ms\n", points,
                    points / 10000, loadMs);
        std::printf("  first redraw (builds the per-metric caches, paints): %.1f ms\n", firstMs);
        // Where a redraw's time goes: the series, smoothing, downsampling, the chart itself.
        QElapsedTimer part;
        part.start();
        const QList<QPointF> raw = series.points(MetricSeries::Metric::TrainLoss);
        const double pointsMs = part.nsecsElapsed() / 1e6;
        part.restart();
        const QList<QPointF> smooth = series.smoothedPoints(MetricSeries::Metric::TrainLoss, MetricSeries::XAxis::Step, view.smoothing());
        const double smoothMs = part.nsecsElapsed() / 1e6;
        part.restart();
        const QList<QPointF> drawn = MetricSeries::downsampled(raw, MetricsChartView::maxDrawnPoints);
        const QList<QPointF> drawnSmooth = MetricSeries::downsampled(smooth, MetricsChartView::maxDrawnPoints);
        const double downMs = part.nsecsElapsed() / 1e6;
        part.restart();
        view.lossPanel()->setData(drawn, drawnSmooth, {}, true);
        const double setMs = part.nsecsElapsed() / 1e6;
        part.restart();
        paint(view);
        const double paintMs = part.nsecsElapsed() / 1e6;
        std::printf("  breakdown of a redraw, one metric: points %.1f ms, smoothing %.1f ms, downsampling %.1f ms, "
                    "series update %.1f ms; painting both charts %.1f ms\n",
                    pointsMs, smoothMs, downMs, setMs, paintMs);

        ChartPanel *loss = view.lossPanel();
        QList<double> zoom, unzoom;
        for (int i = 0; i < 7; ++i) {
            // 1% of the range, a different part each time, then back to all of it.
            const QRectF plot = loss->chart()->plotArea();
            const double left = plot.left() + plot.width() * (0.1 + 0.1 * i);
            QElapsedTimer t;
            t.start();
            loss->chart()->zoomIn(QRectF(left, plot.top(), plot.width() * 0.01, plot.height()));
            view.redrawNow();
            paint(view);
            zoom.append(t.nsecsElapsed() / 1e6);
            t.restart();
            loss->resetZoom();  // redraws the whole range at once
            paint(view);
            unzoom.append(t.nsecsElapsed() / 1e6);
        }
        std::sort(zoom.begin(), zoom.end());
        std::sort(unzoom.begin(), unzoom.end());
        std::printf("  redraw (points, smoothing, downsampling, paint of both charts): %s\n", qPrintable(summary(redraw)));
        std::printf("  zoom into 1%% (re-downsampled to what is shown, painted): %s\n", qPrintable(summary(zoom)));
        std::printf("  reset zoom (whole range again, painted): %s\n", qPrintable(summary(unzoom)));
        const double worst = std::max({firstMs, redraw.last(), zoom.last(), unzoom.last()});
        std::printf("  RESULT chart: slowest redraw or zoom %.1f ms (target < 100 ms): %s\n", worst,
                    worst < 100 ? "met" : "NOT met");
    }
    // 2b. The same million points with a line per rank (2 ranks) and another job of a
    // million points overlaid: five lines a chart instead of two.
    {
        MetricSeries series;
        MetricSeries other;
        MetricsChartView view(&series);
        view.resize(1280, 600);
        view.show();
        wait(200);
        series.reset(millionRecords(points, 2));
        other.reset(millionRecords(points));
        view.setComparisonCandidates({{1, QStringLiteral("other")}});
        view.addComparison({1, QStringLiteral("other"), &other});
        view.setPerRank(false);
        QElapsedTimer firstTimer;
        firstTimer.start();
        view.setPerRank(true);  // redraws: builds the rank and compared caches
        paint(view);
        const double firstMs = firstTimer.nsecsElapsed() / 1e6;
        const auto redraw = timed(7, [&](int) {
            view.redrawNow();
            paint(view);
        });
        ChartPanel *loss = view.lossPanel();
        const auto zoom = timed(7, [&](int i) {
            const QRectF plot = loss->chart()->plotArea();
            loss->chart()->zoomIn(QRectF(plot.left() + plot.width() * (0.1 + 0.1 * i), plot.top(), plot.width() * 0.01,
                                         plot.height()));
            view.redrawNow();
            paint(view);
            loss->resetZoom();
            paint(view);
        });
        std::printf("\nchart with ranks and a compared job: %d points x (job + 2 ranks) + %d points of another job; "
                    "%d extra lines a chart\n", points, points, int(loss->lineNames().size()));
        std::printf("  first redraw with both (builds their caches, paints): %.1f ms\n", firstMs);
        std::printf("  redraw: %s\n", qPrintable(summary(redraw)));
        std::printf("  zoom into 1%% and back (two redraws, painted): %s\n", qPrintable(summary(zoom)));
        const double worst = std::max({firstMs, redraw.last(), zoom.last() / 2});
        std::printf("  RESULT chart with ranks and a compared job: slowest redraw %.1f ms (target < 100 ms): %s\n", worst,
                    worst < 100 ? "met" : "NOT met");
    }
    // 3. A chart growing as a job streams: 1,000 records per redraw (10,000 a second at
    // 10 redraws a second), redrawn, then the events that follow (scene update, paint).
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(960, 640);
        view.show();
        wait(200);
        QList<MetricRecord> all;
        for (int i = 1; i <= 200000; ++i) {
            MetricRecord r;
            r.kind = QStringLiteral("train");
            r.epoch = i / 50000 + 1;
            r.step = i % 50000;
            r.globalStep = i;
            r.time = 1700000000.0 + i * 0.0001;
            r.loss = 2.3 * std::exp(-double(i) / 200000.0) + 0.05 * std::sin(double(i));
            r.acc = 1.0 - r.loss / 2.5;
            all.append(r);
        }
        QList<double> redraws, events;
        for (int i = 0; i < 200; ++i) {
            series.append(all.mid(i * 1000, 1000));
            QElapsedTimer t;
            t.start();
            view.redrawNow();
            redraws.append(t.nsecsElapsed() / 1e6);
            t.restart();
            QCoreApplication::processEvents();
            events.append(t.nsecsElapsed() / 1e6);
            if (qEnvironmentVariableIsSet("BENCH_VERBOSE") && i % 20 == 0)
                std::printf("step %d: redraw %.1f ms, events %.1f ms\n", i, redraws.last(), events.last());
        }
        std::sort(redraws.begin(), redraws.end());
        std::sort(events.begin(), events.end());
        std::printf("\ngrowing chart (1,000 records a redraw up to 200,000): redraw %s; the events after it %s\n",
                    qPrintable(summary(redraws)), qPrintable(summary(events)));
    }
    std::printf("load average after: %s\n", qPrintable(loadAverage()));
    return 0;
}

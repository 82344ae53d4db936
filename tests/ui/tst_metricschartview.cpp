// MetricsChartView: coalesced redraws, zoom kept while data arrives, smoothing, log
// scale and export.
#include "TestHome.h"
#include "charts/ChartPanel.h"
#include "charts/CompareJobsButton.h"
#include "charts/MetricsChartView.h"
#include "charts/ZoomableChartView.h"

#include <QChart>
#include <QCheckBox>
#include <QLegend>
#include <QLegendMarker>
#include <QMenu>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSplitter>
#include <QMessageBox>
#include <QTest>
#include <QMouseEvent>
#include <QWheelEvent>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QList<MetricRecord> trainRecords(qint64 fromStep, int count)
{
    QList<MetricRecord> records;
    for (int i = 0; i < count; ++i) {
        MetricRecord r;
        r.kind = QStringLiteral("train");
        r.epoch = 1;
        r.step = r.globalStep = fromStep + i;
        r.loss = 2.0 / (1 + 0.01 * double(r.globalStep));
        r.acc = 1 - r.loss / 2.5;
        r.time = 1000 + double(r.globalStep);
        records.append(r);
    }
    return records;
}

// Each rank's own values beside a train record: rank r's loss is the job's plus r/10.
QList<MetricRecord> rankRecords(const QList<MetricRecord> &train, int ranks)
{
    QList<MetricRecord> records;
    for (const MetricRecord &t : train) {
        records.append(t);
        for (int r = 0; r < ranks; ++r) {
            MetricRecord m = t;
            m.kind = QStringLiteral("rank");
            m.rank = r;
            m.loss = t.loss + r / 10.0;
            records.append(m);
        }
    }
    return records;
}

// The range shows [low, high] without much room to spare.
bool covers(const QPointF &range, double low, double high)
{
    const double span = high - low;
    const bool ok = range.x() <= low && range.y() >= high && range.x() >= low - span * 0.5 && range.y() <= high + span * 0.5;
    if (!ok)
        qWarning("range %g..%g does not fit %g..%g", range.x(), range.y(), low, high);
    return ok;
}

} // namespace

class TestMetricsChartView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void redrawsAreCoalesced()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(900, 500);
        view.show();
        const int before = view.redrawCount();
        QElapsedTimer timer;
        timer.start();
        // Batches far faster than 10 a second.
        for (int i = 0; i < 300; ++i) {
            series.append(trainRecords(i * 5 + 1, 5));
            QCoreApplication::processEvents();
            QTest::qWait(1);
        }
        // Everything drawn, in no more points than the plot has pixel columns for.
        QTRY_COMPARE_WITH_TIMEOUT(view.lossPanel()->drawnRaw().isEmpty() ? 0.0 : view.lossPanel()->drawnRaw().last().x(), 1500.0, 2000);
        QVERIFY(view.lossPanel()->rawCount() <= 3 * view.lossPanel()->plotWidth() + 1);
        QVERIFY(view.lossPanel()->rawCount() >= MetricsChartView::minDrawnPoints);
        const qint64 elapsed = timer.elapsed();
        const int redraws = view.redrawCount() - before;
        QVERIFY2(redraws <= elapsed / MetricsChartView::redrawIntervalMs + 2,
                 qPrintable(QStringLiteral("%1 redraws in %2 ms").arg(redraws).arg(elapsed)));
        QVERIFY(redraws >= 1);
        // Auto-fit covers the data, rounded to nice numbers.
        QVERIFY(covers(view.lossPanel()->xRange(), 1, 1500));
        QVERIFY(view.accuracyPanel()->yRange().y() <= 1.05);  // room above an accuracy of 1
    }

    void zoomIsKeptWhileDataArrives()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(trainRecords(1, 100));
        QTRY_COMPARE(view.lossPanel()->rawCount(), 100);
        ChartPanel *loss = view.lossPanel();
        QVERIFY(loss->isAutoFit());
        QSignalSpy autoFit(loss, &ChartPanel::autoFitChanged);
        // The user zooms into the middle of the plot.
        const QRectF plot = loss->chart()->plotArea();
        loss->chart()->zoomIn(QRectF(plot.center() - QPointF(plot.width() / 4, plot.height() / 4), plot.size() / 2));
        QVERIFY(!loss->isAutoFit());
        QCOMPARE(autoFit.count(), 1);
        const QPointF zoomedX = loss->xRange();
        QVERIFY(zoomedX.y() < 100);
        const int before = view.redrawCount();
        series.append(trainRecords(101, 100));
        QTRY_VERIFY(view.redrawCount() > before);
        QCOMPARE(loss->xRange(), zoomedX);  // kept
        // What is drawn is what is shown, to one point past each edge.
        const QList<QPointF> drawn = loss->drawnRaw();
        QVERIFY(!drawn.isEmpty());
        QVERIFY(drawn.first().x() <= zoomedX.x() && drawn.last().x() >= zoomedX.y());
        QVERIFY(drawn.last().x() < 100);
        QVERIFY(view.accuracyPanel()->isAutoFit());
        QVERIFY(covers(view.accuracyPanel()->xRange(), 1, 200));  // the other chart still follows
        loss->resetZoom();
        QVERIFY(loss->isAutoFit());
        QVERIFY(covers(loss->xRange(), 1, 200));
    }

    void zoomingInShowsDetail()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(trainRecords(1, 100000));
        view.redrawNow();
        ChartPanel *loss = view.lossPanel();
        QVERIFY(loss->rawCount() <= MetricsChartView::maxDrawnPoints + 1);
        // All of it: a bucket every ~100 steps. Zoomed to 200 steps: every step.
        int inWindow = 0;
        for (const QPointF &p : loss->drawnRaw())
            inWindow += p.x() >= 50000 && p.x() <= 50200 ? 1 : 0;
        QVERIFY(inWindow < 20);
        const QRectF plot = loss->chart()->plotArea();
        const QPointF from = loss->chart()->mapToPosition(QPointF(50000, loss->yRange().x()));
        const QPointF to = loss->chart()->mapToPosition(QPointF(50200, loss->yRange().y()));
        loss->chart()->zoomIn(QRectF(QPointF(from.x(), plot.top()), QPointF(to.x(), plot.bottom())).normalized());
        QVERIFY(!loss->isAutoFit());
        QTRY_VERIFY(loss->drawnRaw().size() < 400);
        inWindow = 0;
        const QPointF x = loss->xRange();
        for (const QPointF &p : loss->drawnRaw())
            inWindow += p.x() >= x.x() && p.x() <= x.y() ? 1 : 0;
        QVERIFY2(inWindow >= int(x.y() - x.x()) - 1, qPrintable(QStringLiteral("%1 in %2..%3").arg(inWindow).arg(x.x()).arg(x.y())));
        // Reset: the whole range again at once.
        loss->resetZoom();
        QVERIFY(loss->drawnRaw().size() > MetricsChartView::minDrawnPoints);
        QVERIFY(loss->drawnRaw().size() <= 4 * loss->plotWidth() + 2);  // first, lowest, highest, last a column
        QVERIFY(covers(loss->xRange(), 1, 100000));
    }

    void smoothingAndLogScale()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        series.append(trainRecords(1, 50));
        QTRY_COMPARE(view.lossPanel()->rawCount(), 50);
        QCOMPARE(view.lossPanel()->smoothCount(), 50);  // smoothing is on by default
        // The raw line faint behind the smoothed one, but opaque: a translucent pen makes
        // painting a noisy series ten times slower.
        auto *raw = qobject_cast<QLineSeries *>(view.lossPanel()->chart()->series().at(0));
        auto *smooth = qobject_cast<QLineSeries *>(view.lossPanel()->chart()->series().at(1));
        QVERIFY(raw && smooth);
        QCOMPARE(raw->pen().color().alpha(), 255);
        QVERIFY(raw->pen().color().lightness() > smooth->pen().color().lightness() + 60);
        QCOMPARE(raw->pen().color().hue(), smooth->pen().color().hue());
        view.setSmoothing(0);
        QTRY_COMPARE(view.lossPanel()->smoothCount(), 0);
        QCOMPARE(raw->pen().color(), smooth->pen().color());  // alone: drawn in full
        QCOMPARE(view.lossPanel()->rawCount(), 50);

        view.setLogScale(true);
        QVERIFY(view.lossPanel()->logScale());
        QVERIFY(!view.accuracyPanel()->logScale());
        const QPointF y = view.lossPanel()->yRange();
        QVERIFY(y.x() > 0);
        QVERIFY(y.x() < 2.0 / 1.5);  // below the smallest loss
        QVERIFY(y.y() > 2.0 / 1.01);  // above the largest
        QCOMPARE(view.lossPanel()->rawCount(), 50);
        view.setLogScale(false);
        QVERIFY(!view.lossPanel()->logScale());
    }

    void perRankLines()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(900, 500);
        view.show();
        QCheckBox *perRank = nullptr;
        for (QCheckBox *box : view.findChildren<QCheckBox *>()) {
            if (box->text() == QStringLiteral("Per rank"))
                perRank = box;
        }
        QVERIFY(perRank);
        series.append(trainRecords(1, 50));
        view.redrawNow();
        QVERIFY(view.lossPanel()->lineNames().isEmpty());
        QVERIFY(!perRank->isEnabled());
        // One rank's job: nothing to split.
        view.setPerRank(true);
        QVERIFY(view.lossPanel()->lineNames().isEmpty());
        view.setPerRank(false);

        series.reset(rankRecords(trainRecords(1, 50), 3));
        QVERIFY(perRank->isEnabled());
        perRank->click();
        QVERIFY(view.perRank());
        QCOMPARE(view.lossPanel()->lineNames(), QStringList({"rank 0", "rank 1", "rank 2"}));
        QCOMPARE(view.accuracyPanel()->lineNames(), QStringList({"rank 0", "rank 1", "rank 2"}));
        QCOMPARE(view.lossPanel()->lineCount(QStringLiteral("rank 2")), 50);
        // Rank 2's line is drawn where its values are: above the job's series.
        const QPointF y = view.lossPanel()->yRange();
        QVERIFY(y.y() >= 2.0 + 0.2 - 1e-9);
        // New records extend the lines at the next redraw.
        series.append(rankRecords(trainRecords(51, 10), 3));
        view.redrawNow();
        QCOMPARE(view.lossPanel()->lineCount(QStringLiteral("rank 1")), 60);
        view.setPerRank(false);
        QVERIFY(view.lossPanel()->lineNames().isEmpty());
    }

    void comparedJobsAreOverlaid()
    {
        MetricSeries series;
        MetricSeries other;
        MetricsChartView view(&series);
        view.resize(900, 500);
        view.show();
        QSignalSpy toggled(&view, &MetricsChartView::comparisonToggled);
        view.setComparisonCandidates({});
        QVERIFY(!view.compareButton()->isEnabled());
        view.setComparisonCandidates({{7, QStringLiteral("run-7")}, {8, QStringLiteral("run-8")}});
        QVERIFY(view.compareButton()->isEnabled());
        QCOMPARE(view.compareButton()->menu()->actions().size(), 2);

        // The user checks run-7 in the menu: the owner is asked for its metrics.
        view.compareButton()->menu()->actions().at(0)->trigger();
        QCOMPARE(toggled.size(), 1);
        QCOMPARE(toggled.at(0).at(0).toLongLong(), 7);
        QCOMPARE(toggled.at(0).at(1).toBool(), true);
        view.addComparison({7, QStringLiteral("run-7"), &other});
        series.append(trainRecords(1, 100));
        other.append(trainRecords(1, 40));
        MetricRecord v;
        v.kind = QStringLiteral("val");
        v.epoch = 1;
        v.globalStep = 40;
        v.valLoss = 0.9;
        v.valAcc = 0.7;
        other.append({v});
        view.redrawNow();
        QCOMPARE(view.lossPanel()->lineNames(), QStringList({"run-7", "run-7 (val)"}));
        QCOMPARE(view.lossPanel()->lineCount(QStringLiteral("run-7")), 40);
        QCOMPARE(view.accuracyPanel()->lineCount(QStringLiteral("run-7 (val)")), 1);
        // One legend entry per compared job: its validation line is told by dash and dots.
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QStringList legend;
        for (QLegendMarker *marker : view.lossPanel()->chart()->legend()->markers()) {
            if (marker->isVisible())
                legend << marker->label();
        }
        // The job's own series last: drawn over the compared run.
        QCOMPARE(legend, QStringList({"run-7", "train", "train (smoothed)", "validation"}));
        // Its new points arrive without a redraw request from the owner.
        other.append(trainRecords(41, 20));
        QTRY_COMPARE_WITH_TIMEOUT(view.lossPanel()->lineCount(QStringLiteral("run-7")), 60, 2000);
        QCOMPARE(view.compareButton()->text(), QStringLiteral("Compare (1)"));

        // The job disappears from the experiment: unchecked, the owner told, the lines gone.
        view.setComparisonCandidates({{8, QStringLiteral("run-8")}});
        QCOMPARE(toggled.size(), 2);
        QCOMPARE(toggled.at(1).at(1).toBool(), false);
        view.removeComparison(7);
        view.redrawNow();
        QVERIFY(view.lossPanel()->lineNames().isEmpty());
        QCOMPARE(view.compareButton()->text(), QStringLiteral("Compare"));
    }

    void exportFiles()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(800, 400);
        series.append(trainRecords(1, 20));
        QSignalSpy exported(&view, &MetricsChartView::exported);
        const QString csv = m_home.filePath(QStringLiteral("metrics.csv"));
        view.exportCsv(csv);
        QTRY_COMPARE(exported.count(), 1);
        QCOMPARE(exported.at(0).at(0).toString(), csv);
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count('\n'), 21);

        const QString png = m_home.filePath(QStringLiteral("charts.png"));
        view.exportPng(png);
        QTRY_COMPARE(exported.count(), 2);
        QCOMPARE(exported.at(1).at(1).toString(), QString());
        const QImage image(png);
        // The two charts only: not the controls above them.
        QCOMPARE(image.size(), view.chartsSplitter()->size());
        QVERIFY(image.height() < view.height());
        // The user is told where it went.
        QMessageBox *box = nullptr;
        for (QMessageBox *b : view.findChildren<QMessageBox *>(QStringLiteral("exportConfirmation"))) {
            if (b->text().contains(png))
                box = b;
        }
        QVERIFY2(box, "no message names the exported file");
        QVERIFY(box->isVisible());
        QCOMPARE(box->icon(), QMessageBox::Information);

        const QString svg = m_home.filePath(QStringLiteral("charts.svg"));
        view.exportSvg(svg);
        QTRY_COMPARE(exported.count(), 3);
        QCOMPARE(exported.at(2).at(1).toString(), QString());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("Loss"));  // the chart title is drawn as text

        view.exportCsv(m_home.filePath(QStringLiteral("no/such/dir/x.csv")));
        QTRY_COMPARE(exported.count(), 4);
        QVERIFY(!exported.at(3).at(1).toString().isEmpty());
        bool warned = false;
        for (QMessageBox *b : view.findChildren<QMessageBox *>(QStringLiteral("exportConfirmation")))
            warned = warned || (b->icon() == QMessageBox::Warning && b->text().contains(QStringLiteral("x.csv")));
        QVERIFY2(warned, "no warning names the file that could not be written");
    }

    // A panel given 100,000 points: whatever the range shown, Qt Charts holds at most four
    // points a pixel column of it, and after a zoom (the rubber band's, or a wheel or drag
    // gesture once it ends) the points of the new range, every one where they are sparse.
    void zoomReducesThePointsToTheNewRange()
    {
        ChartPanel panel(QStringLiteral("Loss"), QStringLiteral("loss"));
        panel.resize(700, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QList<QPointF> points;
        for (int i = 0; i < 100000; ++i)
            points.append(QPointF(i, 1.0 + 0.1 * ((i * 7919) % 17)));
        panel.setData(points, {}, {}, false);
        QTRY_VERIFY(panel.drawnIsCurrent());
        QVERIFY(panel.drawnRaw().size() <= 4 * panel.plotWidth() + 2);
        // The user's rubber band: steps 50,000 to 50,200.
        const auto xAt = [&](double x) { return panel.chart()->mapToPosition(QPointF(x, panel.yRange().x())).x(); };
        const QRectF plot = panel.chart()->plotArea();
        panel.chart()->zoomIn(QRectF(QPointF(xAt(50000), plot.top()), QPointF(xAt(50200), plot.bottom())));
        QTRY_VERIFY(panel.drawnIsCurrent());
        const auto everyPointShown = [&] {
            const QPointF x = panel.xRange();
            const QList<QPointF> drawn = panel.drawnRaw();
            QList<QPointF> want;
            for (const QPointF &p : points) {
                if (p.x() >= x.x() - 1 && p.x() <= x.y() + 1)
                    want.append(p);
            }
            if (drawn != want)
                qWarning("%lld points drawn for %g..%g, %lld there", qlonglong(drawn.size()), x.x(), x.y(), qlonglong(want.size()));
            return drawn == want;
        };
        QVERIFY(panel.xRange().y() - panel.xRange().x() < 300);
        QVERIFY(everyPointShown());
        // A drag (Shift and the left button) 100 pixels to the left: the picture moves, the
        // range moves when the button is let go, and the points follow.
        ZoomableChartView *view = panel.view();
        const QPointF before = panel.xRange();
        const QPoint from = view->mapFromScene(panel.chart()->mapToScene(plot.center()));
        QTest::mousePress(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, from);
        QMouseEvent move(QEvent::MouseMove, from - QPoint(100, 0), view->viewport()->mapToGlobal(from - QPoint(100, 0)),
                         Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QCoreApplication::sendEvent(view->viewport(), &move);
        QVERIFY(view->inGesture());
        QCOMPARE(panel.xRange(), before);  // not yet
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, from - QPoint(100, 0));
        QVERIFY(!view->inGesture());
        QVERIFY2(panel.xRange().x() > before.x() + 10, qPrintable(QStringLiteral("%1..%2 -> %3..%4").arg(before.x()).arg(before.y()).arg(panel.xRange().x()).arg(panel.xRange().y())));
        QTRY_VERIFY(panel.drawnIsCurrent());
        QVERIFY(everyPointShown());
        // Wheel steps out: applied when the wheel pauses (or now); the points follow again.
        for (int i = 0; i < 3; ++i) {
            QWheelEvent wheel(from, view->viewport()->mapToGlobal(from), QPoint(), QPoint(0, -120), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(view->viewport(), &wheel);
        }
        QTRY_VERIFY(!view->inGesture());
        QVERIFY(panel.xRange().y() - panel.xRange().x() > 300);
        QTRY_VERIFY(panel.drawnIsCurrent());
        QVERIFY(everyPointShown());
        // Back to all of it: at most four points a pixel column again.
        panel.resetZoom();
        QTRY_VERIFY(panel.drawnIsCurrent());
        QVERIFY(panel.drawnRaw().size() <= 4 * panel.plotWidth() + 2);
        QVERIFY(panel.drawnRaw().size() > panel.plotWidth());
    }
private:
    TestHome m_home;

};

QTEST_MAIN(TestMetricsChartView)
#include "tst_metricschartview.moc"

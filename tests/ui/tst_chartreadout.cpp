// Reading the charts: the readout of every series at the step under the mouse and by the
// arrow keys, log axes in whole decades, zoom from the keyboard, the shown run drawn over
// the compared ones and named in the legend, exports that say which run and series they
// hold, and the system charts' h:mm:ss time axis, 100 % inside the plot and sent and
// received in colours of their own.
#include "TestHome.h"
#include "charts/ChartLines.h"
#include "charts/ChartPanel.h"
#include "charts/ChartTicks.h"
#include "charts/MetricsChartView.h"
#include "charts/SystemChartsView.h"
#include "charts/SystemSeries.h"
#include "charts/ZoomableChartView.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QLogValueAxis>
#include <QSettings>
#include <QSignalSpy>
#include <QToolButton>
#include <QValueAxis>
#include <QTest>

#include <cmath>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

MetricRecord record(const char *kind, qint64 step, double loss, double acc)
{
    MetricRecord r;
    r.kind = QString::fromLatin1(kind);
    r.epoch = int(1 + (step - 1) / 100);
    r.step = r.globalStep = step;
    r.time = 1000 + double(step);
    if (r.kind == QLatin1String("val")) {
        r.valLoss = loss;
        r.valAcc = acc;
    } else {
        r.loss = loss;
        r.acc = acc;
    }
    return r;
}

// Train records every 10 steps up to `steps`, a val record every 100.
QList<MetricRecord> run(int steps, double scale)
{
    QList<MetricRecord> records;
    for (int s = 10; s <= steps; s += 10) {
        records << record("train", s, scale * 2.0 / (1 + 0.01 * s), 0.5 + 0.4 * s / steps);
        if (s % 100 == 0)
            records << record("val", s, scale * 2.2 / (1 + 0.01 * s), 0.45 + 0.4 * s / steps);
    }
    return records;
}

QPoint plotPoint(ChartPanel *panel, double x)
{
    const QPointF scene = panel->chart()->mapToScene(
        panel->chart()->mapToPosition(QPointF(x, (panel->yRange().x() + panel->yRange().y()) / 2)));
    return panel->view()->mapFromScene(scene);
}

} // namespace

class TestChartReadout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void ticks()
    {
        QCOMPARE(ChartTicks::elapsedText(3725), QStringLiteral("1:02:05"));
        QCOMPARE(ChartTicks::elapsedText(59.6), QStringLiteral("0:01:00"));
        QCOMPARE(ChartTicks::elapsedText(2.25, true), QStringLiteral("0:00:02.3"));
        QCOMPARE(ChartTicks::timeTicks(0, 4000, 5), (QList<double>{0, 900, 1800, 2700, 3600}));
        QCOMPARE(ChartTicks::timeTicks(10, 70, 4), (QList<double>{15, 30, 45, 60}));
        QCOMPARE(ChartTicks::decadeRange(0.3, 0.9), std::make_pair(0.1, 1.0));
        QCOMPARE(ChartTicks::decadeRange(0.004, 2.5), std::make_pair(0.001, 10.0));
        QCOMPARE(ChartTicks::decadeRange(1, 1), std::make_pair(1.0, 10.0));
    }

    void readoutFollowsTheMouse()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSmoothing(0);
        series.append(run(1000, 1));
        view.redrawNow();
        ChartPanel *loss = view.lossPanel();
        QVERIFY(std::isnan(loss->readoutX()));
        // Over step 503: the nearest step with a point is 500, where there is a validation
        // point too; every series is read there.
        QTest::mouseMove(loss->view()->viewport(), plotPoint(loss, 503));
        QTRY_COMPARE(loss->readoutX(), 500.0);
        const QString text = loss->readoutText();
        QVERIFY2(text.contains(QStringLiteral("step 500")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("train: %1").arg(QString::number(2.0 / 6, 'g', 5))), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("validation: %1").arg(QString::number(2.2 / 6, 'g', 5))), qPrintable(text));
        QVERIFY(loss->findChild<QWidget *>(QStringLiteral("chartReadout"))->isVisible());

        // The arrow keys go on from there, one step with a point at a time.
        loss->view()->setFocus();
        QTest::keyClick(loss->view(), Qt::Key_Right);
        QCOMPARE(loss->readoutX(), 510.0);
        const QString next = loss->readoutText();
        QVERIFY2(next.contains(QStringLiteral("train: %1").arg(QString::number(2.0 / 6.1, 'g', 5))), qPrintable(next));
        // Validation is read at its nearest point, and says which step that is.
        QVERIFY2(next.contains(QStringLiteral("validation: %1 (step 500)").arg(QString::number(2.2 / 6, 'g', 5))),
                 qPrintable(next));
        QTest::keyClick(loss->view(), Qt::Key_Left);
        QTest::keyClick(loss->view(), Qt::Key_Left);
        QCOMPARE(loss->readoutX(), 490.0);
        // Leaving the chart hides it.
        QTest::mouseMove(&view, QPoint(2, 2));
        QTRY_VERIFY(std::isnan(loss->readoutX()));
    }

    void keyboardZoomAndPan()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(run(1000, 1));
        view.redrawNow();
        ChartPanel *loss = view.lossPanel();
        const QPointF whole = loss->xRange();
        loss->view()->setFocus();
        QTest::keyClick(loss->view(), Qt::Key_Equal);  // "+" without Shift
        QVERIFY(!loss->isAutoFit());
        const QPointF zoomed = loss->xRange();
        QVERIFY(zoomed.y() - zoomed.x() < (whole.y() - whole.x()) * 0.8);
        QTest::keyClick(loss->view(), Qt::Key_Right, Qt::ControlModifier);
        QVERIFY(loss->xRange().x() > zoomed.x());
        QTest::keyClick(loss->view(), Qt::Key_Minus);
        QVERIFY(loss->xRange().y() - loss->xRange().x() > zoomed.y() - zoomed.x());
        QTest::keyClick(loss->view(), Qt::Key_Home);
        QVERIFY(loss->isAutoFit());
        QCOMPARE(loss->xRange(), whole);
    }

    void logAxisInDecades()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        // Losses between about 0.3 and 0.9: within one decade, which was labelled "1" alone.
        QList<MetricRecord> records;
        for (int s = 1; s <= 100; ++s)
            records << record("train", s, 0.3 + 0.6 * (100 - s) / 100.0, 0.5);
        series.append(records);
        view.setSmoothing(0);
        view.setLogScale(true);
        view.redrawNow();
        QCOMPARE(view.lossPanel()->yRange(), QPointF(0.1, 1.0));
        series.append({record("train", 101, 0.004, 0.5), record("train", 102, 2.5, 0.5)});
        view.redrawNow();
        QCOMPARE(view.lossPanel()->yRange(), QPointF(0.001, 10.0));
        auto *axis = qobject_cast<QLogValueAxis *>(view.lossPanel()->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->base(), 10.0);
    }

    // Issue #43 item 8: the keys were a tooltip over the whole chart, shown at every hover
    // over the readout and the next chart.
    void keysHintOnceAndOnDemand()
    {
        QSettings().remove(QStringLiteral("Charts/keysHintShown"));  // a user who never saw it
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSmoothing(0);
        series.append(run(1000, 1));
        view.redrawNow();
        ChartPanel *lossPanel = view.lossPanel();
        ChartPanel *accPanel = view.accuracyPanel();
        ZoomableChartView *loss = lossPanel->view();
        ZoomableChartView *acc = accPanel->view();
        for (ZoomableChartView *chart : {loss, acc})
            QVERIFY2(chart->toolTip().isEmpty() && chart->viewport()->toolTip().isEmpty(), qPrintable(chart->toolTip()));

        // The first chart the pointer enters tells the keys, beside the readout, not over it.
        QTest::mouseMove(loss->viewport(), plotPoint(lossPanel, 503));
        QTRY_COMPARE(lossPanel->readoutX(), 500.0);
        auto *readout = loss->findChild<QWidget *>(QStringLiteral("chartReadout"));
        QVERIFY(readout->isVisible());
        QVERIFY(loss->keysHint()->isVisible());
        QVERIFY(loss->keysHint()->text().contains(QStringLiteral("Left and Right")));
        QVERIFY2(!loss->keysHint()->geometry().intersects(readout->geometry()),
                 qPrintable(QStringLiteral("hint %1,%2 %3x%4 over the readout %5,%6 %7x%8")
                                .arg(loss->keysHint()->x()).arg(loss->keysHint()->y())
                                .arg(loss->keysHint()->width()).arg(loss->keysHint()->height())
                                .arg(readout->x()).arg(readout->y()).arg(readout->width()).arg(readout->height())));
        QVERIFY(loss->keysHint()->geometry().bottom() <= loss->height());

        // The next chart, and the first again: no more hints (left behind: gone).
        QTest::mouseMove(acc->viewport(), plotPoint(accPanel, 503));
        QTRY_COMPARE(accPanel->readoutX(), 500.0);
        QTRY_VERIFY(!loss->keysHint()->isVisible());
        QVERIFY(!acc->keysHint()->isVisible());
        QTest::mouseMove(loss->viewport(), plotPoint(lossPanel, 703));
        QTRY_COMPARE(lossPanel->readoutX(), 700.0);
        QVERIFY(!loss->keysHint()->isVisible());

        // On demand: the "?" in the chart's corner, or the ? key.
        QVERIFY(acc->keysButton()->isVisible());
        QVERIFY(acc->rect().contains(acc->keysButton()->geometry()));
        acc->keysButton()->click();
        QVERIFY(acc->keysHint()->isVisible());
        acc->keysButton()->click();
        QVERIFY(!acc->keysHint()->isVisible());
        acc->setFocus();
        QTest::keyClick(acc, Qt::Key_Question);
        QVERIFY(acc->keysHint()->isVisible());
        QTest::keyClick(acc, Qt::Key_Right);  // working the chart: the hint goes
        QVERIFY(!acc->keysHint()->isVisible());
    }

    // Issue #43 item 8: turning on the log scale fitted the whole data again.
    void logScaleKeepsTheZoom()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSmoothing(0);
        series.append(run(1000, 1));
        view.redrawNow();
        ChartPanel *loss = view.lossPanel();
        // Zoomed as a dragged band does: steps 300-700, losses 0.2-0.55.
        qobject_cast<QValueAxis *>(loss->chart()->axes(Qt::Horizontal).value(0))->setRange(300, 700);
        qobject_cast<QValueAxis *>(loss->chart()->axes(Qt::Vertical).value(0))->setRange(0.2, 0.55);
        QVERIFY(!loss->isAutoFit());
        const QPointF x = loss->xRange();
        const QPointF y = loss->yRange();
        QCOMPARE(x, QPointF(300, 700));

        view.setLogScale(true);
        QVERIFY(!loss->isAutoFit());
        QCOMPARE(loss->xRange(), x);
        // The values shown stay in view, in the whole decades around them (the whole data,
        // 0.18 to 1.8, would be 0.1 to 10).
        const QPointF logY = loss->yRange();
        QVERIFY2(logY.x() <= y.x(), qPrintable(QStringLiteral("%1 > %2").arg(logY.x()).arg(y.x())));
        QVERIFY2(logY.y() >= y.y(), qPrintable(QStringLiteral("%1 < %2").arg(logY.y()).arg(y.y())));
        QCOMPARE(logY, QPointF(0.1, 1.0));
        series.append({record("train", 1010, 0.15, 0.9)});
        view.redrawNow();
        QCOMPARE(loss->xRange(), x);

        view.setLogScale(false);
        QVERIFY(!loss->isAutoFit());
        QCOMPARE(loss->xRange(), x);
        QCOMPARE(loss->yRange(), logY);
        // Reset zoom still fits everything.
        loss->resetZoom();
        QVERIFY(loss->xRange().y() >= 1010);
    }

    // Issue #43 item 8: a zoomed axis kept five ticks spread over its odd range (146, 237, 0.297).
    void zoomedTicksAreRound()
    {
        QCOMPARE(ChartTicks::roundStep(146, 237, 6), 20.0);
        QCOMPARE(ChartTicks::roundStep(0.297, 0.61, 5), 0.1);
        QCOMPARE(ChartTicks::roundStep(0, 1, 6), 0.2);
        QCOMPARE(ChartTicks::firstTick(146, 20), 160.0);
        QCOMPARE(ChartTicks::firstTick(-0.05, 0.05), -0.05);

        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(run(1000, 1));
        view.redrawNow();
        for (ChartPanel *panel : {view.lossPanel(), view.accuracyPanel()}) {
            const QRectF plot = panel->chart()->plotArea();
            // An odd part of the plot, as a dragged rubber band gives.
            panel->chart()->zoomIn(QRectF(plot.left() + plot.width() * 0.137, plot.top() + plot.height() * 0.291,
                                          plot.width() * 0.283, plot.height() * 0.317));
            QVERIFY(!panel->isAutoFit());
            for (QAbstractAxis *a : panel->chart()->axes()) {
                auto *axis = qobject_cast<QValueAxis *>(a);
                QVERIFY(axis);
                const QString what = QStringLiteral("%1 axis %2-%3").arg(axis->titleText()).arg(axis->min()).arg(axis->max());
                QVERIFY2(axis->tickType() == QValueAxis::TicksDynamic, qPrintable(what));
                const double step = axis->tickInterval();
                const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
                QVERIFY2(qFuzzyCompare(mantissa, 1.0) || qFuzzyCompare(mantissa, 2.0) || qFuzzyCompare(mantissa, 5.0),
                         qPrintable(what + QStringLiteral(": step %1").arg(step)));
                int ticks = 0;
                for (double t = axis->tickAnchor(); t <= axis->max() + step * 1e-9; t += step) {
                    QVERIFY2(t >= axis->min() - step * 1e-9, qPrintable(what));
                    // Each label reads as its tick's value: 160, 0.35, not 1.6e+02 or 0.297.
                    const QString label = QString::asprintf(axis->labelFormat().toLatin1().constData(), t);
                    QVERIFY2(std::abs(label.toDouble() - t) < step * 1e-6,
                             qPrintable(what + QStringLiteral(": tick %1 labelled %2").arg(t).arg(label)));
                    QVERIFY2(std::abs(std::remainder(t, step)) < step * 1e-6, qPrintable(what));
                    ++ticks;
                }
                QVERIFY2(ticks >= 2 && ticks <= 6, qPrintable(what + QStringLiteral(": %1 ticks").arg(ticks)));
            }
            // Fitted again: the fitted ticks and labels come back.
            panel->resetZoom();
            QVERIFY(panel->isAutoFit());
        }
        auto *x = qobject_cast<QValueAxis *>(view.lossPanel()->chart()->axes(Qt::Horizontal).value(0));
        QCOMPARE(x->labelFormat(), QStringLiteral("%.0f"));
        QCOMPARE(x->tickType(), QValueAxis::TicksFixed);
    }

    // Issue #43: clicking a legend entry hides its series (TensorBoard and W&B do).
    void legendEntriesHideAndShow()
    {
        MetricSeries series;
        MetricSeries other;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.setRunName(QStringLiteral("run-a"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(run(1000, 1));
        other.append(run(1000, 3));  // three times the loss: the top of the fitted axis
        view.addComparison({42, QStringLiteral("run-b"), &other});
        view.redrawNow();
        ChartPanel *loss = view.lossPanel();
        const auto visibleEntries = [loss] {
            QStringList names;
            for (QLegendMarker *marker : loss->chart()->legend()->markers()) {
                if (marker->isVisible())
                    names << marker->label();
            }
            return names;
        };
        const QStringList entries{QStringLiteral("run-b"), QStringLiteral("run-a"), QStringLiteral("validation")};
        QTRY_COMPARE(visibleEntries(), entries);
        const double top = loss->yRange().y();
        QVERIFY(top > 5);

        QLegendMarker *b = loss->legendMarker(QStringLiteral("run-b"));
        QVERIFY(b);
        Q_EMIT b->clicked();
        QVERIFY(loss->isSeriesHidden(QStringLiteral("run-b")));
        QVERIFY(!b->series()->isVisible());
        // Its entry stays (greyed), to be clicked again; the axes fit what is shown.
        QCOMPARE(visibleEntries(), entries);
        QVERIFY(b->labelBrush().color().alphaF() < 0.5);
        QVERIFY2(loss->yRange().y() < top / 2, qPrintable(QString::number(loss->yRange().y())));
        loss->showReadout(500);
        QVERIFY2(!loss->readoutText().contains(QStringLiteral("run-b")), qPrintable(loss->readoutText()));
        QVERIFY(loss->readoutText().contains(QStringLiteral("run-a")));
        // New points and a redraw keep it hidden.
        other.append({record("train", 1010, 0.5, 0.9)});
        view.redrawNow();
        QVERIFY(!loss->legendMarker(QStringLiteral("run-b"))->series()->isVisible());
        QCOMPARE(visibleEntries(), entries);

        // The run's own entry hides its raw and smoothed lines together.
        Q_EMIT loss->legendMarker(QStringLiteral("run-a"))->clicked();
        loss->showReadout(500);
        QVERIFY2(!loss->readoutText().contains(QStringLiteral("run-a")), qPrintable(loss->readoutText()));
        QVERIFY(loss->readoutText().contains(QStringLiteral("validation")));
        // Both back.
        Q_EMIT loss->legendMarker(QStringLiteral("run-a"))->clicked();
        Q_EMIT loss->legendMarker(QStringLiteral("run-b"))->clicked();
        QVERIFY(!loss->isSeriesHidden(QStringLiteral("run-b")));
        QVERIFY(loss->legendMarker(QStringLiteral("run-b"))->series()->isVisible());
        QCOMPARE(loss->legendMarker(QStringLiteral("run-b"))->labelBrush().color().alphaF(), 1.0);
        loss->showReadout(500);
        QVERIFY(loss->readoutText().contains(QStringLiteral("run-a")));
        QVERIFY(loss->readoutText().contains(QStringLiteral("run-b")));
        QTRY_VERIFY(loss->yRange().y() >= top);
    }

    void shownRunOnTopAndNamed()
    {
        MetricSeries series;
        MetricSeries other;
        MetricsChartView view(&series);
        view.resize(1000, 500);
        view.setRunName(QStringLiteral("fashion-mnist-demo"));
        series.append(run(500, 1));
        other.append(run(500, 1.5));
        view.redrawNow();
        // Alone, the series need no run name.
        QCOMPARE(view.lossPanel()->drawOrder().first(), QStringLiteral("train"));
        view.addComparison({42, QStringLiteral("fashion-mnist-lr1e-3"), &other});
        view.redrawNow();
        const QStringList order = view.lossPanel()->drawOrder();
        // Drawn last (on top): the shown run's own series, its main line named after it.
        QCOMPARE(order.last(), QStringLiteral("validation"));
        QVERIFY2(order.indexOf(QStringLiteral("fashion-mnist-demo")) > order.indexOf(QStringLiteral("fashion-mnist-lr1e-3")),
                 qPrintable(order.join(QStringLiteral(", "))));
        QStringList legend;
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (QLegendMarker *marker : view.lossPanel()->chart()->legend()->markers()) {
            if (marker->isVisible())
                legend << marker->label();
        }
        QCOMPARE(legend, (QStringList{QStringLiteral("fashion-mnist-lr1e-3"), QStringLiteral("fashion-mnist-demo"),
                                      QStringLiteral("validation")}));
        // The compared run has its own colour, the same wherever it is drawn.
        QCOMPARE(ChartLines::compared(view.comparisons(), MetricSeries::Metric::TrainLoss, MetricSeries::Metric::ValLoss,
                                      MetricSeries::XAxis::Step, 0).first().color,
                 ChartLines::runColor(42));

        // Exports say whose series they hold.
        QSignalSpy exported(&view, &MetricsChartView::exported);
        const QString csv = m_home.filePath(QStringLiteral("runs.csv"));
        view.exportCsv(csv);
        QTRY_COMPARE(exported.count(), 1);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
        QVERIFY(lines.first().startsWith("run,kind,"));
        QVERIFY(lines.at(1).startsWith("fashion-mnist-demo,train,"));
        QVERIFY(lines.last().startsWith("fashion-mnist-lr1e-3,"));
        const QString svg = m_home.filePath(QStringLiteral("charts.svg"));
        view.exportSvg(svg);
        QTRY_COMPARE(exported.count(), 2);
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("fashion-mnist-demo"));
        QVERIFY(svgText.contains("fashion-mnist-lr1e-3"));
        QVERIFY(svgText.contains("validation"));
        const QString png = m_home.filePath(QStringLiteral("charts.png"));
        view.exportPng(png);
        QTRY_COMPARE(exported.count(), 3);
        const QImage image(png);
        QVERIFY(image.text(QStringLiteral("Title")).contains(QStringLiteral("fashion-mnist-demo")));
        const QString description = image.text(QStringLiteral("Description"));
        QVERIFY2(description.contains(QStringLiteral("fashion-mnist-lr1e-3"))
                     && description.contains(QStringLiteral("fashion-mnist-demo")), qPrintable(description));
        // The titles are back as they were.
        QCOMPARE(view.lossPanel()->chart()->title(), QStringLiteral("Loss"));
    }

    void systemCharts()
    {
        SystemSeries series;
        SystemChartsView view(&series);
        view.resize(1000, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QList<SystemSample> samples;
        for (int i = 0; i <= 40; ++i) {
            SystemSample s;
            s.time = 1.7e9 + i * 100.0;
            s.node = QStringLiteral("node-a");
            s.cpuPercent = 100;  // busy all along: on the top border before
            s.memUsedBytes = 1 << 30;
            s.netRxBytes = qint64(i) * 1000000;
            s.netTxBytes = qint64(i) * 500000;
            samples << s;
        }
        series.reset(samples);
        ChartPanel *usage = view.usagePanel();
        QTRY_VERIFY(!usage->xTimeLabelTexts().isEmpty());
        // 0 to 4000 s: labelled in h:mm:ss, not 1e+03.
        const QStringList labels = usage->xTimeLabelTexts();
        QVERIFY2(labels.contains(QStringLiteral("0:30:00")), qPrintable(labels.join(QLatin1Char(' '))));
        for (const QString &label : labels)
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d+:\\d\\d:\\d\\d$")).match(label).hasMatch(), qPrintable(label));
        // 100 % is inside the plot, not on its border.
        QVERIFY(usage->yRange().y() > 100);
        QCOMPARE(usage->yRange().x(), 0.0);
        const QPointF top = usage->chart()->mapToPosition(QPointF(2000, 100));
        QVERIFY(top.y() > usage->chart()->plotArea().top() + 2);
        // Received and sent: each its own colour.
        const QList<ChartLine> network = series.networkLines();
        QCOMPARE(network.size(), 2);
        QVERIFY(network.at(0).color != network.at(1).color);
        QVERIFY(std::abs(network.at(0).color.hue() - network.at(1).color.hue()) > 60);
    }

private:
    TestHome m_home;
};

QTEST_MAIN(TestChartReadout)
#include "tst_chartreadout.moc"

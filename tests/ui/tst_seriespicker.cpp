// A chart's series picker: a job's named scalars (TensorBoard tags, progress lines) can be
// drawn on either chart; a job without train records of its own shows its loss and
// accuracy series at once.
#include "Grab.h"
#include "charts/ChartPanel.h"
#include "charts/MetricsChartView.h"
#include "metrics/ScalarSeriesIndex.h"
#include "charts/SeriesPicker.h"
#include "metrics/ScalarPoint.h"

#include <QAbstractSeries>
#include <QChart>
#include <QToolButton>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// What ScalarIngest stores for a PyTorch job: Loss and Acc@1 from each rank's file, lr and
// throughput from a TensorBoard file, read back as the GUI gets them.
QList<MetricRecord> scalarRecords(int steps)
{
    QList<MetricRecord> records;
    for (int s = 0; s < steps; ++s) {
        auto add = [&](const QString &name, double value, const QString &file, int rank) {
            ScalarPoint p;
            p.time = 1000 + s;
            p.name = name;
            p.value = value;
            p.step = s;
            p.epoch = s / 10;
            p.file = file;
            p.rank = rank;
            p.source = QStringLiteral("test");
            records << *MetricRecord::fromJson(p.toJson());
        };
        for (int rank = 0; rank < 2; ++rank) {
            const QString file = QStringLiteral("stdouterr/stdout-%1.txt").arg(rank);
            add(QStringLiteral("Loss"), 2.0 / (1 + s) + rank, file, rank);
            add(QStringLiteral("Acc@1"), 10.0 + s, file, rank);
        }
        add(QStringLiteral("lr"), 0.1 * (s < 5 ? 1 : 0.5), QStringLiteral("/out/events.out.tfevents.1.node1"), -1);
        add(QStringLiteral("throughput"), 500 + s, QStringLiteral("/out/events.out.tfevents.1.node1"), -1);
    }
    return records;
}

QStringList items(const SeriesPicker *picker)
{
    QStringList texts;
    for (int i = 0; i < picker->count(); ++i)
        texts << picker->itemText(i);
    return texts;
}

} // namespace

class TestSeriesPicker : public QObject
{
    Q_OBJECT
private slots:
    void indexKeepsEachNameFileAndRankApart()
    {
        QList<MetricRecord> records = scalarRecords(3);
        ScalarSeriesIndex index;
        index.update(records);
        QCOMPARE(index.keys().size(), 6);
        QCOMPARE(index.label(index.keys().first()), QStringLiteral("Loss (rank 0)"));
        const QString loss1 = index.keys().at(2);
        QCOMPARE(index.label(loss1), QStringLiteral("Loss (rank 1)"));
        QCOMPARE(index.points(loss1, ScalarSeriesIndex::X::Step, 1000),
                 (QList<QPointF>{{0, 3.0}, {1, 2.0}, {2, 2.0 / 3 + 1}}));
        QCOMPARE(index.points(loss1, ScalarSeriesIndex::X::Time, 1000).last(), QPointF(2, 2.0 / 3 + 1));
        // Records that arrive later extend the series without reading the first ones again.
        records += scalarRecords(4).mid(3 * 6);
        index.update(records);
        QCOMPARE(index.points(loss1, ScalarSeriesIndex::X::Step, 1000).size(), 4);
        QCOMPARE(index.find(QStringLiteral("acc")), index.keys().at(1));  // rank 0's Acc@1
        QVERIFY(index.find(QStringLiteral("bleu")).isEmpty());
    }

    void aJobWithoutItsOwnSeriesShowsItsLossAndAccuracy()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1100, 500);
        view.show();
        series.append(scalarRecords(20));
        view.redrawNow();
        QCOMPARE(items(view.lossPicker()).first(), QStringLiteral("Loss"));
        QVERIFY(items(view.lossPicker()).contains(QStringLiteral("lr (TensorBoard)")));
        QCOMPARE(view.lossPicker()->currentText(), QStringLiteral("Loss (rank 0)"));
        QCOMPARE(view.accuracyPicker()->currentText(), QStringLiteral("Acc@1 (rank 0)"));
        view.redrawNow();
        QCOMPARE(view.lossPanel()->rawCount(), 20);
        QCOMPARE(view.lossPanel()->drawnRaw().first(), QPointF(0, 2.0));
        // Acc@1 is in percent: the accuracy chart's 0-1 limit is off for a named series.
        QCOMPARE(view.accuracyPanel()->drawnRaw().last(), QPointF(19, 29.0));
        QVERIFY2(view.accuracyPanel()->yRange().y() >= 29, qPrintable(QString::number(view.accuracyPanel()->yRange().y())));
        QCOMPARE(view.accuracyPanel()->chart()->title(), QStringLiteral("Acc@1 (rank 0)"));
        QTest::qWait(100);  // the chart lays itself out again before it is grabbed
        saveGrab(&view, QStringLiteral("seriespicker-default"));

        // The user picks the learning rate for the left chart: it stays while records come.
        const int lr = view.lossPicker()->findText(QStringLiteral("lr (TensorBoard)"));
        view.lossPicker()->setCurrentIndex(lr);
        Q_EMIT view.lossPicker()->activated(lr);
        view.redrawNow();
        QCOMPARE(view.lossPanel()->chart()->title(), QStringLiteral("lr (TensorBoard)"));
        QStringList names;
        for (const QAbstractSeries *s : view.lossPanel()->chart()->series())
            names << s->name();
        QVERIFY2(names.contains("lr") && names.contains("lr (smoothed)") && !names.contains("train"), qPrintable(names.join(", ")));
        QCOMPARE(view.lossPanel()->drawnRaw().first(), QPointF(0, 0.1));
        series.append(scalarRecords(21).mid(20 * 6));
        view.redrawNow();
        QCOMPARE(view.lossPicker()->currentText(), QStringLiteral("lr (TensorBoard)"));
        QCOMPARE(view.lossPanel()->rawCount(), 21);
        QTest::qWait(100);  // the chart lays itself out again before it is grabbed
        saveGrab(&view, QStringLiteral("seriespicker-lr"));

        // Back to the chart's own series.
        view.lossPicker()->setCurrentIndex(0);
        view.redrawNow();
        QCOMPARE(view.lossPanel()->chart()->title(), QStringLiteral("Loss"));
        QCOMPARE(view.lossPanel()->rawCount(), 0);
    }

    void aJobWithItsOwnSeriesKeepsThemUntilTheUserPicks()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        QList<MetricRecord> records = scalarRecords(5);
        MetricRecord train;
        train.kind = QStringLiteral("train");
        train.epoch = 1;
        train.step = train.globalStep = 1;
        train.loss = 1.5;
        train.acc = 0.5;
        train.time = 1000;
        records.prepend(train);
        series.append(records);
        view.redrawNow();
        QCOMPARE(view.lossPicker()->currentIndex(), 0);
        QCOMPARE(view.lossPanel()->rawCount(), 1);
        QVERIFY(view.lossPicker()->isEnabled());
    }

    void theTrainersLearningRateAndThroughputAreChartable()
    {
        // The bundled trainer's records: loss and accuracy of its own, lr and images/s as
        // fields of its train records. The picker offers them (it was disabled, issue 43).
        QList<MetricRecord> records;
        for (int step = 1; step <= 6; ++step) {
            records << *MetricRecord::fromJson(QStringLiteral(
                R"({"time": %1, "kind": "train", "epoch": %2, "step": %6, "global_step": %6, "loss": %3, "acc": 0.5, )"
                R"("lr": %4, "images_per_sec": %5, "workers": 1})").arg(1000 + step).arg(1 + step / 4)
                .arg(2.0 / step).arg(step < 4 ? 0.01 : 0.001).arg(100 * step).arg(step).toUtf8());
        }
        records << *MetricRecord::fromJson(R"({"time": 1007, "kind": "val", "epoch": 2, "global_step": 6, "val_loss": 0.4, "val_acc": 0.8})");
        MetricSeries series;
        MetricsChartView view(&series);
        series.append(records);
        view.redrawNow();
        QVERIFY(view.lossPicker()->isEnabled());
        QVERIFY(view.accuracyPicker()->isEnabled());
        QCOMPARE(items(view.lossPicker()), (QStringList{"Loss", "learning rate", "images/s"}));
        QCOMPARE(view.lossPicker()->currentIndex(), 0);  // its own loss first
        view.accuracyPicker()->setCurrentIndex(view.accuracyPicker()->findText(QStringLiteral("images/s")));
        view.redrawNow();
        QCOMPARE(view.accuracyPanel()->chart()->title(), QStringLiteral("images/s"));
        QCOMPARE(view.accuracyPanel()->drawnRaw().size(), 6);
        QCOMPARE(view.accuracyPanel()->drawnRaw().last(), QPointF(6, 600));
        view.lossPicker()->setCurrentIndex(view.lossPicker()->findText(QStringLiteral("learning rate")));
        view.setXAxis(MetricSeries::XAxis::Epoch);
        view.redrawNow();
        QCOMPARE(view.lossPanel()->drawnRaw().first(), QPointF(1, 0.01));
    }

    void twoMoreChartsBesideLossAndAccuracy()
    {
        // Issue #43: any series the job stored, in charts added beside loss and accuracy.
        QList<MetricRecord> records;
        for (int step = 1; step <= 6; ++step) {
            records << *MetricRecord::fromJson(QStringLiteral(
                R"({"time": %1, "kind": "train", "epoch": %2, "step": %6, "global_step": %6, "loss": %3, "acc": 0.5, )"
                R"("lr": %4, "images_per_sec": %5, "workers": 1})").arg(1000 + step).arg(1 + step / 4)
                .arg(2.0 / step).arg(step < 4 ? 0.01 : 0.001).arg(100 * step).arg(step).toUtf8());
        }
        MetricSeries series;
        MetricsChartView view(&series);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        series.append(records);
        view.redrawNow();
        QVERIFY(view.addChartButton()->isEnabled());
        // The first added chart starts at the first series no chart draws: the learning rate;
        // the second at images/s; then no more.
        ChartPanel *first = view.addChart();
        QVERIFY(first);
        QCOMPARE(first->chart()->title(), QStringLiteral("learning rate"));
        QCOMPARE(first->drawnRaw().size(), 6);
        QCOMPARE(first->drawnRaw().first(), QPointF(1, 0.01));
        view.addChartButton()->click();
        QCOMPARE(view.extraPanels().size(), 2);
        ChartPanel *second = view.extraPanels().last();
        QCOMPARE(second->chart()->title(), QStringLiteral("images/s"));
        QCOMPARE(second->drawnRaw().last(), QPointF(6, 600));
        QVERIFY(!view.addChartButton()->isEnabled());
        QVERIFY(!view.addChart());
        // Below loss and accuracy, side by side, all on screen.
        QVERIFY(first->isVisible() && second->isVisible());
        QTRY_VERIFY(first->height() > 100 && view.lossPanel()->height() > 100);  // laid out
        const QPoint firstAt = first->mapTo(&view, QPoint(0, 0));
        const QPoint lossAt = view.lossPanel()->mapTo(&view, QPoint(0, 0));
        QVERIFY(firstAt.y() > lossAt.y() + view.lossPanel()->height() / 2);
        QVERIFY(second->mapTo(&view, QPoint(0, 0)).x() > firstAt.x());
        // Its own picker chooses another series; data keeps coming to it.
        SeriesPicker *picker = view.pickerOf(first);
        QVERIFY(picker);
        picker->setCurrentIndex(0);  // the loss
        view.redrawNow();
        QCOMPARE(first->chart()->title(), QStringLiteral("Loss"));
        QCOMPARE(first->drawnRaw().size(), 6);
        // Removed: the button offers one again.
        auto *remove = first->parentWidget()->findChild<QToolButton *>(QStringLiteral("removeChartButton"));
        QVERIFY(remove);
        remove->click();
        QCOMPARE(view.extraPanels(), QList<ChartPanel *>{second});
        QVERIFY(view.addChartButton()->isEnabled());
    }

    void aDisabledPickerSaysWhy()
    {
        MetricSeries series;
        MetricsChartView view(&series);
        MetricRecord train;
        train.kind = QStringLiteral("train");
        train.epoch = 1;
        train.step = train.globalStep = 1;
        train.loss = 1.5;
        train.acc = 0.5;
        train.time = 1000;
        series.append({train});
        view.redrawNow();
        QVERIFY(!view.lossPicker()->isEnabled());
        QVERIFY2(view.lossPicker()->toolTip().contains(QStringLiteral("no learning rate")), qPrintable(view.lossPicker()->toolTip()));
    }
};

QTEST_MAIN(TestSeriesPicker)
#include "tst_seriespicker.moc"

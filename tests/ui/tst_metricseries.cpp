// MetricSeries: records to chart points, smoothing, downsampling and CSV.
#include "charts/MetricSeries.h"
#include "charts/PixelColumns.h"
#include "metrics/MetricCsv.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace TrainDesk;
using namespace TrainDesk::Ui;
using Metric = MetricSeries::Metric;
using XAxis = MetricSeries::XAxis;

namespace {

MetricRecord train(int epoch, qint64 step, qint64 globalStep, double loss, double acc, double time)
{
    MetricRecord r;
    r.kind = QStringLiteral("train");
    r.epoch = epoch;
    r.step = step;
    r.globalStep = globalStep;
    r.loss = loss;
    r.acc = acc;
    r.time = time;
    r.lr = 0.0002;
    r.imagesPerSec = 1000;
    return r;
}

MetricRecord val(int epoch, qint64 globalStep, double loss, double acc, double time)
{
    MetricRecord r;
    r.kind = QStringLiteral("val");
    r.epoch = epoch;
    r.globalStep = globalStep;
    r.valLoss = loss;
    r.valAcc = acc;
    r.time = time;
    return r;
}

MetricRecord rank(int r, int epoch, qint64 step, qint64 globalStep, double loss, double acc)
{
    MetricRecord m = train(epoch, step, globalStep, loss, acc, 1000 + globalStep);
    m.kind = QStringLiteral("rank");
    m.rank = r;
    m.lr = NAN;
    return m;
}

// Two epochs of 4 steps, logged every 2 steps, validation after each.
QList<MetricRecord> twoEpochs()
{
    MetricRecord info;
    info.kind = QStringLiteral("info");
    info.time = 1000;
    return {info,
            train(1, 2, 2, 2.0, 0.1, 1001), train(1, 4, 4, 1.8, 0.2, 1002), val(1, 4, 1.7, 0.3, 1003),
            train(2, 2, 6, 1.5, 0.4, 1004), train(2, 4, 8, 1.2, 0.5, 1005), val(2, 8, 1.1, 0.6, 1006)};
}

} // namespace

class TestMetricSeries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void clippedKeepsTheEdges()
    {
        QList<QPointF> points;
        for (int i = 0; i < 10; ++i)
            points.append(QPointF(i * 10, i));
        // 25..55: 30, 40, 50 and the neighbours 20 and 60.
        const QList<QPointF> inside = MetricSeries::clipped(points, 25, 55);
        QCOMPARE(inside.size(), 5);
        QCOMPARE(inside.first().x(), 20.0);
        QCOMPARE(inside.last().x(), 60.0);
        QCOMPARE(MetricSeries::clipped(points, -100, 1000), points);
        QCOMPARE(MetricSeries::clipped(points, 0, 0).size(), 2);          // 0 and 10
        QCOMPARE(MetricSeries::clipped(points, 91, 95).size(), 1);        // only 90, to the left
        QCOMPARE(MetricSeries::clipped(points, 200, 300).size(), 1);
        QVERIFY(MetricSeries::clipped({}, 0, 1).isEmpty());
    }

    void pointsAgainstStep()
    {
        MetricSeries s;
        QSignalSpy changed(&s, &MetricSeries::changed);
        s.append(twoEpochs());
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.trainPointCount(), 4);
        QCOMPARE(s.lastEpoch(), 2);
        QCOMPARE(s.points(Metric::TrainLoss),
                 (QList<QPointF>{{2, 2.0}, {4, 1.8}, {6, 1.5}, {8, 1.2}}));
        QCOMPARE(s.points(Metric::TrainAcc).last(), QPointF(8, 0.5));
        QCOMPARE(s.points(Metric::ValLoss), (QList<QPointF>{{4, 1.7}, {8, 1.1}}));
        QCOMPARE(s.points(Metric::ValAcc), (QList<QPointF>{{4, 0.3}, {8, 0.6}}));
        QCOMPARE(s.points(Metric::LearningRate).size(), 4);
    }

    void aResumedAttemptReplacesTheEpochsItRepeats()
    {
        // Attempt 1: epoch 1 whole, one step of epoch 2; attempt 2 resumed at epoch 2
        // (a retried job): epoch 2 is drawn once, attempt 2's.
        MetricSeries s;
        QList<MetricRecord> first = twoEpochs().mid(0, 5);
        s.append(first);
        QCOMPARE(s.points(Metric::TrainLoss).last(), QPointF(6, 1.5));
        MetricRecord info;
        info.kind = QStringLiteral("info");
        s.append({info, train(2, 2, 6, 1.6, 0.4, 2004), train(2, 4, 8, 1.3, 0.5, 2005), val(2, 8, 1.2, 0.6, 2006)});
        QCOMPARE(s.points(Metric::TrainLoss), (QList<QPointF>{{2, 2.0}, {4, 1.8}, {6, 1.6}, {8, 1.3}}));
        QCOMPARE(s.points(Metric::ValLoss), (QList<QPointF>{{4, 1.7}, {8, 1.2}}));
        // Going on as usual appends.
        s.append({train(3, 2, 10, 1.0, 0.7, 2007)});
        QCOMPARE(s.trainPointCount(), 5);
    }

    void pointsAgainstEpochAndTime()
    {
        MetricSeries s;
        s.append(twoEpochs());
        // Epoch 1 ended at step 4, so steps per epoch is 4.
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Epoch),
                 (QList<QPointF>{{0.5, 2.0}, {1.0, 1.8}, {1.5, 1.5}, {2.0, 1.2}}));
        QCOMPARE(s.points(Metric::ValAcc, XAxis::Epoch), (QList<QPointF>{{1, 0.3}, {2, 0.6}}));
        // Seconds since the first record.
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Time).first(), QPointF(1, 2.0));
        QCOMPARE(s.points(Metric::ValLoss, XAxis::Time).last(), QPointF(6, 1.1));
    }

    void missingValuesAreSkipped()
    {
        MetricSeries s;
        MetricRecord r = train(1, 1, 1, NAN, 0.5, 1);
        MetricRecord noStep = val(1, -1, 1.0, 0.5, 2);  // an old trainer: no global_step
        s.append({train(1, 1, 1, 2.0, 0.1, 0), r, noStep});
        QCOMPARE(s.points(Metric::TrainLoss).size(), 1);
        QCOMPARE(s.points(Metric::TrainAcc).size(), 2);
        QCOMPARE(s.points(Metric::ValLoss), (QList<QPointF>{{1, 1.0}}));  // at the last train step
    }

    void resetReplacesEverything()
    {
        MetricSeries s;
        s.append(twoEpochs());
        QSignalSpy changed(&s, &MetricSeries::changed);
        s.reset({train(1, 1, 1, 3.0, 0.0, 5)});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.points(Metric::TrainLoss), (QList<QPointF>{{1, 3.0}}));
        s.reset();
        QCOMPARE(changed.count(), 2);
        QVERIFY(s.records().isEmpty());
        QCOMPARE(s.lastEpoch(), -1);
        s.append({});  // nothing new: no redraw asked
        QCOMPARE(changed.count(), 2);
    }

    void smoothingIsDebiasedEma()
    {
        const QList<QPointF> raw{{1, 1.0}, {2, 3.0}, {3, 3.0}};
        QCOMPARE(MetricSeries::smoothed(raw, 0), raw);
        const QList<QPointF> s = MetricSeries::smoothed(raw, 0.5);
        QCOMPARE(s.size(), 3);
        // Debiased: the first value is the raw one, not pulled toward 0.
        QCOMPARE(s[0], QPointF(1, 1.0));
        // EMA 0.5: a1 = 0.5, a2 = 0.5*0.5 + 0.5*3 = 1.75; debias / (1 - 0.25) = 2.3333
        QVERIFY(qAbs(s[1].y() - 1.75 / 0.75) < 1e-9);
        QVERIFY(qAbs(s[2].y() - (0.5 * 1.75 + 1.5) / 0.875) < 1e-9);
        QCOMPARE(s[2].x(), 3.0);
    }

    void downsamplingKeepsExtremes()
    {
        QList<QPointF> raw;
        for (int i = 0; i < 10000; ++i)
            raw.append(QPointF(i, std::sin(i / 100.0)));
        raw[5000].setY(50);   // a spike
        raw[7000].setY(-50);  // a dip
        const QList<QPointF> d = MetricSeries::downsampled(raw, 300);
        QVERIFY(d.size() <= 302);
        QVERIFY(d.size() > 100);
        QVERIFY(d.contains(raw[5000]));
        QVERIFY(d.contains(raw[7000]));
        QCOMPARE(d.first(), raw.first());
        QCOMPARE(d.last(), raw.last());
        for (int i = 1; i < d.size(); ++i)
            QVERIFY(d[i].x() > d[i - 1].x());
        const QList<QPointF> few{{0, 1}, {1, 2}};
        QCOMPARE(MetricSeries::downsampled(few, 300), few);
    }

    void perRankSeries()
    {
        // The trainer: a rank record per rank after each train record.
        MetricSeries s;
        s.append(twoEpochs());
        QVERIFY(s.ranks().isEmpty());
        s.append({rank(0, 1, 2, 2, 2.1, 0.15), rank(1, 1, 2, 2, 1.9, 0.05), rank(0, 1, 4, 4, 1.7, 0.25),
                  rank(1, 1, 4, 4, 1.9, 0.15)});
        QCOMPARE(s.ranks(), QList<int>({0, 1}));
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Step, 0), QList<QPointF>({{2, 2.1}, {4, 1.7}}));
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Step, 1), QList<QPointF>({{2, 1.9}, {4, 1.9}}));
        QCOMPARE(s.points(Metric::TrainAcc, XAxis::Epoch, 1), QList<QPointF>({{0.5, 0.05}, {1, 0.15}}));
        QVERIFY(s.points(Metric::ValLoss, XAxis::Step, 1).isEmpty());  // validation is the job's
        QCOMPARE(s.points(Metric::TrainLoss).size(), 4);                 // the job's series stays
        // Extended as records arrive, smoothed like the job's series.
        s.append({rank(1, 2, 2, 6, 1.0, 0.5)});
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Step, 1).size(), 3);
        QCOMPARE(s.smoothedPoints(Metric::TrainLoss, XAxis::Step, 0.5, 1),
                 MetricSeries::smoothed(s.points(Metric::TrainLoss, XAxis::Step, 1), 0.5));
        QCOMPARE(s.points(Metric::TrainLoss, XAxis::Step, 7).size(), 0);

        // A Keras job: other ranks report, rank 0's bar is the job's series.
        MetricSeries keras;
        keras.append(twoEpochs());
        keras.append({rank(1, 1, 2, 2, 3.0, 0.1), rank(2, 1, 2, 2, 4.0, 0.1)});
        QCOMPARE(keras.ranks(), QList<int>({0, 1, 2}));
        QCOMPARE(keras.points(Metric::TrainLoss, XAxis::Step, 0), keras.points(Metric::TrainLoss));
        QCOMPARE(keras.points(Metric::TrainLoss, XAxis::Step, 2), QList<QPointF>({{2, 4.0}}));

        const QList<QByteArray> csv = s.csvRows(QStringLiteral("r")).trimmed().split('\n');
        QVERIFY(csv.contains(QByteArray("r,rank,1004,1,4,4,1.9,0.15,,,,1000,1")));
    }

    void valWithoutStepFollowsTheLastTrainPoint()
    {
        // Older trainers wrote val records without a global step.
        MetricSeries s;
        QList<MetricRecord> records = twoEpochs();
        records[3].globalStep = -1;  // epoch 1's val, after train step 4
        records[6].globalStep = -1;  // epoch 2's val, after train step 8
        s.append(records.mid(0, 4));
        QCOMPARE(s.points(Metric::ValLoss), QList<QPointF>({{4, 1.7}}));
        s.append(records.mid(4));
        QCOMPARE(s.points(Metric::ValLoss), QList<QPointF>({{4, 1.7}, {8, 1.1}}));
        MetricSeries early;
        early.append({val(1, -1, 2.0, 0.1, 1000)});  // before any train point: nowhere to put it
        QVERIFY(early.points(Metric::ValLoss).isEmpty());
    }

    void pixelColumnsKeepEachColumnsExtremes()
    {
        // 100,000 points of a gentle wave over 500 columns, with a one-point spike up and one
        // down: each column keeps its first, lowest, highest and last point, so the reduced
        // line covers the same pixels, spikes included.
        QList<QPointF> points;
        for (int i = 0; i < 100000; ++i)
            points.append(QPointF(i, std::sin(i * 0.001) + 0.01 * ((i * 7919) % 13)));
        points[54321].setY(100);
        points[77777].setY(-100);
        const int columns = 500;
        const QList<QPointF> drawn = PixelColumns::of(points, 0, 99999, columns);
        QVERIFY2(drawn.size() <= 4 * columns + 2, qPrintable(QString::number(drawn.size())));
        QVERIFY(drawn.contains(QPointF(54321, 100)));
        QVERIFY(drawn.contains(QPointF(77777, -100)));
        QCOMPARE(drawn.first(), points.first());
        QCOMPARE(drawn.last(), points.last());
        // Every column: the same lowest and highest value as the whole line there, and
        // nothing drawn out of x order.
        const double width = 99999.0 / columns;
        QList<double> low(columns, INFINITY), high(columns, -INFINITY), drawnLow = low, drawnHigh = high;
        for (const QPointF &p : points) {
            const int c = std::min(columns - 1, int(p.x() / width));
            low[c] = std::min(low[c], p.y());
            high[c] = std::max(high[c], p.y());
        }
        for (qsizetype i = 0; i < drawn.size(); ++i) {
            QVERIFY(i == 0 || drawn.at(i).x() > drawn.at(i - 1).x());
            const int c = std::min(columns - 1, int(drawn.at(i).x() / width));
            drawnLow[c] = std::min(drawnLow[c], drawn.at(i).y());
            drawnHigh[c] = std::max(drawnHigh[c], drawn.at(i).y());
        }
        QCOMPARE(drawnLow, low);
        QCOMPARE(drawnHigh, high);
        // A range inside: its points reduced alone, with one neighbour past each edge.
        const QList<QPointF> zoomed = PixelColumns::of(points, 54000, 54600, columns);
        QCOMPARE(zoomed.first().x(), 53999.0);
        QCOMPARE(zoomed.last().x(), 54601.0);
        QVERIFY(zoomed.contains(QPointF(54321, 100)));
        // Fewer points than two a column: all of them.
        QCOMPARE(PixelColumns::of(points, 1000, 1500, columns), points.mid(999, 503));
    }

    void compactRowsKeepEveryRecord()
    {
        // Plain train records are kept as 64-byte rows, the others whole: read back, every
        // record is the one given, field by field, in order.
        QList<MetricRecord> given = twoEpochs();
        MetricRecord noisy = train(2, 6, 10, NAN, 0.7, 1007);  // no loss: still a record
        noisy.lr = NAN;
        given << noisy << rank(1, 2, 6, 10, 1.1, 0.65);
        MetricRecord named = train(3, 1, 11, 1.0, 0.8, 1008);
        named.extra = std::make_shared<MetricRecord::Extra>(MetricRecord::Extra{{}, {{QStringLiteral("top5"), 0.97}}, {}});
        given << named;
        MetricRecord big = train(3, 5000000000LL, 5000000011LL, 0.9, 0.85, 1009);
        given << big;
        MetricRecord done;
        done.kind = QStringLiteral("done");
        done.time = 1010;
        given << done;
        MetricSeries s;
        s.append(given.mid(0, 5));
        s.append(given.mid(5));
        QCOMPARE(s.recordCount(), given.size());
        const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
        for (qsizetype i = 0; i < given.size(); ++i) {
            const MetricRecord &want = given.at(i);
            const MetricRecord got = s.record(i);
            const QString at = QStringLiteral("record %1 (%2)").arg(i).arg(want.kind);
            QVERIFY2(got.kind == want.kind && got.epoch == want.epoch && got.step == want.step
                         && got.globalStep == want.globalStep && got.rank == want.rank, qPrintable(at));
            QVERIFY2(same(got.time, want.time) && same(got.loss, want.loss) && same(got.acc, want.acc)
                         && same(got.valLoss, want.valLoss) && same(got.valAcc, want.valAcc) && same(got.lr, want.lr)
                         && same(got.imagesPerSec, want.imagesPerSec), qPrintable(at));
            QCOMPARE(got.numbers(), want.numbers());
        }
        QCOMPARE(s.records().size(), given.size());
        QCOMPARE(s.records().at(9).number(QStringLiteral("top5")), 0.97);
        QByteArray csv;
        for (const MetricRecord &r : given) {
            if (MetricCsv::isRow(r))
                csv += MetricCsv::row(QStringLiteral("run"), r);
        }
        QCOMPARE(s.csvRows(QStringLiteral("run")), csv);
        // The chart's points: every train record with a loss, at its step.
        QCOMPARE(s.points(Metric::TrainLoss),
                 (QList<QPointF>{{2, 2.0}, {4, 1.8}, {6, 1.5}, {8, 1.2}, {11, 1.0}, {5000000011.0, 0.9}}));
        QCOMPARE(s.points(Metric::TrainAcc).size(), 7);
        QCOMPARE(s.points(Metric::LearningRate).size(), 6);
        QCOMPARE(s.smoothedPoints(Metric::TrainLoss, XAxis::Step, 0.5),
                 MetricSeries::smoothed(s.points(Metric::TrainLoss), 0.5));
    }

    void csv()
    {
        MetricSeries s;
        s.append(twoEpochs());
        // The rows of docs/METRICS.md "CSV" (the header is MetricsChartView's, once).
        const QList<QByteArray> lines = s.csvRows(QStringLiteral("run-1")).trimmed().split('\n');
        QCOMPARE(lines.size(), 6);  // 4 train, 2 val (info left out)
        QCOMPARE(lines[0], QByteArray("run-1,train,1001,1,2,2,2,0.1,,,2e-04,1000,"));
        QCOMPARE(lines[2], QByteArray("run-1,val,1003,1,,4,,,1.7,0.3,,,"));
    }
};

QTEST_MAIN(TestMetricSeries)
#include "tst_metricseries.moc"

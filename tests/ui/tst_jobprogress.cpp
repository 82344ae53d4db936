// The status line's epoch and ETA from metric records: the time so far over the work so far
// (steps within an epoch count), times the work left; Keras' "Epoch 3/34" gives the plan too.
#include "job/JobProgress.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

MetricRecord record(const QJsonObject &o)
{
    return *MetricRecord::fromJson(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

class TestJobProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void trainerRunWithPlan()
    {
        QList<MetricRecord> records{
            record({{"time", 100}, {"kind", "info"}, {"epochs", 4}, {"start_epoch", 1}, {"steps_per_epoch", 10}})};
        QCOMPARE(JobProgress::of(records).text(), QString());  // nothing trained yet
        records << record({{"time", 110}, {"kind", "train"}, {"epoch", 1}, {"step", 5}});
        // Half an epoch in 10 s: 3.5 epochs left, 70 s.
        JobProgress p = JobProgress::of(records);
        QCOMPARE(p.epoch, 1);
        QCOMPARE(p.epochs, 4);
        QCOMPARE(p.etaSeconds, 70.0);
        QCOMPARE(p.text(), QStringLiteral("epoch 1/4 · ETA 1 min"));
        records << record({{"time", 250}, {"kind", "train"}, {"epoch", 2}, {"step", 5}});
        // 1.5 epochs in 150 s: 2.5 left, 250 s.
        QCOMPARE(JobProgress::of(records).etaSeconds, 250.0);
        QCOMPARE(JobProgress::of(records).text(), QStringLiteral("epoch 2/4 · ETA 4 min"));
        records << record({{"time", 300}, {"kind", "done"}});
        QCOMPARE(JobProgress::of(records).etaSeconds, 0.0);
    }

    void resumedRunCountsFromItsFirstEpoch()
    {
        // Epochs 11 to 20; one epoch done in 60 s: nine left.
        const QList<MetricRecord> records{
            record({{"time", 0}, {"kind", "info"}, {"epochs", 20}, {"start_epoch", 11}, {"steps_per_epoch", 4}}),
            record({{"time", 60}, {"kind", "train"}, {"epoch", 12}, {"step", 0}})};
        QCOMPARE(JobProgress::of(records).etaSeconds, 540.0);
        QCOMPARE(JobProgress::of(records).text(), QStringLiteral("epoch 12/20 · ETA 9 min"));
    }

    void kerasEpochLine()
    {
        const QList<MetricRecord> records{
            record({{"time", 0}, {"kind", "epoch"}, {"epoch", 1}, {"epochs", 34}, {"source", "keras"}}),
            record({{"time", 5}, {"kind", "train"}, {"epoch", 1}, {"loss", 2.3}}),
            record({{"time", 7205}, {"kind", "train"}, {"epoch", 3}, {"loss", 1.1}})};
        // Two epochs in 7200 s (from the first progress line): 32 left.
        QCOMPARE(JobProgress::of(records).text(), QStringLiteral("epoch 3/34 · ETA 32 h 0 min"));
    }

    void noPlanNoEta()
    {
        const QList<MetricRecord> records{record({{"time", 1}, {"kind", "train"}, {"epoch", 2}})};
        QCOMPARE(JobProgress::of(records).text(), QStringLiteral("epoch 2"));
    }
};

QTEST_APPLESS_MAIN(TestJobProgress)
#include "tst_jobprogress.moc"

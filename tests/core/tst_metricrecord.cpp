#include "metrics/MetricRecord.h"

#include <QTest>

using namespace TrainDesk;

class TestMetricRecord : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesTrainRecord()
    {
        const auto r = MetricRecord::fromJson(R"({"time": 1700000000.123, "kind": "train", "epoch": 1, "step": 120,
            "global_step": 120, "loss": 2.1, "acc": 0.21, "lr": 0.0002, "images_per_sec": 5400.0, "workers": 2})");
        QVERIFY(r.has_value());
        QCOMPARE(r->kind, QStringLiteral("train"));
        QCOMPARE(r->globalStep, 120);
        QCOMPARE(r->loss, 2.1);
        QCOMPARE(r->workers, 2);
        QVERIFY(std::isnan(r->valLoss));
    }

    void parsesValRecord()
    {
        const auto r = MetricRecord::fromJson(R"({"time": 1, "kind": "val", "epoch": 2, "val_loss": 0.5, "val_acc": 0.8})");
        QVERIFY(r.has_value());
        QCOMPARE(r->valAcc, 0.8);
        QCOMPARE(r->epoch, 2);
        QCOMPARE(r->step, -1);
    }

    void rejectsGarbage()
    {
        QVERIFY(!MetricRecord::fromJson("not json"));
        QVERIFY(!MetricRecord::fromJson("{\"loss\": 1}"));  // no kind
        QVERIFY(!MetricRecord::fromJson("{\"kind\": \"train\", \"loss\""));  // half a line
    }
};

QTEST_GUILESS_MAIN(TestMetricRecord)
#include "tst_metricrecord.moc"

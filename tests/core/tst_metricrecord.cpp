#include "metrics/MetricRecord.h"
#include "metrics/ScalarPoint.h"

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

    // One decoder for every reader (issue #41): the summaries' settings and script-named numbers,
    // the sweeps' field by name, the CLI's error messages and scalar points all come from it.
    // (Mutation caught: a scalar without a tag left without one, where ScalarPoint::fromJson
    // gave it its name.)
    void decodesWhatEveryReaderNeeds()
    {
        const auto info = MetricRecord::fromJson(R"({"time": 1, "kind": "info", "device": "cpu", "epochs": 3, "augment": true})");
        QVERIFY(info.has_value());
        QCOMPARE(info->epochs, 3);
        const auto settings = info->settings();
        QCOMPARE(settings.size(), 3);
        QVERIFY(settings.contains(std::pair{QStringLiteral("augment"), QStringLiteral("true")}));
        const auto epoch = MetricRecord::fromJson(R"({"time": 1, "kind": "epoch", "epoch": 2, "val_acc": 0.5, "top5": 0.9})");
        QCOMPARE(epoch->number(QStringLiteral("top5")), 0.9);
        QCOMPARE(epoch->number(QStringLiteral("val_acc")), 0.5);
        QCOMPARE(epoch->number(QStringLiteral("epoch")), 2.0);
        QVERIFY(std::isnan(epoch->number(QStringLiteral("step"))));
        QVERIFY(epoch->numbers().contains(std::pair{QStringLiteral("top5"), 0.9}));
        const auto error = MetricRecord::fromJson(R"({"time": 1, "kind": "error", "message": "f: bad CRC"})");
        QCOMPARE(error->message(), QStringLiteral("f: bad CRC"));
        const auto scalar = MetricRecord::fromJson(R"({"time": 1, "kind": "scalar", "name": "Acc@1", "value": "nan", "epoch": 1.5})");
        QVERIFY(std::isnan(scalar->value));
        QCOMPARE(scalar->tag, QStringLiteral("Acc@1"));  // no tag: the name as written
        QCOMPARE(scalar->number(QStringLiteral("epoch")), 1.5);
        QCOMPARE(scalar->epoch, 1);
        QVERIFY(scalar->toScalar().has_value());
        QVERIFY(!epoch->toScalar().has_value());
        QVERIFY(!scalar->extra);  // the common records carry nothing apart
        QVERIFY(MetricRecord::mayBe(R"({"kind": "scalar"})", "scalar"));
        QVERIFY(!MetricRecord::mayBe(R"({"kind": "train", "name": "scalars"})", "scalar"));
    }

    // A chart holds a long run's millions of records: their kinds and sources share one copy
    // of the text instead of one each (the records grew by a scalar's source and tag in #41).
    // (Mutation caught: `return k;` -> `return text;` in MetricRecord.cpp's shared().)
    void recordsShareTheirKindsAndSources()
    {
        const QByteArray row = R"({"time": 1, "kind": "scalar", "name": "loss", "value": 1, "source": "tensorboard"})";
        const auto a = MetricRecord::fromJson(row);
        const auto b = MetricRecord::fromJson(row);
        QCOMPARE(a->kind.constData(), b->kind.constData());
        QCOMPARE(a->source.constData(), b->source.constData());
        QCOMPARE(a->source, QStringLiteral("tensorboard"));
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

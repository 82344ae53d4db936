// The rules over a job's metric records that more than one reader applies, defined once in
// core/metrics: which records a retried job's resumed attempt replaces (the agent in SQL over
// the stored rows, the charts over the records they hold: metrics/ResumedAttempt), and how
// named series are grouped and labelled (the CLI's `job metrics --scalars` and the charts'
// series pickers: metrics/ScalarSeriesIndex).
#include "metrics/MetricRecord.h"
#include "metrics/MetricRows.h"
#include "metrics/ResumedAttempt.h"
#include "metrics/ScalarPoint.h"
#include "metrics/ScalarSeries.h"
#include "metrics/ScalarSeriesIndex.h"
#include "store/Store.h"

#include <QTest>

#include "LocalClusterFixture.h"

using namespace TrainDesk;

namespace {

QByteArray row(const QString &kind, int epoch, int globalStep)
{
    QJsonObject o{{"time", 1.0}, {"kind", kind}, {"epoch", epoch}, {"global_step", globalStep}};
    if (kind == QLatin1String("rank"))
        o.insert("rank", 1);
    if (kind == QLatin1String("scalar")) {
        o.insert("name", "Loss");
        o.insert("value", 0.5);
        o.insert("file", "stdouterr/stdout-0.txt");
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString describe(const MetricRecord &r)
{
    return QStringLiteral("%1 %2").arg(r.kind).arg(r.epoch);
}

QStringList describeAll(const QList<MetricRecord> &records)
{
    QStringList out;
    for (const MetricRecord &r : records)
        out << describe(r);
    return out;
}

QList<MetricRecord> decoded(const QList<QByteArray> &rows)
{
    QList<MetricRecord> records;
    for (const QByteArray &r : rows)
        records << *MetricRecord::fromJson(r);
    return records;
}

// A job in a fresh store, running its first attempt.
struct RunningJob
{
    QTemporaryDir dir;
    Store store;
    Job job;

    bool start()
    {
        if (!store.open(dir.filePath("t.db")).ok() || !Testing::createLocalCluster(store, dir).ok())
            return false;
        const auto ws = store.workspace("ws");
        job.experimentId = store.experiment(ws->id, "exp")->id;
        job.clusterId = store.cluster(ws->id, "local")->id;
        job.name = "j";
        job.spec = "{}";
        job.uuid = "uuid-1";
        job = *store.createJob(job);
        job.state = JobState::Running;
        return store.updateJob(job).ok();
    }
};

} // namespace

class TestSeriesRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The agent's SQL and the charts keep the same records of the earlier attempt, and those
    // are the ones the rule names: every kind that counts epochs from the resumed epoch on
    // goes, the rest (info, scalar, done, older epochs) stays.
    // (Mutations caught: "rank" dropped from ResumedAttempt::replacedKinds; `>=` made `>` in
    // ResumedAttempt::replaces, which the SQL does not follow.)
    void storeAndChartsReplaceTheSameRecords()
    {
        RunningJob running;
        QVERIFY(running.start());
        QList<QByteArray> first{row("info", 0, 0)};
        for (int epoch = 1; epoch <= 3; ++epoch) {
            for (const char *kind : {"train", "rank", "val", "epoch", "scalar"})
                first << row(QString::fromLatin1(kind), epoch, epoch * 10);
        }
        first << row("done", 3, 30);
        QVERIFY(*running.store.appendJobOutput(running.job.id, "metrics.jsonl", 0, 100, first));
        JobAttempt ended;
        ended.attempt = 1;
        ended.uuid = running.job.uuid;
        QCOMPARE(*running.store.requeueAttempt(running.job, ended, "uuid-2"), true);
        // Attempt 2 resumed at epoch 2 (its checkpoint was epoch 1's).
        const QList<QByteArray> second{row("info", 0, 0), row("train", 2, 15), row("epoch", 2, 20)};
        QVERIFY(*running.store.appendJobOutput(running.job.id, "metrics.jsonl", 0, 100, second));

        // The charts: the arriving records go back in step, and resume at epoch 2.
        const QList<MetricRecord> earlier = decoded(first);
        const auto resumed = ResumedAttempt::resumption(decoded(second), 30);
        QVERIFY(resumed);
        QCOMPARE(resumed->epoch, 2);
        QVERIFY(!ResumedAttempt::resumption(decoded(second), 10));  // forward: no new attempt
        const QStringList chartsKeep = describeAll(ResumedAttempt::withoutReplaced(earlier, resumed->epoch));

        // The store: the same rule in SQL.
        QCOMPARE(*MetricRows::removeRepeated(running.store, running.job.id), 4 * 2);
        QList<MetricRecord> stored;
        for (const auto &[id, text] : running.store.jobMetrics(running.job.id))
            stored << *MetricRecord::fromJson(text);
        const QStringList storeKeeps = describeAll(stored.mid(0, stored.size() - second.size()));

        const QStringList expected{"info 0", "train 1", "rank 1", "val 1", "epoch 1", "scalar 1",
                                   "scalar 2", "scalar 3", "done 3"};
        QCOMPARE(chartsKeep, expected);
        QCOMPARE(storeKeeps, expected);
    }

    // Where an attempt resumed is one rule (ResumedAttempt::marksResumption: the epoch of its
    // first train record with a global step), which the store reads in SQL over the attempt's
    // rows and the charts find as the first step that goes back: the same epoch when the new
    // attempt later records an earlier epoch (a job's own metrics.jsonl may), and when one
    // batch the charts get holds the end of the earlier attempt and the start of the next.
    // (Mutations caught: the store's SQL back to the lowest epoch of the attempt's rows of the
    // replaced kinds, its rule before (it then drops epoch 1 too); resumption() judging only the
    // batch's first train record, as resumedEpoch did (the batch's first step, 30, does not go
    // back: no resumption found).)
    void storeAndChartsResumeAtTheSameEpoch()
    {
        RunningJob running;
        QVERIFY(running.start());
        QList<QByteArray> first{row("info", 0, 0)};
        for (int epoch = 1; epoch <= 3; ++epoch) {
            for (const char *kind : {"train", "rank", "val", "epoch", "scalar"})
                first << row(QString::fromLatin1(kind), epoch, epoch * 10);
        }
        QVERIFY(*running.store.appendJobOutput(running.job.id, "metrics.jsonl", 0, 100, first));
        JobAttempt ended;
        ended.attempt = 1;
        ended.uuid = running.job.uuid;
        QCOMPARE(*running.store.requeueAttempt(running.job, ended, "uuid-2"), true);
        // Attempt 2 resumed at epoch 2; after its first step a line of epoch 1 comes late.
        const QList<QByteArray> second{row("info", 0, 0), row("train", 2, 15), row("rank", 2, 15), row("val", 1, 10),
                                       row("epoch", 2, 20)};
        QVERIFY(*running.store.appendJobOutput(running.job.id, "metrics.jsonl", 0, 100, second));

        // The charts hold attempt 1 up to epoch 2 (its last step 20) and get the rest of it and
        // the start of attempt 2 at once.
        const qsizetype held = 1 + 2 * 5;
        const QList<MetricRecord> arriving = decoded(first.mid(held) + second);
        const auto resumed = ResumedAttempt::resumption(arriving, 20);
        QVERIFY2(resumed, "the step that goes back in the batch is not found");
        QCOMPARE(resumed->epoch, 2);
        QCOMPARE(resumed->from, first.size() - held + 1);  // attempt 2's train record
        // What the charts then hold, as MetricSeries::append makes it.
        const QStringList charts = describeAll(
            ResumedAttempt::withoutReplaced(decoded(first.mid(0, held)) + arriving.mid(0, resumed->from), resumed->epoch)
            + arriving.mid(resumed->from));

        // The store, from attempt 2's rows.
        QCOMPARE(*MetricRows::removeRepeated(running.store, running.job.id), 4 * 2);
        QList<MetricRecord> stored;
        for (const auto &[id, text] : running.store.jobMetrics(running.job.id))
            stored << *MetricRecord::fromJson(text);

        const QStringList expected{"info 0", "train 1", "rank 1", "val 1", "epoch 1", "scalar 1", "scalar 2", "scalar 3",
                                   "info 0", "train 2", "rank 2", "val 1", "epoch 2"};
        QCOMPARE(charts, expected);
        QCOMPARE(describeAll(stored), expected);
    }

    // `job metrics --scalars` (the CLI reads the stored rows of the scalar kinds) and a chart's
    // series picker (the GUI gets every record, as JobMonitor sends them) group the same series
    // under the same labels, in the same order.
    // (Mutations caught: ScalarSeriesIndex::scalarKey with the tag too, the grouping
    // ScalarSeries had before it used the index (a tag of its own made a series apart); the
    // label of a task file's series made "name: file (rank N)", as ScalarSeries::label was.)
    void cliAndChartsGroupAndLabelSeriesAlike()
    {
        RunningJob running;
        QVERIFY(running.start());
        QList<QByteArray> rows{R"({"time": 1, "kind": "train", "epoch": 1, "step": 1, "global_step": 1, "loss": 2, "lr": 0.1})"};
        const auto point = [&rows](const QString &name, const QString &file, int rank, const QString &tag, qint64 step) {
            ScalarPoint p;
            p.time = 2;
            p.name = name;
            p.value = double(step) / 10;
            p.step = step;
            p.source = QStringLiteral("key-value");
            p.file = file;
            p.rank = rank;
            p.tag = tag;
            rows << p.toJson();
        };
        for (qint64 step = 1; step <= 2; ++step) {
            point("Loss", "stdouterr/stdout-0.txt", 0, "Loss", step);
            point("Loss", "stdouterr/stdout-1.txt", 1, "Loss", step);
            point("acc", "logs/events.out.tfevents.1700000000.host", -1, "acc", step);
            point("bleu", "out/eval.log", -1, "bleu", step);
        }
        // The same series, printed another way once (a tag of its own).
        point("Loss", "stdouterr/stdout-0.txt", 0, "Epoch Loss", 3);
        QVERIFY(*running.store.appendJobOutput(running.job.id, "metrics.jsonl", 0, 100, rows));

        const QList<ScalarSeries> cli =
            ScalarSeries::fromRecords(MetricRows::recordsOf(running.store, running.job.id, {QStringLiteral("scalar")}));
        QStringList cliLabels;
        for (const ScalarSeries &s : cli)
            cliLabels << s.label;

        qint64 lastId = 0;
        const QList<MetricRecord> records = MetricRows::newRecords(running.store, running.job.id, &lastId);
        ScalarSeriesIndex charts;
        charts.update(records);
        QStringList chartLabels;
        for (const QString &key : charts.scalarKeys())
            chartLabels << charts.label(key);

        const QStringList expected{"Loss (rank 0)", "Loss (rank 1)", "acc (TensorBoard)", "bleu (eval.log)"};
        QCOMPARE(cliLabels, expected);
        QCOMPARE(chartLabels, expected);
        QCOMPARE(cli.first().points.size(), 3);
        // The train record's learning rate is the charts' too, not a named scalar.
        QCOMPARE(charts.keys().size(), expected.size() + 1);
        QCOMPARE(charts.label(charts.keys().first()), QStringLiteral("learning rate"));
    }
};

QTEST_GUILESS_MAIN(TestSeriesRules)
#include "tst_seriesrules.moc"

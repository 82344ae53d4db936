// The CSV of one job from the CLI (`traindesk job metrics --csv`, the real program) and from
// the GUI's chart export are the same bytes: both are core/metrics/MetricCsv over the rows
// core/metrics/MetricRows reads (issue 32). And nothing is rounded on the way.
#include "TestHome.h"

#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "defaults/EmbeddedDefaults.h"
#include "metrics/MetricCsv.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// Records as the trainer and the progress parsers store them: every kind the table has and
// some it leaves out, and numbers that 6 or 10 digits would round.
QList<QByteArray> storedRecords()
{
    return {
        R"({"kind":"info","time":1764155400.5,"epochs":2,"workers":2})",
        R"({"kind":"train","time":1764155412.123456,"epoch":1,"step":1,"global_step":1,"loss":0.30000000000000004,)"
        R"("acc":0.3333333333333333,"lr":1e-05,"images_per_sec":1234.5678901234567})",
        R"({"kind":"rank","time":1764155412.2,"epoch":1,"step":1,"global_step":1,"rank":1,"loss":2.718281828459045,)"
        R"("acc":0.125,"images_per_sec":617.28394506172835})",
        R"({"kind":"train","time":1764155413,"epoch":1,"step":2,"global_step":2,"loss":1e-300,"acc":1,"lr":1e-05,)"
        R"("images_per_sec":123456789012345680000})",
        R"({"kind":"scalar","time":1764155413.5,"name":"eval/bleu","value":0.25,"step":2,"rank":0,"file":"events"})",
        R"({"kind":"val","time":1764155414.75,"epoch":1,"val_loss":0.6931471805599453,"val_acc":0.7071067811865476})",
        R"({"kind":"epoch","time":1764155415,"epoch":1,"loss":-0.5,"acc":0.999999999999,"seconds":3.25})",
        R"({"kind":"done","time":1764155416,"complete":true})",
    };
}

} // namespace

class TestMetricsCsv : public QObject
{
    Q_OBJECT

    TestHome m_home;
    Store m_store;
    qint64 m_jobId = 0;
    QString m_jobName = QStringLiteral("lossless-1");

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(m_home.filePath(QStringLiteral("traindesk.db"))));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        QVERIFY(ws);
        const auto exp = m_store.experiment(ws->id, QLatin1String(EmbeddedDefaults::experimentName));
        QVERIFY(exp);
        const auto cluster = m_store.cluster(ws->id, QLatin1String(EmbeddedDefaults::clusterName));
        QVERIFY(cluster);
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = m_jobName;
        job.spec = EmbeddedDefaults::demoJobSpec();
        job.state = JobState::Draft;  // nothing for an agent to start
        job.uuid = QStringLiteral("00000000-0000-0000-0000-000000000032");
        const auto created = m_store.createJob(job);
        QVERIFY2(created, qPrintable(created.error()));
        m_jobId = created->id;
        const auto stored = m_store.appendJobOutput(m_jobId, QStringLiteral("metrics.jsonl"), 0, 1000, storedRecords());
        QVERIFY2(stored && *stored, qPrintable(stored.error()));
    }

    void cliAndGuiExportTheSameBytes()
    {
        // The CLI, as a user runs it, on the data directory of this test (TRAINDESK_HOME).
        const QString traindesk = qEnvironmentVariable("TRAINDESK_AGENT_PROGRAM");
        QVERIFY2(QFile::exists(traindesk), "TRAINDESK_AGENT_PROGRAM names no traindesk program");
        QProcess cli;
        cli.start(traindesk, {QStringLiteral("job"), QStringLiteral("metrics"), QStringLiteral("-w"),
                              QLatin1String(EmbeddedDefaults::workspaceName), QStringLiteral("-e"),
                              QLatin1String(EmbeddedDefaults::experimentName), QStringLiteral("-j"), m_jobName,
                              QStringLiteral("--csv")});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QByteArray fromCli = cli.readAllStandardOutput();

        // The GUI: the chart's series fed by the reader the job monitor uses, exported.
        MetricSeries series;
        qint64 lastId = 0;
        series.reset(MetricRows::newRecords(m_store, m_jobId, &lastId));
        MetricsChartView view(&series);
        view.setRunName(m_jobName);
        QSignalSpy exported(&view, &MetricsChartView::exported);
        const QString path = m_home.filePath(QStringLiteral("gui.csv"));
        view.exportCsv(path);
        QTRY_COMPARE(exported.count(), 1);
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray fromGui = file.readAll();

        QCOMPARE(fromGui, fromCli);

        // What they both are: the header, then the train, rank, val and epoch rows in the order
        // stored (info, scalar and done records are no rows), every number read back as stored.
        QList<QByteArray> lines = fromCli.split('\n');
        QCOMPARE(lines.takeLast(), QByteArray());  // after the last newline
        QCOMPARE(lines.takeFirst() + '\n', MetricCsv::header());
        const QStringList columns = QString::fromUtf8(MetricCsv::header()).trimmed().split(QLatin1Char(','));
        QList<QJsonObject> rows;
        for (const QByteArray &record : storedRecords()) {
            const QJsonObject o = QJsonDocument::fromJson(record).object();
            if (QStringList{"train", "rank", "val", "epoch"}.contains(o.value(QStringLiteral("kind")).toString()))
                rows.append(o);
        }
        QCOMPARE(lines.size(), rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QList<QByteArray> cells = lines.at(i).split(',');
            QCOMPARE(cells.size(), columns.size());
            QCOMPARE(cells.at(0), m_jobName.toUtf8());
            QCOMPARE(QString::fromUtf8(cells.at(1)), rows.at(i).value(QStringLiteral("kind")).toString());
            for (qsizetype c = 2; c < columns.size(); ++c) {
                const QJsonValue v = rows.at(i).value(columns.at(c));
                if (v.isUndefined()) {
                    QVERIFY2(cells.at(c).isEmpty(), qPrintable(QStringLiteral("%1 of row %2").arg(columns.at(c)).arg(i)));
                    continue;
                }
                bool ok = false;
                QCOMPARE(cells.at(c).toDouble(&ok), v.toDouble());  // exactly: nothing rounded
                QVERIFY(ok);
            }
        }
        // Short where the number is: no digits made up.
        QVERIFY(lines.at(0).contains(",0.30000000000000004,0.3333333333333333,,,1e-05,"));
        QVERIFY(lines.at(4).endsWith(",-0.5,0.999999999999,,,,,"));
    }

    void comparedRunsShareTheColumns()
    {
        // Rows of several runs make one table: the header once, each row naming its run.
        QCOMPARE(MetricCsv::row(QStringLiteral("a,\"b\""), MetricRecord{}).left(10), QByteArray("\"a,\"\"b\"\"\","));
        MetricRecord epoch;
        epoch.kind = QStringLiteral("epoch");
        QVERIFY(MetricCsv::isRow(epoch));
        epoch.kind = QStringLiteral("info");
        QVERIFY(!MetricCsv::isRow(epoch));
    }
};

QTEST_MAIN(TestMetricsCsv)
#include "tst_metricscsv.moc"

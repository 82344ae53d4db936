// The runner on the local cluster with real processes: mpirun, the detached launch
// script, exit codes, preparation, gang scheduling, terminate, and metrics at offsets.
#include "TfEventsWriter.h"
#include "jobs/JobOutput.h"
#include "metrics/MetricRows.h"
#include "metrics/ScalarSeries.h"
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "jobspec/JobSpecParses.h"
#include "store/Store.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "EscapingJob.h"
#include "LocalClusterFixture.h"
#include <QThread>

using namespace TrainDesk;
using Testing::localJobSpec;

class TestJobRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;
    int m_jobCounter = 0;

    Job submit(const QByteArray &json)
    {
        JobRunner runner(m_store);
        const auto job = JobSubmission(m_store).submit({"ws", "exp", QStringLiteral("job%1").arg(++m_jobCounter), "local", json});
        if (!job)
            qFatal("submit failed: %s", qPrintable(job.error()));
        // Submit only queues; the test stands in for the agent, which schedules.
        runner.refreshAll();
        return *m_store.jobById(job->id);
    }

    Job waitForEnd(qint64 jobId, int timeoutMs = 60000)
    {
        JobRunner runner(m_store);
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            runner.refreshAll();
            const auto job = m_store.jobById(jobId);
            if (isFinished(job->state))
                return *job;
            QThread::msleep(100);
        }
        return *m_store.jobById(jobId);
    }

    QByteArray readJobFile(const Job &job, const QString &relative)
    {
        QFile f(job.jobDir + "/" + relative);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }


    Testing::EscapingJob m_escaping;
    QByteArray escapingSpec(const QJsonObject &constraints = {})
    {
        m_escaping = {};
        QJsonObject props{{"nodeCount", 1}, {"customToolkitSettings", QJsonObject{{"commandLine", m_escaping.command()}}},
                          {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/share"}};
        if (!constraints.isEmpty())
            props.insert("constraints", constraints);
        return QJsonDocument(QJsonObject{{"properties", props}}).toJson();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_store.open(m_dir.filePath("traindesk.db")).ok());
        const auto created = Testing::createLocalCluster(m_store, m_dir, 2);
        QVERIFY2(created.ok(), qPrintable(created.error()));
    }

    void succeedsWithTwoRanks()
    {
        const Job submitted = submit(localJobSpec("sh -c 'echo rank=$OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE; echo dir=$AZ_BATCHAI_STDOUTERR_DIR'", 2));
        QCOMPARE(toString(submitted.state), toString(JobState::Running));  // the cluster was idle: started at once
        QVERIFY(submitted.pid > 0);
        // Both ranks on the one node (2 slots): as the plan mapped them, stored with the job.
        QCOMPARE(submitted.rankNodes, (QStringList{"localhost", "localhost"}));
        const Job job = waitForEnd(submitted.id);
        QCOMPARE(job.rankNodes, (QStringList{"localhost", "localhost"}));
        QCOMPARE(toString(job.state), toString(JobState::Succeeded));
        QCOMPARE(job.exitCode.value_or(-1), 0);
        QVERIFY(job.ended >= job.started);
        const QByteArray out = readJobFile(job, "stdouterr/stdout.txt");
        QVERIFY2(out.contains("rank=0 of 2") && out.contains("rank=1 of 2"), out.constData());
        QVERIFY2(out.contains("dir=" + (job.jobDir + "/stdouterr").toUtf8()), out.constData());
        // The share is reachable under the mount root, as on the service.
        QVERIFY(job.jobDir.startsWith(m_dir.filePath("mounts") + "/share/workspaces/ws/experiments/exp/jobs/"));
        QVERIFY(QFileInfo(m_dir.filePath("share/workspaces")).isDir());
        QVERIFY(readJobFile(job, "stdouterr/execution-localhost.log").contains("finished with exit code 0"));
    }

    void failureKeepsExitCode()
    {
        const Job job = waitForEnd(submit(localJobSpec("sh -c 'echo broken >&2; exit 3'", 1)).id);
        QCOMPARE(toString(job.state), toString(JobState::Failed));
        // mpirun reports the failing rank's exit status.
        QCOMPARE(job.exitCode.value_or(-1), 3);
        QCOMPARE(job.errors.size(), 1);
        QCOMPARE(job.errors.first().code, QStringLiteral("JobFailed"));
        QVERIFY(readJobFile(job, "stdouterr/stderr.txt").contains("broken"));
    }

    void preparationFailureFailsJob()
    {
        const Job job = waitForEnd(submit(localJobSpec("sh -c 'echo should-not-run'", 1, "echo preparing; exit 5")).id);
        QCOMPARE(toString(job.state), toString(JobState::Failed));
        QCOMPARE(job.exitCode.value_or(-1), 5);
        QCOMPARE(job.errors.first().code, QStringLiteral("JobPreparationFailed"));
        QVERIFY(readJobFile(job, "stdouterr/stdout-job_prep-localhost.txt").contains("preparing"));
        QVERIFY(!QFile::exists(job.jobDir + "/stdouterr/stdout.txt"));
    }

    void gangSchedulingAndTerminate()
    {
        // `first` holds both cores of the one node (2 ranks); `second` waits until it is terminated.
        const Job first = submit(localJobSpec("sleep 60", 2));
        QCOMPARE(toString(first.state), toString(JobState::Running));
        const Job second = submit(localJobSpec("sh -c 'echo second'", 1));
        QCOMPARE(toString(second.state), toString(JobState::Queued));
        JobRunner runner(m_store);
        runner.refreshAll();
        QCOMPARE(toString(m_store.jobById(second.id)->state), toString(JobState::Queued));
        QCOMPARE(m_store.jobById(second.id)->schedulerState, QStringLiteral("needs 1 core, node localhost has 0 cores free"));

        QElapsedTimer timer;
        timer.start();
        const auto terminated = runner.terminate(first.id, 5000);
        QVERIFY2(terminated.ok(), qPrintable(terminated.error()));
        QCOMPARE(toString(terminated->state), toString(JobState::Failed));
        QCOMPARE(terminated->errors.first().code, QStringLiteral("JobTerminated"));
        QVERIFY(timer.elapsed() < 20000);
        // Nothing of the job's process group is left.
        QCOMPARE(QProcess::execute("/bin/sh", {"-c", QStringLiteral("ps -eo pgid=,stat= | awk '$1 == %1 && $2 !~ /^Z/ { found = 1 } END { exit !found }'").arg(first.pid)}), 1);

        runner.refreshAll();
        const Job done = waitForEnd(second.id);
        QCOMPARE(toString(done.state), toString(JobState::Succeeded));
    }

    void terminateEndsEveryProcessOfTheJob()
    {
        const Job job = submit(escapingSpec());
        QCOMPARE(toString(job.state), toString(JobState::Running));
        QTRY_VERIFY_WITH_TIMEOUT(m_escaping.allStarted(), 20000);
        QCOMPARE(readJobFile(job, "tracking").left(6), QByteArray("reaper"));
        JobRunner runner(m_store);
        QElapsedTimer timer;
        timer.start();
        const auto ended = runner.terminate(job.id, 3000);
        QVERIFY2(ended.ok(), qPrintable(ended.error()));
        QCOMPARE(toString(ended->state), toString(JobState::Failed));
        // The job has ended only when all of it has: nothing is left when terminate returns.
        QVERIFY2(m_escaping.running().isEmpty(), qPrintable(m_escaping.running()));
        QVERIFY2(timer.elapsed() < 3000 + 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void wallClockEndsEveryProcessOfTheJob()
    {
        QElapsedTimer timer;
        timer.start();
        const Job submitted = submit(escapingSpec({{"maxWallClockTime", "PT3S"}}));
        QTRY_VERIFY_WITH_TIMEOUT(m_escaping.allStarted(), 20000);
        const Job job = waitForEnd(submitted.id, 60000);
        QCOMPARE(toString(job.state), toString(JobState::Failed));
        QCOMPARE(readJobFile(job, "failed_step").trimmed(), QByteArray("max_wall_clock_time"));
        QVERIFY2(m_escaping.running().isEmpty(), qPrintable(m_escaping.running()));
        // 3 s, then the grace period (JobRunner::terminateGraceMs) for what ignores SIGTERM.
        QVERIFY2(timer.elapsed() < 3000 + JobRunner::terminateGraceMs + 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void leftoversOfAJobThatEndedAreGoneWhenItIs()
    {
        // The command ends (its last process is killed): what it left behind goes before the
        // job counts as ended, TERM-ignoring ones after the grace period.
        const Job submitted = submit(escapingSpec());
        QTRY_VERIFY_WITH_TIMEOUT(m_escaping.allStarted(), 20000);
        QCOMPARE(QProcess::execute(QStringLiteral("pkill"), {"-TERM", "-x", "-f", m_escaping.foreground()}), 0);
        const Job job = waitForEnd(submitted.id, 60000);
        QCOMPARE(toString(job.state), toString(JobState::Failed));  // its last command was killed
        QVERIFY2(m_escaping.running().isEmpty(), qPrintable(m_escaping.running()));
    }

    void metricsReadAtSavedOffsets()
    {
        // The job writes two records and half a third; the reader takes whole lines only,
        // and reading again adds nothing twice.
        const QString writer = "sh -c 'f=$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl; "
                               "echo \"{\\\"kind\\\": \\\"train\\\", \\\"loss\\\": 2.0}\" >> $f; "
                               "echo \"{\\\"kind\\\": \\\"train\\\", \\\"loss\\\": 1.5}\" >> $f; "
                               "printf \"{\\\"kind\\\": \\\"tr\" >> $f'";
        const Job job = waitForEnd(submit(localJobSpec(writer, 1)).id);
        QCOMPARE(toString(job.state), toString(JobState::Succeeded));
        JobOutput output(m_store);
        auto read = output.ingestMetrics(job);
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(*read, 2);
        QCOMPARE(*output.ingestMetrics(job), 0);
        // The writer finishes the line; only the new record arrives.
        QFile f(job.jobDir + "/stdouterr/metrics.jsonl");
        QVERIFY(f.open(QIODevice::Append));
        f.write("ain\", \"loss\": 1.0}\n");
        f.close();
        QCOMPARE(*output.ingestMetrics(job), 1);
        qint64 lastId = 0;  // all of them
        const QList<MetricRecord> all = MetricRows::newRecords(m_store, job.id, &lastId);
        QCOMPARE(all.size(), 3);
        QCOMPARE(all.at(2).loss, 1.0);
    }

    void kerasScriptProgressBecomesMetrics()
    {
        // A script that prints Keras progress (no metrics.jsonl) gets chart records too,
        // read from stdout.txt through mpirun's rank tags.
        const QString script = "sh -c 'printf \"Epoch 1/1\\n  32/64 [==>..] - loss: 2.5000 - acc: 0.1000\\r"
                               "64/64 [=====] - 1s - loss: 2.0000 - acc: 0.2000 - val_loss: 1.9000 - val_acc: 0.2500\\n\"'";
        const Job job = waitForEnd(submit(localJobSpec(script, 1)).id);
        QCOMPARE(toString(job.state), toString(JobState::Succeeded));
        JobOutput output(m_store);
        const auto read = output.ingestMetrics(job);
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(*read, 4);  // epoch marker, two train records, one val record
        QCOMPARE(*output.ingestMetrics(job), 0);
        qint64 lastId = 0;  // all of them
        const QList<MetricRecord> all = MetricRows::newRecords(m_store, job.id, &lastId);
        QCOMPARE(all.at(2).loss, 2.0);
        QCOMPARE(all.at(3).valAcc, 0.25);
    }

    void scriptScalarsAreStoredOnceAndADamagedEventFileIsNamedOnce()
    {
        // A script's key=value line in its rank's stdout-0.txt, and TensorBoard files it
        // left: one whole, one torn at its end, one with a damaged record.
        const Job job = waitForEnd(submit(localJobSpec("sh -c 'echo step=3 loss=0.25 lr=0.1'", 1)).id);
        QCOMPARE(toString(job.state), toString(JobState::Succeeded));
        QCOMPARE(readJobFile(job, "stdouterr/stdout-0.txt"), QByteArray("step=3 loss=0.25 lr=0.1\n"));
        QDir().mkpath(job.jobDir + "/logs");
        using namespace TfEventsWriter;
        const QByteArray good = record(TfEventsWriter::event(10, 1, {simpleValue("loss", 0.5f)})) + record(TfEventsWriter::event(11, 2, {simpleValue("loss", 0.25f)}));
        const QByteArray third = record(TfEventsWriter::event(12, 3, {tensorValue("acc", 0.75f)}));
        auto write = [&](const QString &name, const QByteArray &data, QIODevice::OpenMode mode = QIODevice::WriteOnly) {
            QFile f(job.jobDir + "/logs/" + name);
            QVERIFY(f.open(mode));
            f.write(data);
        };
        write("events.out.tfevents.1.torn", good + third.left(third.size() - 3));
        QByteArray damaged = good + third;
        damaged[good.size() + 14] = char(damaged[good.size() + 14] ^ 0x20);
        write("events.out.tfevents.2.damaged", damaged);

        JobOutput output(m_store);
        const auto read = output.ingestMetrics(job);
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(*read, 2 + 2 + 2);  // loss and lr from the line; two records of each event file
        QCOMPARE(*output.ingestMetrics(job), 0);
        // The torn record's end arrives: it is read, nothing twice.
        write("events.out.tfevents.1.torn", third.right(3), QIODevice::Append);
        QCOMPARE(*output.ingestMetrics(job), 1);

        QList<MetricRecord> records;
        for (const auto &[id, row] : m_store.jobMetrics(job.id)) {
            if (const auto record = MetricRecord::fromJson(row))
                records << *record;
        }
        const QList<ScalarSeries> series = ScalarSeries::fromRecords(records);
        QStringList seen;
        for (const ScalarSeries &s : series)
            seen << QStringLiteral("%1 %2 %3 %4").arg(s.name, s.file).arg(s.rank).arg(s.points.size());
        seen.sort();  // the files are read in the order the node lists them
        QCOMPARE(seen, (QStringList{"acc logs/events.out.tfevents.1.torn -1 1", "loss logs/events.out.tfevents.1.torn -1 2",
                                    "loss logs/events.out.tfevents.2.damaged -1 2", "loss stdouterr/stdout-0.txt 0 1",
                                    "lr stdouterr/stdout-0.txt 0 1"}));
        for (const ScalarSeries &s : series) {
            if (s.file == QLatin1String("stdouterr/stdout-0.txt"))
                QCOMPARE(s.points.first().step, 3);
        }
        // The damaged record is named once, with its offset, however often the file is looked at.
        const QStringList problems = ScalarSeries::problems(records);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(QStringLiteral("logs/events.out.tfevents.2.damaged: the record at offset %1 fails its CRC")
                                               .arg(good.size())),
                 qPrintable(problems.first()));
    }

    void agentTickParsesNoJobSpec()
    {
        // One runner, as the agent's: a running job with a progress timeout (its constraints are
        // read at every look) and a queued one that waits for both slots (the scheduler looks at
        // it at every tick). Each spec is parsed when first needed and kept: ticks parse nothing.
        JobRunner runner(m_store);
        const QString release = m_dir.filePath("release-tick-job");
        QJsonObject running = QJsonDocument::fromJson(localJobSpec(QStringLiteral("sh -c 'while [ ! -e %1 ]; do sleep 0.1; done'")
                                                                .arg(release), 1))
                                  .object();
        QJsonObject props = running.value("properties").toObject();
        props.insert("constraints", QJsonObject{{"progressTimeout", "1h"}});
        running.insert("properties", props);
        const auto first = JobSubmission(m_store).submit({"ws", "exp", "tick-running", "local", QJsonDocument(running).toJson()});
        QVERIFY2(first.ok(), qPrintable(first.error()));
        runner.refreshAll();
        const auto second = JobSubmission(m_store).submit({"ws", "exp", "tick-queued", "local", localJobSpec("true", 2)});
        QVERIFY2(second.ok(), qPrintable(second.error()));
        runner.refreshAll();  // the queued job's spec is read here, the first time
        QCOMPARE(toString(m_store.jobById(first->id)->state), toString(JobState::Running));
        QCOMPARE(toString(m_store.jobById(second->id)->state), toString(JobState::Queued));
        QVERIFY2(!m_store.jobById(second->id)->schedulerState.isEmpty(), "the queued job says what it waits for");
        // Its launch process found (pid known): watchProgress is reached from here on.
        QTRY_VERIFY_WITH_TIMEOUT((runner.refreshAll(), m_store.jobById(first->id)->pid > 0), 30000);
        const quint64 before = jobSpecParses();
        for (int tick = 0; tick < 5; ++tick)
            runner.refreshAll();
        QCOMPARE(jobSpecParses(), before);
        QCOMPARE(toString(m_store.jobById(first->id)->state), toString(JobState::Running));
        QCOMPARE(toString(m_store.jobById(second->id)->state), toString(JobState::Queued));
        QFile file(release);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QCOMPARE(toString(waitForEnd(first->id).state), toString(JobState::Succeeded));
        QCOMPARE(toString(waitForEnd(second->id).state), toString(JobState::Succeeded));
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"

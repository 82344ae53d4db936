// Retries, hangs and their job.json settings, without running a job: the constraints
// extensions (read, validated, set from the CLI's options), which failures are retried, the
// Store's attempts and metric de-duplication, the silent ranks found from a job's output,
// and the variables an attempt's plan gives its script.
#include "jobs/JobRetry.h"
#include "jobs/ProgressWatch.h"
#include "jobspec/JobSpec.h"
#include "jobspec/ReliabilitySettings.h"
#include "launch/LaunchPlan.h"
#include "metrics/MetricRows.h"
#include "session/ResourceSnapshot.h"
#include "store/Store.h"
#include "transport/LocalTransport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "LocalClusterFixture.h"

using namespace TrainDesk;

namespace {

QByteArray specWith(const QJsonObject &constraints)
{
    QJsonObject props{{"nodeCount", 1},
                      {"customMpiSettings", QJsonObject{{"commandLine", "true"}, {"processCount", 2}}},
                      {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/share"},
                      {"outputDirectories", QJsonArray{QJsonObject{{"id", "MODEL"}, {"pathPrefix", "/out"}}}}};
    if (!constraints.isEmpty())
        props.insert("constraints", constraints);
    return QJsonDocument(QJsonObject{{"properties", props}}).toJson();
}

QStringList messages(const ParsedJobSpec &parsed, SpecIssue::Severity severity)
{
    QStringList out;
    for (const SpecIssue &i : parsed.issues) {
        if (i.severity == severity)
            out << i.path + QStringLiteral(": ") + i.message;
    }
    return out;
}

QByteArray record(const QString &kind, int epoch, int globalStep)
{
    return QJsonDocument(QJsonObject{{"time", 1.0}, {"kind", kind}, {"epoch", epoch}, {"global_step", globalStep}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class TestReliability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void constraintsAreReadAndMarkedAsExtensions()
    {
        const ParsedJobSpec parsed = parseJobSpec(specWith({{"maxRetries", 2}, {"retryOnExitCodes", QJsonArray{75, 143}},
                                                            {"progressTimeout", "30m"}, {"failOnHang", true}}));
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join("; ")));
        const ReliabilitySettings s = ReliabilitySettings::of(parsed.spec);
        QCOMPARE(s.maxRetries, 2);
        QCOMPARE(s.retryOnExitCodes, (QList<int>{75, 143}));
        QCOMPARE(s.progressTimeoutSeconds, 1800);
        QVERIFY(s.failOnHang);
        const QStringList warnings = messages(parsed, SpecIssue::Severity::Warning);
        for (const QString &key : reliabilityExtensionKeys()) {
            QVERIFY2(warnings.filter("properties.constraints." + key + ": TrainDesk extension").size() == 1,
                     qPrintable(warnings.join("\n")));
        }
        // Written back as read.
        const QJsonObject written = QJsonDocument::fromJson(writeJobSpec(parsed.spec)).object();
        QCOMPARE(written["properties"].toObject()["constraints"].toObject()["retryOnExitCodes"].toArray(), (QJsonArray{75, 143}));
        QCOMPARE(written["properties"].toObject()["constraints"].toObject()["failOnHang"].toBool(), true);
    }

    void badConstraintsNameTheirPath()
    {
        const ParsedJobSpec parsed = parseJobSpec(specWith({{"maxRetries", -1}, {"retryOnExitCodes", QJsonArray{75, "x", 300}},
                                                            {"progressTimeout", "soon"}, {"failOnHang", "yes"}}));
        const QString errors = messages(parsed, SpecIssue::Severity::Error).join("\n");
        QVERIFY2(errors.contains("properties.constraints.maxRetries: expected an integer of at least 0, found -1"), qPrintable(errors));
        QVERIFY2(errors.contains("properties.constraints.retryOnExitCodes[1]: expected an integer, found a string"), qPrintable(errors));
        QVERIFY2(errors.contains("properties.constraints.retryOnExitCodes[2]: expected an integer from 1 to 255, found 300"), qPrintable(errors));
        QVERIFY2(errors.contains("properties.constraints.progressTimeout: expected a duration such as 90s, 30m, 2h or 00:30:00, found 'soon'"),
                 qPrintable(errors));
        QVERIFY2(errors.contains("properties.constraints.failOnHang: expected a boolean, found a string"), qPrintable(errors));
    }

    void progressTimeoutForms()
    {
        QCOMPARE(parseProgressTimeout("90s").value_or(-1), 90);
        QCOMPARE(parseProgressTimeout("90").value_or(-1), 90);
        QCOMPARE(parseProgressTimeout("30m").value_or(-1), 1800);
        QCOMPARE(parseProgressTimeout("2h").value_or(-1), 7200);
        QCOMPARE(parseProgressTimeout("00:30:00").value_or(-1), 1800);
        QCOMPARE(parseProgressTimeout("PT45S").value_or(-1), 45);
        QVERIFY(!parseProgressTimeout("0s"));
        QVERIFY(!parseProgressTimeout("-5m"));
    }

    void cliOptionsGoIntoConstraints()
    {
        ReliabilityOptions o;
        o.maxRetries = 3;
        o.retryOnExitCodes = QList<int>{137};
        o.progressTimeout = QStringLiteral("10m");
        o.failOnHang = true;
        for (const bool fileShape : {true, false}) {
            QByteArray spec = specWith({{"maxWallClockTime", "1:00:00"}});
            if (!fileShape)
                spec = QJsonDocument(QJsonDocument::fromJson(spec).object()["properties"].toObject()).toJson();
            const auto applied = applyReliabilityOptions(spec, o);
            QVERIFY(applied.ok());
            const ParsedJobSpec parsed = parseJobSpec(*applied);
            QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join("; ")));
            QCOMPARE(parsed.spec.constraints->maxWallClockTime.value_or(""), QStringLiteral("1:00:00"));  // kept
            const ReliabilitySettings s = ReliabilitySettings::of(parsed.spec);
            QCOMPARE(s.maxRetries, 3);
            QCOMPARE(s.retryOnExitCodes, QList<int>{137});
            QCOMPARE(s.progressTimeoutSeconds, 600);
            QVERIFY(s.failOnHang);
        }
        QVERIFY(!applyReliabilityOptions("[1]", o).ok());
        QVERIFY(parseExitCodeList("137, 143").ok());
        QCOMPARE(parseExitCodeList("137,x").error(), QStringLiteral("--retry-on-exit-codes: 'x' is not an exit code from 1 to 255"));
    }

    void whichFailuresAreRetried()
    {
        ReliabilitySettings s;
        s.maxRetries = 1;
        s.retryOnExitCodes = {75};
        const auto reason = [&](const QString &code, std::optional<int> exit) {
            return JobRetry::retryReason(s, {JobError{code, "m", {}}}, exit);
        };
        QVERIFY(reason("NodeUnreachable", std::nullopt));
        QCOMPARE(reason("JobFailed", 137).value_or(""), QStringLiteral("a process was killed by signal 9 (exit code 137)"));
        QVERIFY(reason("JobFailed", 75));
        QVERIFY(reason("JobHung", std::nullopt));
        QVERIFY(!reason("JobFailed", 1));     // not listed: the script's answer
        QVERIFY(!reason("JobFailed", 128));
        QVERIFY(!reason("JobTerminated", 143));
        QVERIFY(!reason("JobPreparationFailed", 137));
        QVERIFY(!reason("MaxWallClockTimeExceeded", 137));
        QVERIFY(!reason("JobStartFailed", std::nullopt));
        s.maxRetries = 0;
        QVERIFY(!reason("NodeUnreachable", std::nullopt));
        QCOMPARE(JobRetry::lostNodes({JobError{"NodeUnreachable", "m", {"x", JobRetry::lostNodeDetail("node2")}}}),
                 QStringList{"node2"});
    }

    void storeKeepsAttemptsAndEachEpochOnce()
    {
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("t.db")).ok());
        QVERIFY(Testing::createLocalCluster(store, dir).ok());
        const auto ws = store.workspace("ws");
        Job job;
        job.experimentId = store.experiment(ws->id, "exp")->id;
        job.clusterId = store.cluster(ws->id, "local")->id;
        job.name = "j";
        job.spec = specWith({{"maxRetries", 1}});
        job.uuid = "uuid-1";
        job = *store.createJob(job);
        job.state = JobState::Running;
        job.nodes = {"localhost"};
        job.jobDir = "/jobs/uuid-1";
        QVERIFY(store.updateJob(job).ok());
        // Attempt 1: epochs 1 and 2 whole, epoch 3 begun.
        QList<QByteArray> first{record("info", 0, 0)};
        for (int epoch = 1; epoch <= 3; ++epoch) {
            first << record("train", epoch, epoch * 10 - 5);
            if (epoch < 3)
                first << record("epoch", epoch, epoch * 10);
        }
        QVERIFY(*store.appendJobOutput(job.id, "metrics.jsonl", 0, 100, first));
        // A terminate asked for meanwhile wins over the requeue.
        Job terminating = job;
        terminating.state = JobState::Terminating;
        QVERIFY(store.updateJob(terminating).ok());
        JobAttempt ended;
        ended.attempt = 1;
        ended.uuid = job.uuid;
        ended.errors = {JobError{"JobFailed", "exit 137", {}}};
        ended.exitCode = 137;
        QCOMPARE(*store.requeueAttempt(job, ended, "uuid-2"), false);
        QVERIFY(store.jobAttempts(job.id).isEmpty());
        QVERIFY(store.updateJob(job).ok());
        QCOMPARE(*store.requeueAttempt(job, ended, "uuid-2"), true);
        const Job queued = *store.jobById(job.id);
        QVERIFY(queued.state == JobState::Queued);
        QCOMPARE(queued.uuid, QStringLiteral("uuid-2"));
        QVERIFY(queued.nodes.isEmpty() && queued.jobDir.isEmpty() && !queued.exitCode);
        QCOMPARE(store.jobFileOffset(job.id, "metrics.jsonl"), 0);  // the next attempt's file is read from its start
        const QList<JobAttempt> attempts = store.jobAttempts(job.id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].exitCode.value_or(0), 137);
        QCOMPARE(attempts[0].uuid, QStringLiteral("uuid-1"));
        // Nothing of attempt 2's yet: nothing removed.
        QCOMPARE(*MetricRows::removeRepeated(store, job.id), 0);
        // Attempt 2 resumed at epoch 3.
        QList<QByteArray> second{record("info", 0, 0)};
        for (int epoch = 3; epoch <= 5; ++epoch)
            second << record("train", epoch, epoch * 10 - 5) << record("epoch", epoch, epoch * 10);
        QVERIFY(*store.appendJobOutput(job.id, "metrics.jsonl", 0, 100, second));
        QCOMPARE(*MetricRows::removeRepeated(store, job.id), 1);  // attempt 1's step of epoch 3
        QCOMPARE(*MetricRows::removeRepeated(store, job.id), 0);  // once
        QList<int> epochs, steps;
        for (const auto &[id, text] : store.jobMetrics(job.id)) {
            const QJsonObject o = QJsonDocument::fromJson(text).object();
            if (o["kind"] == "epoch")
                epochs << o["epoch"].toInt();
            if (o["kind"] == "train")
                steps << o["global_step"].toInt();
        }
        QCOMPARE(epochs, (QList<int>{1, 2, 3, 4, 5}));
        QCOMPARE(steps, (QList<int>{5, 15, 25, 35, 45}));
        // Deleting the job takes its attempts.
        Job ended2 = *store.jobById(job.id);
        ended2.state = JobState::Failed;
        QVERIFY(store.updateJob(ended2).ok());
        QVERIFY(store.deleteJob(job.id).ok());
        QVERIFY(store.jobAttempts(job.id).isEmpty());
    }

    // The GUI's snapshot reads every job's attempts and silence in one query each: the same
    // as asking job by job (jobAttempts, jobSilence), for jobs with and without either.
    void snapshotReadsAllJobsAttemptsAndSilencesAtOnce()
    {
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("t.db")).ok());
        QVERIFY(Testing::createLocalCluster(store, dir).ok());
        const auto ws = store.workspace("ws");
        QList<qint64> ids;
        for (int i = 0; i < 5; ++i) {
            Job job;
            job.experimentId = store.experiment(ws->id, "exp")->id;
            job.clusterId = store.cluster(ws->id, "local")->id;
            job.name = QStringLiteral("j%1").arg(i);
            job.spec = specWith({{"maxRetries", 3}});
            job.uuid = QStringLiteral("u%1-1").arg(i);
            job = *store.createJob(job);
            ids << job.id;
            // Job i has i % 3 ended attempts; jobs 1 and 4 are silent.
            for (int attempt = 1; attempt <= i % 3; ++attempt) {
                job.state = JobState::Running;
                job.nodes = {QStringLiteral("n%1").arg(attempt)};
                QVERIFY(store.updateJob(job).ok());
                JobAttempt ended;
                ended.attempt = attempt;
                ended.uuid = job.uuid;
                ended.nodes = job.nodes;
                ended.exitCode = 100 + attempt;
                ended.errors = {JobError{"JobFailed", QStringLiteral("exit %1").arg(100 + attempt), {}}};
                const QString next = QStringLiteral("u%1-%2").arg(i).arg(attempt + 1);
                QVERIFY(*store.requeueAttempt(job, ended, next));
                job = *store.jobById(job.id);
            }
            if (i == 1 || i == 4) {
                ProgressWatch::Silence silence;
                silence.seconds = 60 + i;
                silence.timeoutSeconds = 30;
                silence.ranks = {{i, QStringLiteral("n%1").arg(i), 60 + i}};
                QVERIFY(store.setJobSilence(job.id, silence.toJson()).ok());
            }
        }
        const auto all = ResourceSnapshot::readReliability(store);
        int withAny = 0;
        for (qint64 id : ids) {
            const QList<JobAttempt> attempts = store.jobAttempts(id);
            const auto silence = ProgressWatch::Silence::fromJson(store.jobSilence(id));
            const QString silenceText = silence ? silence->text() : QString();
            if (attempts.isEmpty() && silenceText.isEmpty()) {
                QVERIFY(!all.contains(id));
                continue;
            }
            ++withAny;
            QVERIFY(all.contains(id));
            const auto &r = all.value(id);
            QCOMPARE(r.silence, silenceText);
            QCOMPARE(r.attempts.size(), attempts.size());
            for (int a = 0; a < attempts.size(); ++a) {
                QCOMPARE(r.attempts[a].attempt, attempts[a].attempt);
                QCOMPARE(r.attempts[a].uuid, attempts[a].uuid);
                QCOMPARE(r.attempts[a].nodes, attempts[a].nodes);
                QCOMPARE(r.attempts[a].exitCode, attempts[a].exitCode);
                QCOMPARE(r.attempts[a].errors.size(), attempts[a].errors.size());
                QCOMPARE(r.attempts[a].errors.first().message, attempts[a].errors.first().message);
            }
        }
        QCOMPARE(withAny, 3);  // jobs 1, 2, 4 retried (1 and 4 silent too); jobs 0 and 3 neither
        QCOMPARE(all.size(), 3);
    }

    void aRetriedJobTakesTheNodesItLostLast()
    {
        // Attempt 1 lost node b, attempt 2 lost node d: the scheduler's idle nodes come back
        // with b and d last, the others in their order; a job that lost none gets them as given.
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("t.db")).ok());
        QVERIFY(Testing::createLocalCluster(store, dir).ok());
        const auto ws = store.workspace("ws");
        Job job;
        job.experimentId = store.experiment(ws->id, "exp")->id;
        job.clusterId = store.cluster(ws->id, "local")->id;
        job.name = "retried";
        job.spec = specWith({{"maxRetries", 2}});
        job.uuid = "uuid-1";
        job = *store.createJob(job);
        QList<Node> idle;
        for (const QString &name : {"a", "b", "c", "d", "e"}) {
            Node n;
            n.name = name;
            idle << n;
        }
        const auto names = [](const QList<Node> &nodes) {
            QStringList out;
            for (const Node &n : nodes)
                out << n.name;
            return out;
        };
        const JobRetry retry(store);
        QCOMPARE(names(retry.preferNodes(job, idle)), (QStringList{"a", "b", "c", "d", "e"}));
        for (const QString &lost : {QStringLiteral("b"), QStringLiteral("d")}) {
            job = *store.jobById(job.id);
            job.state = JobState::Running;
            job.nodes = {lost};
            QVERIFY(store.updateJob(job).ok());
            JobAttempt ended;
            ended.attempt = retry.attemptOf(job.id);
            ended.uuid = job.uuid;
            ended.errors = {JobError{"NodeUnreachable", "lost", {JobRetry::lostNodeDetail(lost)}}};
            ended.lostNodes = {lost};
            QVERIFY(*store.requeueAttempt(job, ended, QStringLiteral("uuid-after-%1").arg(lost)));
        }
        QCOMPARE(retry.attemptOf(job.id), 3);
        QCOMPARE(names(retry.preferNodes(*store.jobById(job.id), idle)), (QStringList{"a", "c", "e", "b", "d"}));
        // Only lost nodes idle: they are still offered (the job runs rather than waits).
        QCOMPARE(names(retry.preferNodes(*store.jobById(job.id), {idle[3], idle[1]})), (QStringList{"d", "b"}));
    }

    void silentRanksAreNamedLongestFirst()
    {
        QCOMPARE(ProgressWatch::rankOfLine("[1,3]<stdout>:epoch 1"), 3);
        QCOMPARE(ProgressWatch::rankOfLine("plain text"), -1);
        QCOMPARE(ProgressWatch::trainerSilentRanks("x: no progress for 300 s on rank 0 of 4; silent rank(s): 1, 3 (not waiting"),
                 (QList<int>{1, 3}));
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("stdouterr")));
        Job job;
        job.id = 7;
        job.uuid = "u";
        job.jobDir = dir.path();
        job.nodes = {"a", "b"};
        job.rankNodes = {"a", "b"};
        const QDateTime start = QDateTime::currentDateTimeUtc();
        job.started = start;
        LocalTransport local;
        ProgressWatch watch;
        QFile out(dir.filePath("stdouterr/stdout.txt"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("[1,1]<stdout>:rank 1 starts\n");
        out.flush();
        bool looked = false;
        QVERIFY(!watch.look(job, local, 0, 10, start.addSecs(2), &looked));
        QVERIFY(looked);
        QVERIFY(!watch.look(job, local, 0, 10, start.addSecs(3), &looked));
        QVERIFY(!looked);  // within the look interval: not looked, not "spoke again"
        out.write("[1,0]<stdout>:rank 0 goes on\n");
        out.flush();
        QVERIFY(!watch.look(job, local, 0, 10, start.addSecs(6)));
        QVERIFY(!watch.look(job, local, 5, 10, start.addSecs(12)));  // a metric arrived: progress
        const auto silence = watch.look(job, local, 5, 10, start.addSecs(23));
        QVERIFY(silence);
        QCOMPARE(silence->seconds, 11);
        QCOMPARE(silence->ranks.size(), 2);
        QCOMPARE(silence->ranks[0].rank, 1);  // quiet since 2 s
        QCOMPARE(silence->ranks[0].node, QStringLiteral("b"));
        QCOMPARE(silence->ranks[0].seconds, 21);
        QCOMPARE(silence->ranks[1].seconds, 17);
        QCOMPARE(ProgressWatch::Silence::fromJson(silence->toJson())->text(), silence->text());
        out.write("[1,1]<stderr>:x: no progress for 300 s on rank 0 of 2; silent rank(s): 1 (not waiting)\n");
        out.flush();
        const auto named = watch.look(job, local, 5, 10, start.addSecs(26));
        QVERIFY(named && named->fromTrainer);
        QCOMPARE(named->ranks.size(), 1);
        QCOMPARE(named->ranks[0].rank, 1);
    }

    void attemptPlanNamesThePreviousOutput()
    {
        LaunchContext context;
        context.workspace = "ws";
        context.experiment = "exp";
        context.job = "j";
        context.uuid = "uuid-2";
        context.mountRoot = "/mnt";
        Node n;
        n.name = "localhost";
        n.host = "localhost";
        context.nodes = {n};
        context.attempt = 2;
        context.previousUuid = "uuid-1";
        const auto plan = buildLaunchPlan(parseJobSpec(specWith({})).spec, context);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QHash<QString, QString> env;
        for (const auto &[name, value] : plan->environment)
            env.insert(name, value);
        QCOMPARE(env.value("TRAINDESK_ATTEMPT"), QStringLiteral("2"));
        QCOMPARE(env.value("AZ_BATCHAI_OUTPUT_MODEL"), QStringLiteral("/out/workspaces/ws/experiments/exp/jobs/j/uuid-2/outputs"));
        QCOMPARE(env.value("AZ_BATCHAI_PREV_OUTPUT_MODEL"), QStringLiteral("/out/workspaces/ws/experiments/exp/jobs/j/uuid-1/outputs"));
        context.attempt = 1;
        context.previousUuid.clear();
        const auto first = buildLaunchPlan(parseJobSpec(specWith({})).spec, context);
        for (const auto &[name, value] : first->environment)
            QVERIFY(!name.startsWith("AZ_BATCHAI_PREV_OUTPUT"));
    }
};

QTEST_GUILESS_MAIN(TestReliability)
#include "tst_reliability.moc"

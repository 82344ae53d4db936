#include "jobs/LaunchPlan.h"

#include <QFile>
#include <QTest>

using namespace TrainDesk;

class TestLaunchPlan : public QObject
{
    Q_OBJECT

    LaunchContext context(int nodes)
    {
        LaunchContext c;
        c.workspace = "ws";
        c.experiment = "exp";
        c.job = "job1";
        c.uuid = "1234";
        c.mountRoot = "/mnt/batch";
        c.trainerDirectory = "/opt/traindesk";
        for (int i = 0; i < nodes; ++i) {
            Node n;
            n.name = QStringLiteral("node%1").arg(i);
            n.host = QStringLiteral("10.0.0.%1").arg(i + 1);
            n.slotCount = 2;
            c.nodes.append(n);
        }
        return c;
    }

private Q_SLOTS:
    void expandsVariables()
    {
        const QList<QPair<QString, QString>> env{{"AZ_BATCHAI_MOUNT_ROOT", "/m"}, {"AZ_BATCHAI_JOB_MOUNT_ROOT", "/j"}};
        QCOMPARE(expandBatchAiVariables("$AZ_BATCHAI_JOB_MOUNT_ROOT/x", env), QStringLiteral("/j/x"));
        QCOMPARE(expandBatchAiVariables("${AZ_BATCHAI_MOUNT_ROOT}/y", env), QStringLiteral("/m/y"));
        QCOMPARE(expandBatchAiVariables("$HOME/$AZ_BATCHAI_UNKNOWN", env), QStringLiteral("$HOME/$AZ_BATCHAI_UNKNOWN"));
    }

    void tutorialPlanRunsScriptUnderMpirun()
    {
        QFile file(QStringLiteral(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const ParsedJobSpec parsed = parseJobSpec(file.readAll());
        QVERIFY(!parsed.hasErrors());
        const auto plan = buildLaunchPlan(parsed.spec, context(4));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->jobDir, QStringLiteral("/mnt/batch/myshare/cifar/workspaces/ws/experiments/exp/jobs/job1/1234"));
        QCOMPARE(plan->hostfile, QStringLiteral("10.0.0.1 slots=2\n10.0.0.2 slots=2\n10.0.0.3 slots=2\n10.0.0.4 slots=2\n"));
        QVERIFY2(plan->commandLine.startsWith("mpirun --hostfile " + plan->jobDir + "/hostfile -np 4 "),
                 qPrintable(plan->commandLine));
        QVERIFY(plan->commandLine.endsWith(
            "python3 $AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/cifar_cnn_distributed.py --dir=$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar"));
        QVERIFY(plan->preparationCommand.startsWith("apt update;"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_JOB_MOUNT_ROOT=/mnt/batch\n"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_WORKER_HOSTS=10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4\n"));
    }

    void outputDirectoriesBecomeVariables()
    {
        // (A plain literal: moc's tokenizer trips over a quote inside a raw string.)
        const ParsedJobSpec parsed = parseJobSpec(
            "{\"stdOutErrPathPrefix\": \"$AZ_BATCHAI_MOUNT_ROOT/s\","
            " \"customMpiSettings\": {\"commandLine\": \"traindesk-trainer --dir $AZ_BATCHAI_OUTPUT_MODEL\", \"processCount\": 2},"
            " \"outputDirectories\": [{\"id\": \"model\", \"pathPrefix\": \"$AZ_BATCHAI_MOUNT_ROOT/s\", \"pathSuffix\": \"m\"}],"
            " \"environmentVariables\": [{\"name\": \"MY_VAR\", \"value\": \"it's here\"}]}");
        QVERIFY(!parsed.hasErrors());
        const auto plan = buildLaunchPlan(parsed.spec, context(1));
        QVERIFY(plan.ok());
        QCOMPARE(plan->outputDirectories.size(), 1);
        QCOMPARE(plan->outputDirectories.first().second,
                 QStringLiteral("/mnt/batch/s/workspaces/ws/experiments/exp/jobs/job1/1234/outputs/m"));
        // Values are quoted for the shell.
        QVERIFY(plan->launchScript.contains("export MY_VAR='it'\\''s here'\n"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_OUTPUT_MODEL="));
        QVERIFY(plan->commandLine.contains("-x AZ_BATCHAI_OUTPUT_MODEL"));
        QVERIFY(plan->commandLine.contains("-np 2"));
    }

    void refusesRelativePrefixAndTooFewNodes()
    {
        const ParsedJobSpec relative = parseJobSpec(R"({"stdOutErrPathPrefix": "relative/dir", "customMpiSettings": {"commandLine": "a"}})");
        const auto plan = buildLaunchPlan(relative.spec, context(1));
        QVERIFY(!plan);
        QVERIFY2(plan.error().contains("stdOutErrPathPrefix"), qPrintable(plan.error()));
        const ParsedJobSpec big = parseJobSpec(R"({"nodeCount": 3, "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}})");
        QVERIFY(!buildLaunchPlan(big.spec, context(2)));
    }
};

QTEST_GUILESS_MAIN(TestLaunchPlan)
#include "tst_launchplan.moc"

// Slurm's output as its commands print it (22.05 format strings of SlurmQueries), read into
// node states, partitions and job states; host lists expanded; the batch script's options,
// and the allocated nodes it puts into launch.sh (run against a stand-in scontrol).
#include "cluster/SlurmQueries.h"
#include "jobspec/JobSpec.h"
#include "launch/SlurmBatchScript.h"

#include <QtTest>

using namespace TrainDesk;

class TstSlurmQueries : public QObject
{
    Q_OBJECT
private slots:
    void nodeStates()
    {
        // sinfo -h -N -o '%N|%T|%E|%c': a node in two partitions is listed twice.
        const QByteArray out = "n1|idle|none|4\n"
                               "n1|idle|none|4\n"
                               "n2|mixed|none|8\n"
                               "n3|allocated|none|8\n"
                               "n4|drained|disk failure|8\n"
                               "n5|down*|Not responding|8\n"
                               "n6|idle*|none|8\n"
                               "n7|completing|none|2\n";
        const auto nodes = SlurmQueries::parseNodes(out);
        QCOMPARE(nodes.size(), 7);
        QCOMPARE(toString(nodes.at(0).state), toString(NodeState::Idle));
        QCOMPARE(nodes.at(0).cpus, 4);
        QCOMPARE(toString(nodes.at(1).state), toString(NodeState::Running));
        QCOMPARE(toString(nodes.at(2).state), toString(NodeState::Running));
        QCOMPARE(toString(nodes.at(3).state), toString(NodeState::Unusable));
        QCOMPARE(nodes.at(3).reason, QStringLiteral("Slurm: drained (disk failure)"));
        QCOMPARE(toString(nodes.at(4).state), toString(NodeState::Unusable));
        QCOMPARE(nodes.at(4).reason, QStringLiteral("Slurm: down* (Not responding)"));
        QCOMPARE(toString(nodes.at(5).state), toString(NodeState::Unusable));  // idle but not responding
        QCOMPARE(toString(nodes.at(6).state), toString(NodeState::Running));
        QVERIFY(nodes.at(0).reason.isEmpty());
    }

    void partitions()
    {
        const auto parts = SlurmQueries::parsePartitions("debug*|up|2|infinite\ngpu|down|4|2-00:00:00\n");
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts.at(0).name, QStringLiteral("debug"));
        QVERIFY(parts.at(0).isDefault);
        QCOMPARE(parts.at(1).availability, QStringLiteral("down"));
        QCOMPARE(parts.at(1).nodes, 4);
    }

    void jobStates()
    {
        const auto jobs = SlurmQueries::parseJobs("12|PENDING|Resources||N/A\n"
                                                  "13|RUNNING|None|gpu[01-02]|2026-11-24T00:07:44\n"
                                                  "14|CANCELLED|None|n1|2026-11-24T00:01:00\n");
        QCOMPARE(jobs.size(), 3);
        QCOMPARE(jobs.value("12").reason, QStringLiteral("Resources"));
        QVERIFY(jobs.value("12").nodes.isEmpty());
        QVERIFY(!jobs.value("12").started.isValid());
        QCOMPARE(jobs.value("13").nodes, (QStringList{"gpu01", "gpu02"}));
        QVERIFY(jobs.value("13").started.isValid());
        QVERIFY(jobs.value("13").reason.isEmpty());
        // sacct says "CANCELLED by 0".
        const auto accounted = SlurmQueries::parseAccounting("15|CANCELLED by 0|None|n2|2026-11-24T00:02:00\n");
        QCOMPARE(accounted.value("15").state, QStringLiteral("CANCELLED"));
    }

    void hostLists()
    {
        QCOMPARE(SlurmQueries::expandHostList("n[1-3,7],login"), (QStringList{"n1", "n2", "n3", "n7", "login"}));
        QCOMPARE(SlurmQueries::expandHostList("gpu[08-10]"), (QStringList{"gpu08", "gpu09", "gpu10"}));
        QCOMPARE(SlurmQueries::expandHostList("a1"), (QStringList{"a1"}));
        QVERIFY(SlurmQueries::expandHostList("").isEmpty());
        QVERIFY(SlurmQueries::expandHostList("(null)").isEmpty());
    }

    void commandsQuoteWhatTheyAreGiven()
    {
        SlurmSettings s;
        s.partition = QStringLiteral("gpu; rm -rf /");
        QVERIFY(SlurmQueries::nodesCommand(s).endsWith(QStringLiteral("-p 'gpu; rm -rf /'")));
        QVERIFY(SlurmQueries::jobsCommand({"1", "2"}).contains(QStringLiteral("-j 1,2 ")));
    }

    void batchScript()
    {
        JobSpec spec;
        spec.nodeCount = 2;
        spec.schedulingPriority = QStringLiteral("low");
        LaunchPlan plan;
        plan.jobDir = QStringLiteral("/shared/jobs/j1");
        plan.stdOutErrDir = plan.jobDir + QStringLiteral("/stdouterr");
        plan.processCount = 4;
        plan.maxWallClockTime = *parseWallClockTime(QStringLiteral("01:00:30"), nullptr);
        SlurmSettings settings;
        settings.partition = QStringLiteral("gpu");
        settings.account = QStringLiteral("proj1");
        settings.qos = QStringLiteral("normal");
        settings.gpusPerNode = 2;
        const auto script = slurmBatchScript(plan, spec, settings, QStringLiteral("j1"));
        QVERIFY2(script, qPrintable(script.error()));
        for (const char *line : {"#SBATCH --nodes=2\n", "#SBATCH --ntasks=4\n", "#SBATCH --ntasks-per-node=2\n",
                                 "#SBATCH --gres=gpu:2\n", "#SBATCH --time=61\n", "#SBATCH --nice=100\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --account=proj1\n", "#SBATCH --qos=normal\n",
                                 "#SBATCH --output=/shared/jobs/j1/stdouterr/slurm-%j.txt\n",
                                 "exec /bin/sh /shared/jobs/j1/launch.sh\n"})
            QVERIFY2(script->contains(QLatin1String(line)), line);
        // Ranks spread evenly or not at all.
        plan.processCount = 3;
        const auto uneven = slurmBatchScript(plan, spec, settings, QStringLiteral("j1"));
        QVERIFY(!uneven);
        QVERIFY(uneven.error().contains(QStringLiteral("spread evenly")));
    }

    // Every toolkit's launch.sh names the nodes Slurm allocated, not the plan's stand-ins:
    // mpirun's --host by Slurm name (else "All nodes ... are already filled"), rendezvous
    // variables by the node's address.
    void batchScriptFillsTheAllocatedNodes_data()
    {
        QTest::addColumn<QByteArray>("properties");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("pyTorch gloo")
            << QByteArray(R"({"nodeCount": 2, "pyTorchSettings": {"pythonScriptFilePath": "t.py",
                             "processCount": 2, "communicationBackend": "gloo"}})")
            << QStringList{"--host td1 ", "--host td2 ", "MASTER_ADDR=10.0.0.1\n",
                           "AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://10.0.0.1:\"${TRAINDESK_PORT}\"\n", "AZ_BATCHAI_WORKER_HOSTS=10.0.0.1,10.0.0.2\n",
                           "OMP_NUM_THREADS=2\n",
                           // Gloo's interface: on each node, the one with its NodeAddr.
                           "awk -v a=10.0.0.1 ", "awk -v a=10.0.0.2 ", "GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME of each task = the interface holding the Slurm NodeAddr of its node"};
        QTest::newRow("tensorFlow ps and workers")
            << QByteArray(R"({"nodeCount": 2, "tensorFlowSettings": {"pythonScriptFilePath": "t.py",
                             "workerCount": 2, "parameterServerCount": 2}})")
            << QStringList{"--host td1 ", "--host td2 ", "AZ_BATCHAI_PS_HOSTS=10.0.0.1:\"${TRAINDESK_PORT}\",10.0.0.2:\"${TRAINDESK_PORT}\"\n",
                           "AZ_BATCHAI_WORKER_HOSTS=10.0.0.1:\"$((TRAINDESK_PORT+1))\",10.0.0.2:\"$((TRAINDESK_PORT+1))\"\n",
                           "\"10.0.0.2:'\\''\"$((TRAINDESK_PORT+1))\"'\\''\""};
        QTest::newRow("caffe2 shards")
            << QByteArray(R"({"nodeCount": 2, "caffe2Settings": {"pythonScriptFilePath": "t.py"}})")
            << QStringList{"--host td1 ", "--host td2 "};
        QTest::newRow("customMpi") << QByteArray(R"({"nodeCount": 2, "customMpiSettings": {"commandLine": "./a", "processCount": 4}})")
                                   << QStringList{"AZ_BATCHAI_WORKER_HOSTS=10.0.0.1,10.0.0.2\n", "OMP_NUM_THREADS=2\n"};
    }

    void batchScriptFillsTheAllocatedNodes()
    {
        QFETCH(QByteArray, properties);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QJsonObject p = QJsonDocument::fromJson(properties).object();
        p.insert("stdOutErrPathPrefix", dir.path());
        const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(QJsonObject{{"properties", p}}).toJson());
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join("; ")));
        LaunchContext context;
        context.workspace = "ws";
        context.experiment = "exp";
        context.job = "j";
        context.uuid = "u";
        context.mountRoot = dir.path() + "/mounts";
        context.nodes = slurmAllocationNodes(parsed.spec);
        context.slurm = true;
        const auto plan = buildLaunchPlan(parsed.spec, context);
        QVERIFY2(plan, qPrintable(plan.error()));
        auto batch = slurmBatchScript(*plan, parsed.spec, SlurmSettings{}, "j");
        QVERIFY2(batch, qPrintable(batch.error()));
        // Everything but running launch.sh, with Slurm's answers for nodes td1 and td2.
        QVERIFY(batch->endsWith(QStringLiteral("exec /bin/sh %1\n").arg(plan->launchScriptPath())));
        batch->chop(QStringLiteral("exec /bin/sh %1\n").arg(plan->launchScriptPath()).size());
        QVERIFY(QDir().mkpath(plan->jobDir) && QDir().mkpath(dir.path() + "/bin"));
        QFile scontrol(dir.path() + "/bin/scontrol");
        QVERIFY(scontrol.open(QIODevice::WriteOnly));
        scontrol.write("#!/bin/sh\n"
                       "case \"$*\" in\n"
                       "'show hostnames td[1-2]') printf 'td1\\ntd2\\n' ;;\n"
                       "'-o show node td1') echo 'NodeName=td1 Arch=x86_64 NodeAddr=10.0.0.1 NodeHostName=h1' ;;\n"
                       "'-o show node td2') echo 'NodeName=td2 Arch=x86_64 NodeAddr=10.0.0.2 NodeHostName=h2' ;;\n"
                       "*) exit 1 ;;\nesac\n");
        scontrol.close();
        QVERIFY(scontrol.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        QFile launch(plan->launchScriptPath());
        QVERIFY(launch.open(QIODevice::WriteOnly));
        launch.write(plan->launchScript.toUtf8());
        launch.close();
        QProcess sh;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", dir.path() + "/bin:" + env.value("PATH"));
        env.insert("SLURM_JOB_NODELIST", "td[1-2]");
        env.insert("SLURM_NTASKS_PER_NODE", "2(x2)");
        env.insert("SLURM_CPUS_ON_NODE", "4");  // OMP_NUM_THREADS: 4 CPUs for 2 tasks
        env.insert("SLURM_JOB_ID", "4242");
        sh.setProcessEnvironment(env);
        sh.start("/bin/sh", {"-c", *batch});
        QVERIFY(sh.waitForFinished());
        QVERIFY2(sh.exitCode() == 0, sh.readAllStandardError().constData());
        QFile filled(plan->launchScriptPath());
        QVERIFY(filled.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(filled.readAll());
        QVERIFY2(!text.contains("@slurm-") && !text.contains("node-0:") && !text.contains("--host node-"), qPrintable(text));
        for (const QString &e : expected)
            QVERIFY2(text.contains(e), qPrintable(e + " not in:\n" + text));
        // The job folder's tracking file, as on every cluster kind: Slurm's job holds it.
        QFile tracking(plan->jobDir + "/tracking");
        QVERIFY(tracking.open(QIODevice::ReadOnly));
        QCOMPARE(tracking.readAll(), QByteArray("slurm 4242\n"));
        QFile hostfile(plan->hostfilePath());
        QVERIFY(hostfile.open(QIODevice::ReadOnly));
        QCOMPARE(hostfile.readAll(), QByteArray("td1 slots=2\ntd2 slots=2\n"));
    }
};

QTEST_GUILESS_MAIN(TstSlurmQueries)
#include "tst_slurmqueries.moc"

// Launch plans: what each toolkit runs, and launch scripts run for real on "nodes" that are
// all this machine (mpirun starts one app context per node), with fake docker/python/apt
// where the tutorial needs them, and this machine's real docker where it has one.
#include "launch/LaunchPlan.h"
#include "launch/RendezvousPorts.h"
#include "jobs/NodeStory.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTcpServer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <signal.h>

using namespace TrainDesk;

namespace {

// The file's content, or nothing when there is no such file.
QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.exists() || !f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

void writeExecutable(const QString &path, const QByteArray &text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

JobSpec specOf(const QJsonObject &properties)
{
    const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(QJsonObject{{"properties", properties}}).toJson());
    if (parsed.hasErrors())
        qFatal("%s", qPrintable(parsed.errorTexts().join('\n')));
    return parsed.spec;
}

// What a run of a launch script left behind.
struct Run
{
    bool finished = false;
    QString exitCode;
    QString failedStep;
    QByteArray out;
    QByteArray err;
    QByteArray log;
};

// The docker client this machine has (on PATH, or in /usr/local/bin, /usr/bin or /bin)
// and whether its engine answers (what `docker info` said when it does not).
struct Docker
{
    QString program;
    bool engineAnswers = false;
    QString infoError;
};
Docker findDocker()
{
    Docker d;
    d.program = QStandardPaths::findExecutable("docker");
    if (d.program.isEmpty())
        d.program = QStandardPaths::findExecutable("docker", {"/usr/local/bin", "/usr/bin", "/bin"});
    if (d.program.isEmpty())
        return d;
    QProcess info;
    info.start(d.program, {"info", "--format", "{{.ServerVersion}}"});
    d.engineAnswers = info.waitForFinished(30000) && info.exitStatus() == QProcess::NormalExit && info.exitCode() == 0;
    if (!d.engineAnswers)
        d.infoError = QString::fromUtf8(info.readAllStandardError()).simplified().left(300);
    return d;
}

QByteArray dockerOut(const QString &docker, const QStringList &arguments)
{
    QProcess p;
    p.start(docker, arguments);
    return p.waitForFinished(60000) && p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
}

} // namespace

class TestLaunchPlan : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_fakeBin;
    // This machine's /usr/bin without the container runtimes (docker.io is installed for the
    // real-engine tests): the fake docker's cases and the runtime-less node use it for /usr/bin.
    QString m_bareBin;

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
        Share s;
        s.name = "myshare";
        s.path = "/srv/shares/myshare";
        c.shares.append(s);
        return c;
    }

    // context(n) with these nodes instead: "name@host:slots" each.
    LaunchContext contextWith(const QStringList &nodes)
    {
        LaunchContext c = context(0);
        for (const QString &text : nodes) {
            Node n;
            n.name = text.section('@', 0, 0);
            n.host = text.section('@', 1).section(':', 0, 0);
            n.slotCount = text.section(':', 1).toInt();
            c.nodes.append(n);
        }
        return c;
    }

    static JobSpec customMpi(int nodeCount, int processCount, const QString &commandLine = "./a.out")
    {
        return specOf({{"nodeCount", nodeCount}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                       {"customMpiSettings", QJsonObject{{"commandLine", commandLine}, {"processCount", processCount}}}});
    }

    // Nodes that are all this machine, a mount root and a share "myshare" in a fresh folder.
    LaunchContext localContext(const QString &name, int nodes)
    {
        const QString root = m_dir.filePath(name);
        LaunchContext c;
        c.workspace = "ws";
        c.experiment = "exp";
        c.job = name;
        c.uuid = "uuid-" + name;
        c.mountRoot = root + "/mounts";
        for (int i = 0; i < nodes; ++i) {
            Node n;
            n.name = QStringLiteral("node%1").arg(i);
            n.host = "localhost";
            n.slotCount = 2;
            c.nodes.append(n);
        }
        Share s;
        s.name = "myshare";
        s.path = root + "/shares/myshare";
        c.shares.append(s);
        QDir().mkpath(s.path);
        QDir().mkpath(c.mountRoot);
        // What the runner's linkShares does before it writes the job's files.
        QFile::link(s.path, c.mountRoot + "/myshare");
        return c;
    }

    // Runs the plan's launch script as the runner would: its own session and process group,
    // hostfile and script written first. `path` is PATH for it (the fakes first).
    Run run(const LaunchPlan &plan, const QString &path, int timeoutMs = 60000,
            const QList<QPair<QString, QString>> &extraEnvironment = {})
    {
        QDir().mkpath(plan.stdOutErrDir);
        writeExecutable(plan.hostfilePath(), plan.hostfile.toUtf8());
        writeExecutable(plan.launchScriptPath(), plan.launchScript.toUtf8());
        if (!plan.secretsFile.isEmpty())
            writeExecutable(plan.secretsFilePath(), plan.secretsFile.toUtf8());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", path);
        env.insert("FAKE_LOG", m_dir.filePath("fake.log"));
        for (const auto &[name, value] : extraEnvironment)
            env.insert(name, value);
        p.setProcessEnvironment(env);
        p.start("setsid", {"-w", "/bin/sh", plan.launchScriptPath()});
        Run r;
        r.finished = p.waitForFinished(timeoutMs);
        if (!r.finished) {
            // The script's whole process group, not only setsid.
            if (const qint64 group = readFile(plan.jobDir + "/pid").trimmed().toLongLong(); group > 0)
                ::kill(pid_t(-group), SIGKILL);
            p.kill();
        }
        r.exitCode = QString::fromUtf8(readFile(plan.exitCodePath())).trimmed();
        r.failedStep = QString::fromUtf8(readFile(plan.jobDir + "/failed_step")).trimmed();
        r.out = readFile(plan.stdOutErrDir + "/stdout.txt");
        r.err = readFile(plan.stdOutErrDir + "/stderr.txt");
        r.log = readFile(plan.stdOutErrDir + "/execution-node0.log");
        return r;
    }

    // A job on `nodes` nodes (all this machine) whose command runs in `image`, run with PATH
    // `path`; a plan that cannot be made comes back unfinished with the reason in err.
    Run runInContainer(const QString &name, int nodes, const QString &commandLine, const QString &image,
                       const QString &path, int timeoutMs = 60000, const QList<QPair<QString, QString>> &extraEnvironment = {})
    {
        const auto plan = buildLaunchPlan(specOf({{"nodeCount", nodes}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                                  {"customMpiSettings", QJsonObject{{"commandLine", commandLine}}},
                                                  {"containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", image}}}}}}),
                                          localContext(name, nodes));
        if (!plan.ok()) {
            Run r;
            r.err = plan.error().toUtf8();
            return r;
        }
        return run(*plan, path, timeoutMs, extraEnvironment);
    }

    static bool hasContainerRuntime(const QString &path)
    {
        for (const char *tool : {"docker", "apptainer", "singularity"}) {
            if (!QStandardPaths::findExecutable(tool, path.split(':')).isEmpty())
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fakeBin = m_dir.filePath("fakebin");
        QVERIFY(QDir().mkpath(m_fakeBin));
        // docker: run/rm/login are logged; exec runs the command here, after its options and
        // the container's name.
        writeExecutable(m_fakeBin + "/docker", R"(#!/bin/sh
echo "docker $*" >> "$FAKE_LOG"
case "$1" in
  login) cat > /dev/null ;;
  logs) echo traindesk-container-up ;;
  inspect) echo true ;;
  exec)
    shift
    while [ $# -gt 0 ]; do
      case "$1" in -w|-e) shift 2 ;; -*) shift ;; *) break ;; esac
    done
    shift
    exec "$@" ;;
esac
exit 0
)");
        // python: says which rank ran which script, and whether the script is really there.
        writeExecutable(m_fakeBin + "/python", R"(#!/bin/sh
script=$1; shift
if [ -f "$script" ]; then there=yes; else there=no; fi
echo "rank=$OMPI_COMM_WORLD_RANK size=$OMPI_COMM_WORLD_SIZE script=$script there=$there args=$*"
)");
        m_bareBin = m_dir.filePath("barebin");
        QVERIFY(QDir().mkpath(m_bareBin));
        const QStringList runtimes{"docker", "dockerd", "apptainer", "singularity", "podman"};
        for (const QFileInfo &f : QDir("/usr/bin").entryInfoList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
            if (!runtimes.contains(f.fileName()))
                QFile::link(f.absoluteFilePath(), m_bareBin + "/" + f.fileName());
        }
        writeExecutable(m_fakeBin + "/apt", "#!/bin/sh\necho \"apt $*\"\n");
        writeExecutable(m_fakeBin + "/pip", "#!/bin/sh\necho \"pip $*\"\n");
        // A task script for the task-based toolkits: its arguments and the variables it got.
        writeExecutable(m_dir.filePath("task.sh"), R"(#!/bin/sh
echo "task index=$AZ_BATCHAI_TASK_INDEX rank=$RANK world=$WORLD_SIZE init=$AZ_BATCHAI_PYTORCH_INIT_METHOD ps=$AZ_BATCHAI_PS_HOSTS workers=$AZ_BATCHAI_WORKER_HOSTS args=$* tf=$TF_CONFIG"
)");
        // An unmanaged file system's mount command: records the mount path it was given.
        writeExecutable(m_dir.filePath("fake-mount.sh"), "#!/bin/sh\necho \"mount $*\" >> \"$FAKE_LOG\"\n");
    }

    void init() { QFile::remove(m_dir.filePath("fake.log")); }

    void expandsVariables()
    {
        const QList<QPair<QString, QString>> env{{"AZ_BATCHAI_MOUNT_ROOT", "/m"}, {"AZ_BATCHAI_JOB_MOUNT_ROOT", "/j"}};
        QCOMPARE(expandBatchAiVariables("$AZ_BATCHAI_JOB_MOUNT_ROOT/x", env), QStringLiteral("/j/x"));
        QCOMPARE(expandBatchAiVariables("${AZ_BATCHAI_MOUNT_ROOT}/y", env), QStringLiteral("/m/y"));
        QCOMPARE(expandBatchAiVariables("$HOME/$AZ_BATCHAI_UNKNOWN", env), QStringLiteral("$HOME/$AZ_BATCHAI_UNKNOWN"));
    }

    void tutorialPlanRunsScriptUnderMpirun()
    {
        const ParsedJobSpec parsed = parseJobSpec(readFile(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        QVERIFY(!parsed.hasErrors());
        const auto plan = buildLaunchPlan(parsed.spec, context(4));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->jobDir, QStringLiteral("/mnt/batch/myshare/cifar/workspaces/ws/experiments/exp/jobs/job1/1234"));
        // processCount defaults to nodeCount: one rank on each node, as Batch AI placed them.
        QCOMPARE(plan->hostfile, QStringLiteral("10.0.0.1 slots=1\n10.0.0.2 slots=1\n10.0.0.3 slots=1\n10.0.0.4 slots=1\n"));
        QCOMPARE(plan->processCount, 4);
        QCOMPARE(plan->rankNodes, (QStringList{"node0", "node1", "node2", "node3"}));
        QCOMPARE(plan->launcher, QStringLiteral("mpi"));
        QVERIFY2(plan->commandLine.startsWith("mpirun --hostfile " + plan->jobDir + "/hostfile -np 4 "), qPrintable(plan->commandLine));
        // The script is one word in which only variables expand; the argument stays as
        // written; the nodes expand both. In the tensorflow image the interpreter is the
        // image's python.
        QVERIFY(plan->commandLine.contains(
            "python \"$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/cifar_cnn_distributed.py\" --dir=$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar"));
        QCOMPARE(plan->containerImage, QStringLiteral("tensorflow/tensorflow:1.8.0-gpu"));
        QCOMPARE(plan->mounts.size(), 1);
        QCOMPARE(plan->mounts.first().mountPath, QStringLiteral("/mnt/batch/.jobs/1234/myshare"));
        QCOMPARE(plan->mounts.first().share, QStringLiteral("myshare"));
        QVERIFY(plan->preparationCommand.startsWith("apt update;"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_JOB_MOUNT_ROOT=/mnt/batch/.jobs/1234\n"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_WORKER_HOSTS=10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4\n"));
        for (int i = 0; i < 4; ++i)
            QVERIFY(plan->launchScript.contains(QStringLiteral("stdout-job_prep-node%1.txt").arg(i)));
        // Setup, preparation and cleanup run one app context per node, and Open MPI applies -x
        // to its own context only: every context passes the job's variables.
        const QString perNode = "-np 1 --host 10.0.0.%1 -x AZ_BATCHAI_MOUNT_ROOT -x AZ_BATCHAI_JOB_MOUNT_ROOT -x AZ_BATCHAI_JOB_TEMP";
        for (int i = 1; i <= 4; ++i)
            QCOMPARE(plan->launchScript.count(perNode.arg(i)), 3);
        QVERIFY(!plan->launchScript.contains("--oversubscribe -x"));
        QCOMPARE(plan->maxWallClockTime.toString(), QStringLiteral("7.00:00:00"));
        // The cleanup removes the job's own mount folder, never the .jobs folder other jobs
        // on the node make theirs in (removed under another job's mkdir -p, its setup failed).
        QVERIFY(plan->launchScript.contains("/mnt/batch/.jobs/1234"));
        QVERIFY2(!plan->launchScript.contains(QRegularExpression("/mnt/batch/\\.jobs(?!/)")),
                 qPrintable(plan->launchScript));
    }

    void tutorialJobRunsUnchanged()
    {
        // The tutorial's job.json as it is, on four nodes (all this machine), with docker,
        // python, apt and pip faked: four ranks under mpirun run the script through the mount.
        const QString path = m_fakeBin + ":" + m_bareBin;
        QVERIFY(!hasContainerRuntime(m_bareBin));
        LaunchContext c = localContext("tutorial", 4);
        QVERIFY(QDir().mkpath(c.shares.first().path + "/cifar"));
        writeExecutable(c.shares.first().path + "/cifar/cifar_cnn_distributed.py", "# the tutorial's script\n");
        const ParsedJobSpec parsed = parseJobSpec(readFile(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        const auto plan = buildLaunchPlan(parsed.spec, c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        const Run r = run(*plan, path);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        const QString jobMountRoot = c.mountRoot + "/.jobs/" + c.uuid;
        for (int rank = 0; rank < 4; ++rank) {
            const QString line = QStringLiteral("rank=%1 size=4 script=%2/myshare/cifar/cifar_cnn_distributed.py there=yes "
                                                "args=--dir=%2/myshare/cifar").arg(rank).arg(jobMountRoot);
            QVERIFY2(r.out.contains(line.toUtf8()), qPrintable(r.out));
        }
        // Preparation ran in the container on every node; the containers came and went.
        for (int i = 0; i < 4; ++i) {
            const QByteArray prep = readFile(plan->stdOutErrDir + QStringLiteral("/stdout-job_prep-node%1.txt").arg(i));
            QVERIFY2(prep.contains("apt install mpi-default-dev mpi-default-bin -y") && prep.contains("pip install keras horovod"),
                     prep.constData());
        }
        const QByteArray docker = readFile(m_dir.filePath("fake.log"));
        QCOMPARE(docker.count("docker run -d --name td-uuid-tutorial"), 4);
        QCOMPARE(docker.count("docker rm -f td-uuid-tutorial"), 4);  // at the end (the fake's run never fails)
        QVERIFY(docker.contains(" tensorflow/tensorflow:1.8.0-gpu /bin/sh -c echo traindesk-container-up; exec tail -f /dev/null"));
        // The job's mount root is gone; the share and the outputs are not.
        QVERIFY(!QFileInfo::exists(jobMountRoot));
        QVERIFY(QFileInfo::exists(c.shares.first().path + "/cifar/cifar_cnn_distributed.py"));
        QVERIFY(r.log.contains("finished with exit code 0"));
    }

    void containerWithoutRuntimeNamesTheNode()
    {
        const QString path = m_bareBin;
        QVERIFY(!hasContainerRuntime(path));
        const Run r = runInContainer("noruntime", 2, "echo should-not-run", "busybox", path);
        QVERIFY2(r.finished, r.err.constData());
        QCOMPARE(r.exitCode, QStringLiteral("1"));
        QCOMPARE(r.failedStep, QStringLiteral("node_setup"));
        for (const char *node : {"node0", "node1"}) {
            QVERIFY2(r.err.contains(QByteArray("node ") + node + " (localhost): containerSettings needs docker or apptainer, and neither is installed"),
                     r.err.constData());
        }
        QVERIFY(!r.out.contains("should-not-run"));
    }

    void dockerEngineRunsTheJobInItsContainer()
    {
        // The tests' private engine (tests/container/docker_engine.sh, a ctest fixture: ctest
        // sets DOCKER_HOST and the image's name). Skipped only where the engine cannot start
        // here, with the fixture's reason; an engine that should answer and does not fails.
        const Docker docker = findDocker();
        QVERIFY2(!docker.program.isEmpty(), "no docker client on this machine (scripts/install-deps.sh installs docker.io)");
        if (!docker.engineAnswers) {
            const QByteArray why = readFile(qEnvironmentVariable("TRAINDESK_TEST_DOCKER_WHY")).trimmed();
            if (!why.isEmpty())
                QSKIP(qPrintable("the docker engine cannot start on this machine: " + QString::fromUtf8(why)));
            QFAIL(qPrintable("no docker engine answers on DOCKER_HOST=" + qEnvironmentVariable("DOCKER_HOST")
                             + " (ctest starts it: the fixture container.docker_engine_setup): `docker info` says: "
                             + docker.infoError));
        }
        const QString image = qEnvironmentVariable("TRAINDESK_TEST_DOCKER_IMAGE", "traindesk-test/debian-python:12");
        QVERIFY2(!dockerOut(docker.program, {"image", "inspect", image}).isEmpty(),
                 qPrintable("the image " + image + " is not in the engine (container.docker_engine_setup imports it)"));
        const QString path = QFileInfo(docker.program).absolutePath() + ":/usr/bin:/bin";
        // Two nodes (both this machine): each starts its own container, the preparation runs in
        // each, and the command's output and exit code come back from inside the container.
        LaunchContext c = localContext("realdocker", 2);
        const auto plan = buildLaunchPlan(
            specOf({{"nodeCount", 2}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                    {"jobPreparation", QJsonObject{{"commandLine", "cat /etc/traindesk-test-image > $AZ_BATCHAI_JOB_TEMP/prep-$(hostname)-$$"}}},
                    {"customMpiSettings", QJsonObject{{"commandLine", "echo in-container: $(cat /etc/traindesk-test-image) "
                                                                      "share: $(cat $AZ_BATCHAI_MOUNT_ROOT/myshare/on-share.txt); exit 3"},
                                                      {"processCount", 2}}},
                    {"containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", image}}}}}}),
            c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        writeExecutable(c.shares.first().path + "/on-share.txt", "written-on-the-host\n");
        const Run r = run(*plan, path, 300000);
        QVERIFY2(r.finished, r.err.constData());
        // The ranks' exit code is the job's, as without a container.
        QVERIFY2(r.exitCode == "3", qPrintable(r.exitCode + "\n" + r.log + r.err));
        QVERIFY2(r.failedStep.isEmpty() || r.failedStep == "job", qPrintable(r.failedStep));
        // Both ranks ran in the image (a file only it has) and saw the share at its host path.
        QCOMPARE(r.out.count("in-container: traindesk test image: Debian 12"), 2);
        QCOMPARE(r.out.count("share: written-on-the-host"), 2);
        // The preparation ran once on each node, in the container.
        const QStringList preps = QDir(plan->jobDir + "/tmp").entryList({"prep-*"}, QDir::Files);
        QCOMPARE(preps.size(), 2);
        for (const QString &f : preps)
            QVERIFY(readFile(plan->jobDir + "/tmp/" + f).startsWith("traindesk test image: Debian 12"));
        // And every container is gone.
        QCOMPARE(dockerOut(docker.program, {"ps", "-a", "-q", "--filter", "name=td-uuid-realdocker"}).trimmed(), QByteArray());
    }

    void containerGetsOnlyItsGpusAndCores()
    {
        // A job packed onto a GPU node (ResourcePlacement's grant): its container gets only the
        // job's GPUs and cores, and CUDA inside numbers its GPUs from 0, as the container sees them.
        LaunchContext c = context(1);
        c.nodes[0].gpuCount = 4;
        c.grant = NodeGrant{"node0", {2, 3}, {1, 3}};
        const JobSpec spec = specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                     {"customMpiSettings", QJsonObject{{"commandLine", "python train.py"}, {"processCount", 2}}},
                                     {"containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", "nvcr.io/nvidia/pytorch:24.01-py3"}}}}}});
        const auto plan = buildLaunchPlan(spec, c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->containerOptions, (QStringList{"--gpus", "\"device=1,3\"", "--cpuset-cpus", "2,3"}));
        // (The node's setup is one single-quoted word in the script: unquoted here.)
        const QString script = QString(plan->launchScript).replace("'\\''", "'");
        QVERIFY2(script.contains("docker run -d --name td-1234 --label traindesk.job=1234 --network host --ipc host --pid host "
                                 "--gpus '\"device=1,3\"' --cpuset-cpus 2,3 -v /tmp:/tmp"),
                 qPrintable(script));
        QVERIFY2(!script.contains("--gpus all"), qPrintable(script));
        QVERIFY2(plan->describe().contains("Container: nvcr.io/nvidia/pytorch:24.01-py3 (apptainer or docker on each node; "
                                           "docker run --gpus '\"device=1,3\"' --cpuset-cpus 2,3)"),
                 qPrintable(plan->describe()));
        // On the node CUDA_VISIBLE_DEVICES is the node's numbers; docker exec gives the ranks 0 and 1.
        QVERIFY(plan->launchScript.contains("export CUDA_VISIBLE_DEVICES=1,3\n"));
        QVERIFY2(plan->launchScript.contains("-e CUDA_VISIBLE_DEVICES=0,1"), qPrintable(plan->launchScript));

        // A packed job that holds no GPU gets none (not every GPU of the node).
        c.grant = NodeGrant{"node0", {0}, {}};
        const auto cpuOnly = buildLaunchPlan(spec, c);
        QVERIFY2(cpuOnly.ok(), qPrintable(cpuOnly.error()));
        QCOMPARE(cpuOnly->containerOptions, (QStringList{"--cpuset-cpus", "0"}));
        QVERIFY(!cpuOnly->launchScript.contains("--gpus"));
        // Not packed: every GPU where the node has them, every core.
        c.grant.reset();
        const auto whole = buildLaunchPlan(spec, c);
        QVERIFY2(whole.ok(), qPrintable(whole.error()));
        QVERIFY(whole->containerOptions.isEmpty());
        QVERIFY(whole->launchScript.contains("echo --gpus all"));
        QVERIFY(!whole->launchScript.contains("--cpuset-cpus"));
    }

    void containerMountsTheJobsFolders()
    {
        // The job's folders outside the mount root and the shares (absolute paths of the node)
        // are mounted at their own paths, made first as the node's user; an input directory
        // by --mount (one that is not there fails, rather than being made as root's); what the
        // container sees already (/tmp, the shares, a folder under another) and the image's
        // system folders are not mounted again.
        const JobSpec spec = specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "/srv/runs"},
                                     {"outputDirectories", QJsonArray{
                                         QJsonObject{{"id", "A"}, {"pathPrefix", "/data/models"}},
                                         QJsonObject{{"id", "B"}, {"pathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"}},
                                         QJsonObject{{"id", "C"}, {"pathPrefix", "/usr/local"}},
                                         QJsonObject{{"id", "D"}, {"pathPrefix", "/srv/runs/sub"}},
                                         QJsonObject{{"id", "E"}, {"pathPrefix", "/tmp/scratch"}}}},
                                     {"inputDirectories", QJsonArray{QJsonObject{{"id", "IN"}, {"path", "/datasets/mnist"}}}},
                                     {"customToolkitSettings", QJsonObject{{"commandLine", "true"}}},
                                     {"containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", "img:1"}}}}}});
        const auto plan = buildLaunchPlan(spec, context(1));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        const QString script = QString(plan->launchScript).replace("'\\''", "'");
        QVERIFY2(script.contains("mkdir -p /srv/runs /data/models || "), qPrintable(script));
        QVERIFY2(script.contains("-v /srv/runs:/srv/runs -v /data/models:/data/models --mount "
                                 "'type=bind,\"source=/datasets/mnist\",\"target=/datasets/mnist\"'"),
                 qPrintable(script));
        for (const char *seen : {"-v /usr/local", "-v /srv/runs/sub", "-v /tmp/scratch", "/srv/runs:/srv/runs -v /srv/runs"})
            QVERIFY2(!script.contains(seen), seen);
        // apptainer binds the same folders.
        QVERIFY2(script.contains(",/srv/runs,/data/models,/datasets/mnist"), qPrintable(script));
    }

    void containerRegistryPasswordOnlyThroughStdin()
    {
        // The registry password reaches `docker login` through a pipe from the shell's printf (a
        // builtin: no process has it in its arguments), from the secrets file; never in launch.sh.
        const QString password = "s3cret'\"$(touch /tmp/x)";
        const JobSpec spec = specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                     {"customToolkitSettings", QJsonObject{{"commandLine", "true"}}},
                                     {"containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{
                                         {"serverUrl", "https://registry.example:5000/"}, {"image", "team/img:1"},
                                         {"credentials", QJsonObject{{"username", "bob"}, {"password", password}}}}}}}});
        const auto plan = buildLaunchPlan(spec, context(1));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->containerImage, QStringLiteral("registry.example:5000/team/img:1"));
        const QString script = QString(plan->launchScript).replace("'\\''", "'");
        QVERIFY2(script.contains("printf '%s' \"$TRAINDESK_REGISTRY_PASSWORD\" | docker login --username bob "
                                 "--password-stdin registry.example:5000"),
                 qPrintable(script));
        QVERIFY(!plan->launchScript.contains("s3cret"));
        QVERIFY(plan->secretsFile.contains("s3cret"));
        QVERIFY(!plan->describe().contains("s3cret"));
    }

    void dockerWithoutItsEngineIsNamed()
    {
        // This machine's real docker client, pointed at an engine that does not run (a socket
        // nobody listens on): the node's setup says so instead of failing on the first docker run.
        const Docker docker = findDocker();
        QVERIFY2(!docker.program.isEmpty(), "no docker client on this machine (scripts/install-deps.sh installs docker.io)");
        const QString path = QFileInfo(docker.program).absolutePath() + ":" + m_bareBin;
        QVERIFY(!hasContainerRuntime(m_bareBin));
        const Run r = runInContainer("deaddocker", 1, "echo should-not-run", "busybox", path, 60000,
                                     {{"DOCKER_HOST", "unix://" + m_dir.filePath("no-engine.sock")}});
        QVERIFY2(r.finished, r.err.constData());
        QCOMPARE(r.exitCode, QStringLiteral("1"));
        QCOMPARE(r.failedStep, QStringLiteral("node_setup"));
        QVERIFY2(r.err.contains("node node0 (localhost): containerSettings needs docker or apptainer: docker is installed but "
                                "its daemon does not answer (docker info failed)"),
                 r.err.constData());
        QVERIFY(!r.out.contains("should-not-run"));
    }

    void taskToolkitsRun_data()
    {
        QTest::addColumn<QJsonObject>("properties");
        QTest::addColumn<QStringList>("expected");
        const QString script = m_dir.filePath("task.sh");
        QTest::newRow("tensorflow ps and workers")
            << QJsonObject{{"nodeCount", 2},
                           {"tensorFlowSettings", QJsonObject{{"pythonScriptFilePath", script}, {"pythonInterpreterPath", "/bin/sh"},
                                                              {"masterCommandLineArgs", "--master"}, {"workerCommandLineArgs", "--worker"},
                                                              {"parameterServerCommandLineArgs", "--ps"}, {"workerCount", 2},
                                                              {"parameterServerCount", 1}}}}
            // Both nodes are this machine: its ports in order, @k@ the k-th after the job's first.
            << QStringList{
                   "task index=0 rank= world= init= ps=localhost:@0@ workers=localhost:@1@,localhost:@2@ args=--ps "
                   "tf={\"cluster\":{\"ps\":[\"localhost:@0@\"],\"worker\":[\"localhost:@1@\",\"localhost:@2@\"]},"
                   "\"environment\":\"cloud\",\"task\":{\"index\":0,\"type\":\"ps\"}}",
                   "task index=0 rank= world= init= ps=localhost:@0@ workers=localhost:@1@,localhost:@2@ args=--master tf=",
                   "task index=1 rank= world= init= ps=localhost:@0@ workers=localhost:@1@,localhost:@2@ args=--worker tf="};
        QTest::newRow("pytorch over gloo")
            << QJsonObject{{"nodeCount", 2},
                           {"pyTorchSettings", QJsonObject{{"pythonScriptFilePath", script}, {"pythonInterpreterPath", "/bin/sh"},
                                                           {"commandLineArgs", "--rank $AZ_BATCHAI_TASK_INDEX"},
                                                           {"processCount", 3}, {"communicationBackend", "Gloo"}}}}
            << QStringList{"task index=0 rank=0 world=3 init=tcp://localhost:@0@ ps= workers=localhost,localhost args=--rank 0 tf=",
                           "task index=1 rank=1 world=3 init=tcp://localhost:@0@",
                           "task index=2 rank=2 world=3 init=tcp://localhost:@0@ ps= workers=localhost,localhost args=--rank 2"};
        QTest::newRow("caffe2 shards")
            << QJsonObject{{"nodeCount", 2},
                           {"caffe2Settings", QJsonObject{{"pythonScriptFilePath", script}, {"pythonInterpreterPath", "/bin/sh"},
                                                          {"commandLineArgs", "--shard_id $AZ_BATCHAI_TASK_INDEX"}}}}
            << QStringList{"task index=0 rank= world= init= ps= workers=localhost,localhost args=--shard_id 0 tf=",
                           "task index=1 rank= world= init= ps= workers=localhost,localhost args=--shard_id 1 tf="};
        QTest::newRow("tensorflow on one node")
            << QJsonObject{{"nodeCount", 1},
                           {"tensorFlowSettings", QJsonObject{{"pythonScriptFilePath", script}, {"pythonInterpreterPath", "/bin/sh"},
                                                              {"masterCommandLineArgs", "--alone"}}}}
            << QStringList{"task index=0 rank= world= init= ps= workers=localhost args=--alone tf="};
    }

    void taskToolkitsRun()
    {
        QFETCH(QJsonObject, properties);
        QFETCH(QStringList, expected);
        static int count = 0;
        LaunchContext c = localContext(QStringLiteral("tasks%1").arg(++count), 2);
        properties.insert("stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare");
        const auto plan = buildLaunchPlan(specOf(properties), c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->launcher, QStringLiteral("tasks"));
        const Run r = run(*plan, "/usr/bin:/bin");
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        // The job's first rendezvous port, as the head node chose it and said in its log.
        const auto chosen = QRegularExpression("rendezvous ports? (\\d+)").match(QString::fromUtf8(r.log));
        QVERIFY2(expected.join("").contains("@0@") <= chosen.hasMatch(), qPrintable(r.log));
        for (QString line : expected) {
            for (int k = 0; k < 3; ++k)
                line.replace(QStringLiteral("@%1@").arg(k), QString::number(chosen.captured(1).toInt() + k));
            QVERIFY2(r.out.contains(line.toUtf8()), qPrintable("lacks: " + line + "\n" + r.out));
        }
        const int tasks = int(r.out.count("task index="));
        QCOMPARE(tasks, plan->processCount);
    }

    // Two jobs packed on one node met on PyTorch's 23456 and TensorFlow's 2222: each job now
    // names its own port, picked on the head node at start from a start of its own.
    void rendezvousPortsAreEachJobsOwn()
    {
        const QJsonObject pyTorch{{"nodeCount", 2}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                  {"pyTorchSettings", QJsonObject{{"pythonScriptFilePath", "t.py"}, {"processCount", 2},
                                                                  {"communicationBackend", "gloo"}}}};
        LaunchContext a = context(2);
        LaunchContext b = context(2);
        b.uuid = "5678";
        const auto planA = buildLaunchPlan(specOf(pyTorch), a);
        const auto planB = buildLaunchPlan(specOf(pyTorch), b);
        QVERIFY2(planA && planB, qPrintable(planA ? planB.error() : planA.error()));
        for (const LaunchPlan *plan : {&*planA, &*planB}) {
            QVERIFY2(!plan->launchScript.contains(QRegularExpression("[:=](23456|2222)\\b")), qPrintable(plan->launchScript));
            QVERIFY2(plan->launchScript.contains("export MASTER_PORT=\"${TRAINDESK_PORT}\"\n"), qPrintable(plan->launchScript));
            QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://10.0.0.1:\"${TRAINDESK_PORT}\"\n"));
            // Chosen before the variables that name it, and passed to every rank.
            QVERIFY(plan->launchScript.indexOf("export TRAINDESK_PORT=") < plan->launchScript.indexOf("export MASTER_PORT="));
            QVERIFY2(plan->commandLine.count("-x TRAINDESK_PORT") == 2, qPrintable(plan->commandLine));
            QCOMPARE(plan->portCount, 1);
            QVERIFY(plan->describe().contains("TRAINDESK_PORT=<the first of 1 port free on the head node at start"));
        }
        QCOMPARE(planA->portSearchStart, RendezvousPorts::searchStart("1234"));
        QVERIFY(planA->portSearchStart != planB->portSearchStart);

        // TensorFlow: a run of ports per host, parameter servers first.
        const auto tf = buildLaunchPlan(specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                                {"tensorFlowSettings", QJsonObject{{"pythonScriptFilePath", "t.py"}, {"workerCount", 2},
                                                                                   {"parameterServerCount", 1}}}}),
                                        context(1));
        QVERIFY2(tf, qPrintable(tf.error()));
        QCOMPARE(tf->portCount, 3);
        QVERIFY2(tf->launchScript.contains("export AZ_BATCHAI_WORKER_HOSTS=10.0.0.1:\"$((TRAINDESK_PORT+1))\",10.0.0.1:\"$((TRAINDESK_PORT+2))\"\n"),
                 qPrintable(tf->launchScript));

        // The job's own port (environmentVariables) is used as written, nothing chosen.
        QJsonObject own = pyTorch;
        own.insert("environmentVariables", QJsonArray{QJsonObject{{"name", "MASTER_PORT"}, {"value", "29500"}}});
        const auto fixed = buildLaunchPlan(specOf(own), a);
        QVERIFY2(fixed, qPrintable(fixed.error()));
        QCOMPARE(fixed->portCount, 0);
        QVERIFY(!fixed->launchScript.contains("TRAINDESK_PORT"));
        QVERIFY(fixed->launchScript.contains("export AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://10.0.0.1:29500\n"));
        own.insert("environmentVariables", QJsonArray{QJsonObject{{"name", "MASTER_PORT"}, {"value", "auto"}}});
        const auto bad = buildLaunchPlan(specOf(own), a);
        QVERIFY(!bad);
        QVERIFY2(bad.error().contains("properties.environmentVariables[0].value: MASTER_PORT is the job's rendezvous port: "
                                      "expected a port number (1-65535), found 'auto'"),
                 qPrintable(bad.error()));
    }

    // An MPI toolkit's processCount over the nodes' cores runs as Batch AI placed it, and is
    // said (naming the setting, nodeCount and the slots) in the plan and the execution log.
    void oversubscribedRanksAreSaid()
    {
        const auto over = buildLaunchPlan(customMpi(1, 3), context(1));
        QVERIFY2(over, qPrintable(over.error()));
        QCOMPARE(over->warnings.size(), 1);
        const QString said = "ranks oversubscribed: properties.customMpiSettings.processCount 3 over nodeCount 1 with 2 slots "
                             "(cores) puts node0: 3 ranks on 2 cores; they run, sharing cores, as Batch AI placed them";
        QCOMPARE(over->warnings.first(), said);
        QVERIFY(over->describe().contains("Warning: " + said + "\n"));
        QVERIFY2(over->launchScript.contains("log '" + said + "'\n"), qPrintable(over->launchScript));
        // Two nodes that are one machine count together; a rank per core is no warning.
        const auto shared = buildLaunchPlan(customMpi(2, 3), contextWith({"a@h:1", "b@h:1"}));
        QVERIFY2(shared && shared->warnings.size() == 1, qPrintable(shared ? shared->describe() : shared.error()));
        QVERIFY2(shared->warnings.first().contains("a: 3 ranks on 1 core;"), qPrintable(shared->warnings.first()));
        const auto fits = buildLaunchPlan(customMpi(2, 4), context(2));
        QVERIFY2(fits && fits->warnings.isEmpty(), qPrintable(fits ? fits->warnings.join("; ") : fits.error()));
    }

    // The head node's choice skips a port another program holds: the job's search start is
    // taken (listening here), so the job gets the next one.
    void rendezvousPortSkipsOneInUse()
    {
        LaunchContext c = localContext("busyport", 1);
        const int start = RendezvousPorts::searchStart(c.uuid);
        QTcpServer holder;
        QVERIFY2(holder.listen(QHostAddress::LocalHost, quint16(start)), qPrintable(holder.errorString()));
        const auto plan = buildLaunchPlan(specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare"},
                                                  {"pyTorchSettings", QJsonObject{{"pythonScriptFilePath", m_dir.filePath("task.sh")},
                                                                                  {"pythonInterpreterPath", "/bin/sh"},
                                                                                  {"communicationBackend", "gloo"}}}}),
                                          c);
        QVERIFY2(plan, qPrintable(plan.error()));
        const Run r = run(*plan, "/usr/bin:/bin");
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        const auto chosen = QRegularExpression("rendezvous port (\\d+) on this node").match(QString::fromUtf8(r.log));
        QVERIFY2(chosen.hasMatch(), qPrintable(r.log));
        QVERIFY2(chosen.captured(1).toInt() != start, qPrintable(r.log));
        QVERIFY2(r.out.contains(QStringLiteral("init=tcp://localhost:%1 ").arg(chosen.captured(1)).toUtf8()), r.out.constData());
    }

    void shellTextInJobFieldsNeverRuns_data()
    {
        // Every job.json field that becomes part of a command, with shell text in it that
        // would create the canary file if it ran. Only commandLine, commandLineArgs and
        // jobPreparation are shell text by definition; none of those is here.
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("payload");
        const QString canary = m_dir.filePath("canary");
        const QStringList payloads{"; touch " + canary, "$(touch " + canary + ")", "`touch " + canary + "`",
                                   "'\"; touch " + canary + "; \"'", "\ntouch " + canary + "\n"};
        const QStringList fields{"horovod script", "horovod interpreter", "chainer script", "tensorflow script",
                                 "pytorch interpreter", "cntk config", "caffe config", "caffe2 script",
                                 "stdouterr prefix", "output prefix", "output suffix", "input path",
                                 "environment value", "container image"};
        for (const QString &field : fields) {
            for (int i = 0; i < payloads.size(); ++i)
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(field).arg(i))) << field << payloads.at(i);
        }
    }

    void shellTextInJobFieldsNeverRuns()
    {
        QFETCH(QString, field);
        QFETCH(QString, payload);
        const QString canary = m_dir.filePath("canary");
        QFile::remove(canary);
        static int count = 0;
        LaunchContext c = localContext(QStringLiteral("inject%1").arg(++count), 1);
        const QString script = m_dir.filePath("task.sh");
        QJsonObject p{{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare"}};
        const auto python = [&](const char *toolkit, const QString &scriptPath, const QString &interpreter) {
            p.insert(toolkit, QJsonObject{{"pythonScriptFilePath", scriptPath}, {"pythonInterpreterPath", interpreter}});
        };
        const QJsonObject plain{{"commandLine", "true"}};
        if (field == "horovod script") python("horovodSettings", script + payload, "/bin/sh");
        else if (field == "horovod interpreter") python("horovodSettings", script, "/bin/sh" + payload);
        else if (field == "chainer script") python("chainerSettings", script + payload, "/bin/sh");
        else if (field == "tensorflow script") python("tensorFlowSettings", script + payload, "/bin/sh");
        else if (field == "pytorch interpreter") python("pyTorchSettings", script, "/bin/sh" + payload);
        else if (field == "caffe2 script") python("caffe2Settings", script + payload, "/bin/sh");
        else if (field == "cntk config") p.insert("cntkSettings", QJsonObject{{"configFilePath", "/c.cfg" + payload}});
        else if (field == "caffe config") p.insert("caffeSettings", QJsonObject{{"configFilePath", "/c.prototxt" + payload}});
        else p.insert("customToolkitSettings", plain);
        if (field == "stdouterr prefix")
            p.insert("stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/o" + payload);
        else if (field == "output prefix")
            p.insert("outputDirectories", QJsonArray{QJsonObject{{"id", "OUT"}, {"pathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/p" + payload}}});
        else if (field == "output suffix")
            p.insert("outputDirectories", QJsonArray{QJsonObject{{"id", "OUT"}, {"pathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare"}, {"pathSuffix", "s" + payload}}});
        else if (field == "input path")
            p.insert("inputDirectories", QJsonArray{QJsonObject{{"id", "IN"}, {"path", "/in" + payload}}});
        else if (field == "environment value")
            p.insert("environmentVariables", QJsonArray{QJsonObject{{"name", "E"}, {"value", payload}}});
        else if (field == "container image")
            p.insert("containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", "busybox" + payload}}}});

        // Either the field is refused before anything runs (a name rule, a path that cannot be
        // resolved), naming it, or the job runs and the text stays inert.
        static const QHash<QString, QString> jsonField{{"stdouterr prefix", "properties.stdOutErrPathPrefix"},
                                                       {"output prefix", "properties.outputDirectories[0].pathPrefix"},
                                                       {"output suffix", "properties.outputDirectories[0].pathSuffix"},
                                                       {"container image", "properties.containerSettings.imageSourceRegistry.image"}};
        const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(QJsonObject{{"properties", p}}).toJson());
        if (parsed.hasErrors()) {
            QVERIFY2(jsonField.contains(field) && parsed.errorTexts().join('\n').contains(jsonField.value(field)),
                     qPrintable(parsed.errorTexts().join('\n')));
            return;
        }
        const auto plan = buildLaunchPlan(parsed.spec, c);
        if (!plan.ok()) {
            QVERIFY2(jsonField.contains(field) && plan.error().startsWith(jsonField.value(field)), qPrintable(plan.error()));
            return;
        }
        const Run r = run(*plan, m_fakeBin + ":" + m_bareBin);
        QVERIFY(r.finished);
        QVERIFY2(!QFileInfo::exists(canary), qPrintable("the shell text in " + field + " ran:\n" + plan->launchScript));
        // The script path reached the interpreter as one word, byte for byte.
        // mpirun tags every chunk a rank writes ("[1,0]<stderr>:"), and a loaded machine may
        // split the shell's one message into several chunks: match with the tags taken out.
        if (field.endsWith("script") && !payload.contains('\n')) {
            const QByteArray err = QByteArray(r.err).replace("[1,0]<stderr>:", "");
            QVERIFY2(err.contains(("/bin/sh: 0: cannot open " + script + payload).toUtf8())
                         || err.contains(("/bin/sh: cannot open " + script + payload).toUtf8()),
                     qPrintable(r.err));
        }
    }

    void preparationAndMountsOnEveryNode()
    {
        LaunchContext c = localContext("mounts", 2);
        QFile marker(c.shares.first().path + "/marker.txt");
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.write("through the alias\n");
        marker.close();
        const QJsonObject volumes{
            {"azureFileShares", QJsonArray{QJsonObject{{"azureFileUrl", "https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/myshare"},
                                                       {"relativeMountPath", "data"}}}},
            {"unmanagedFileSystems", QJsonArray{QJsonObject{{"mountCommand", "/bin/sh " + m_dir.filePath("fake-mount.sh")},
                                                            {"relativeMountPath", "scratch"}}}}};
        const auto plan = buildLaunchPlan(
            specOf({{"nodeCount", 2}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/data/logs"},
                    {"jobPreparation", QJsonObject{{"commandLine", "echo prepared; test -d $AZ_BATCHAI_JOB_MOUNT_ROOT/scratch"}}},
                    {"customMpiSettings", QJsonObject{{"commandLine", "cat $AZ_BATCHAI_JOB_MOUNT_ROOT/data/marker.txt"}}},
                    {"mountVolumes", volumes}}),
            c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        // The job directory goes through the share's own link: it is there before the job starts.
        QCOMPARE(plan->jobDir, c.mountRoot + "/myshare/logs/workspaces/ws/experiments/exp/jobs/mounts/uuid-mounts");
        const Run r = run(*plan, "/usr/bin:/bin");
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        QCOMPARE(r.out.count("through the alias"), 2);
        for (const char *node : {"node0", "node1"})
            QCOMPARE(readFile(plan->stdOutErrDir + "/stdout-job_prep-" + node + ".txt"), QByteArray("prepared\n"));
        // Each node's own execution log: its setup and preparation, its ranks, the job's end.
        const QByteArray node1 = readFile(plan->stdOutErrDir + "/execution-node1.log");
        int at = 0;
        for (const char *line : {"node setup succeeded", "job preparation started", "job preparation succeeded",
                                 "job started: rank 1 of 2 on this node", "job finished with exit code 0"}) {
            const int found = node1.indexOf(line, at);
            QVERIFY2(found >= at, qPrintable(QStringLiteral("'%1' not in order in:\n%2").arg(line, node1)));
            at = found;
        }
        QVERIFY2(r.log.contains("job started: rank 0 of 2 on this node"), r.log.constData());
        QCOMPARE(nodeStateInJob(node1), QStringLiteral("finished"));
        QCOMPARE(nodeStateInJob(r.log), QStringLiteral("finished"));
        const QString jobMountRoot = c.mountRoot + "/.jobs/uuid-mounts";
        // The mount command ran on each node with the mount path after it, as on the service.
        QCOMPARE(readFile(m_dir.filePath("fake.log")),
                 QByteArray("mount " + jobMountRoot.toUtf8() + "/scratch\nmount " + jobMountRoot.toUtf8() + "/scratch\n"));
        QVERIFY(!QFileInfo::exists(jobMountRoot));
        QVERIFY(QFileInfo::exists(c.shares.first().path + "/marker.txt"));
    }

    void preparationFailureStopsTheJob()
    {
        LaunchContext c = localContext("prepfail", 2);
        const auto plan = buildLaunchPlan(specOf({{"nodeCount", 2}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                                  {"jobPreparation", QJsonObject{{"commandLine", "echo oops >&2; exit 7"}}},
                                                  {"customMpiSettings", QJsonObject{{"commandLine", "echo should-not-run"}}}}),
                                          c);
        QVERIFY(plan.ok());
        const Run r = run(*plan, "/usr/bin:/bin");
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, QStringLiteral("7"));
        QCOMPARE(r.failedStep, QStringLiteral("job_prep"));
        QCOMPARE(readFile(plan->stdOutErrDir + "/stderr-job_prep-node1.txt"), QByteArray("oops\n"));
        QVERIFY(!QFileInfo::exists(plan->stdOutErrDir + "/stdout.txt"));
        // node1's own log says its preparation failed, and how the job ended.
        const QByteArray node1 = readFile(plan->stdOutErrDir + "/execution-node1.log");
        QVERIFY2(node1.contains("job preparation failed with exit code 7") && !node1.contains("job started"), node1.constData());
        QCOMPARE(nodeStateInJob(node1), QStringLiteral("failed (exit code 7)"));
        QCOMPARE(nodeStateInJob(node1.left(node1.indexOf("job finished"))), QStringLiteral("job preparation failed (exit code 7)"));
    }

    void wallClockTimeEndsTheJob()
    {
        LaunchContext c = localContext("wallclock", 1);
        const auto plan = buildLaunchPlan(specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                                  {"customToolkitSettings", QJsonObject{{"commandLine", "echo started; sleep 60"}}},
                                                  {"constraints", QJsonObject{{"maxWallClockTime", "PT2S"}}}}),
                                          c);
        QVERIFY(plan.ok());
        QElapsedTimer timer;
        timer.start();
        const Run r = run(*plan, "/usr/bin:/bin", 30000);
        QVERIFY(r.finished);
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(r.exitCode, QStringLiteral("143"));
        QCOMPARE(r.failedStep, QStringLiteral("max_wall_clock_time"));
        QVERIFY(r.out.contains("started"));
        QVERIFY2(r.err.contains("maximum wall clock time (0.00:00:02)"), r.err.constData());
    }

    void terminateStillRecordsTheExitCode()
    {
        LaunchContext c = localContext("terminate", 1);
        const auto plan = buildLaunchPlan(specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                                                  {"customMpiSettings", QJsonObject{{"commandLine", "sleep 60"}}}}),
                                          c);
        QVERIFY(plan.ok());
        QDir().mkpath(plan->stdOutErrDir);
        writeExecutable(plan->hostfilePath(), plan->hostfile.toUtf8());
        writeExecutable(plan->launchScriptPath(), plan->launchScript.toUtf8());
        QProcess p;
        p.start("setsid", {"-w", "/bin/sh", plan->launchScriptPath()});
        QVERIFY(p.waitForStarted());
        QElapsedTimer timer;
        timer.start();
        while (!readFile(plan->stdOutErrDir + "/execution-node0.log").contains("job started") && timer.elapsed() < 20000)
            QThread::msleep(50);
        QThread::msleep(500);  // mpirun and its rank are up
        const qint64 group = readFile(plan->jobDir + "/pid").trimmed().toLongLong();
        QVERIFY(group > 0);
        // What JobRunner::terminate does first: SIGTERM to the whole process group.
        QCOMPARE(::kill(pid_t(-group), SIGTERM), 0);
        QVERIFY(p.waitForFinished(20000));
        QVERIFY(timer.elapsed() < 20000);
        const QString code = QString::fromUtf8(readFile(plan->exitCodePath())).trimmed();
        QVERIFY2(!code.isEmpty() && code != "0", qPrintable(code));
        QVERIFY(readFile(plan->stdOutErrDir + "/execution-node0.log").contains("finished with exit code"));
        // Nothing of the group is left: the wall clock watchdog went with the script.
        QProcess ps;
        ps.start("/bin/sh", {"-c", QStringLiteral("ps -eo pgid=,pid=,stat=,args= | awk '$1 == %1 && $3 !~ /^Z/'").arg(group)});
        QVERIFY(ps.waitForFinished());
        const QByteArray left = ps.readAllStandardOutput();
        QVERIFY2(left.isEmpty(), left.constData());
    }

    void secretsReachTheJobOnly()
    {
        LaunchContext c = localContext("secrets", 1);
        const auto plan = buildLaunchPlan(
            specOf({{"nodeCount", 1}, {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/myshare"},
                    {"customMpiSettings", QJsonObject{{"commandLine", "sh -c 'echo token-length=${#API_TOKEN}'"}}},
                    {"secrets", QJsonArray{QJsonObject{{"name", "API_TOKEN"}, {"value", "t0k3n with spaces"}}}}}),
            c);
        QVERIFY(plan.ok());
        QCOMPARE(plan->secretNames, QStringList{"API_TOKEN"});
        const QString shown = plan->describe() + QJsonDocument(plan->toJson()).toJson() + plan->launchScriptShown
            + plan->commandLine;
        QVERIFY(!shown.contains("t0k3n"));
        QVERIFY(shown.contains("API_TOKEN=<secret>"));
        const Run r = run(*plan, "/usr/bin:/bin");
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        QVERIFY2(r.out.contains("token-length=17"), r.out.constData());
        QVERIFY(!r.log.contains("t0k3n"));
    }

    void toolkitCommands_data()
    {
        QTest::addColumn<QJsonObject>("properties");
        QTest::addColumn<QString>("command");
        const QJsonObject base{{"nodeCount", 2}, {"stdOutErrPathPrefix", "/logs"}};
        auto with = [&](const QString &key, const QJsonObject &settings) {
            QJsonObject p = base;
            p.insert(key, settings);
            return p;
        };
        const QString mpirun = "mpirun --hostfile /logs/workspaces/ws/experiments/exp/jobs/job1/1234/hostfile -np %1 --oversubscribe "
                               "--tag-output --map-by slot";
        QTest::newRow("custom MPI defaults to nodeCount") << with("customMpiSettings", {{"commandLine", "./a.out --x"}})
                                                          << mpirun.arg(2) + " * ./a.out --x";
        QTest::newRow("horovod") << with("horovodSettings", {{"pythonScriptFilePath", "t.py"}, {"processCount", 8}})
                                 << mpirun.arg(8) + " * \"$TRAINDESK_PYTHON\" \"t.py\"";
        QTest::newRow("chainer") << with("chainerSettings", {{"pythonScriptFilePath", "t.py"}, {"commandLineArgs", "-g"}})
                                 << mpirun.arg(2) + " * \"$TRAINDESK_PYTHON\" \"t.py\" -g";
        QTest::newRow("cntk brainscript") << with("cntkSettings", {{"configFilePath", "c.cntk"}, {"commandLineArgs", "a=1"}})
                                          << mpirun.arg(2) + " * cntk configFile=\"c.cntk\" a=1";
        QTest::newRow("cntk python") << with("cntkSettings", {{"languageType", "python"}, {"pythonScriptFilePath", "t.py"},
                                                              {"pythonInterpreterPath", "/py"}, {"processCount", 3}})
                                     << mpirun.arg(3) + " * \"/py\" \"t.py\"";
        QTest::newRow("caffe solver") << with("caffeSettings", {{"configFilePath", "s.prototxt"}})
                                      << mpirun.arg(2) + " * caffe train --solver=\"s.prototxt\"";
        QTest::newRow("caffe python") << with("caffeSettings", {{"pythonScriptFilePath", "t.py"}, {"processCount", 1}})
                                      << mpirun.arg(1) + " * \"$TRAINDESK_PYTHON\" \"t.py\"";
        QTest::newRow("pytorch mpi") << with("pyTorchSettings", {{"pythonScriptFilePath", "t.py"}, {"communicationBackend", "mpi"}})
                                     << mpirun.arg(2) + " * \"$TRAINDESK_PYTHON\" \"t.py\"";
        QTest::newRow("custom toolkit runs as written") << with("customToolkitSettings", {{"commandLine", "cd x; ./run.sh | tee o"}})
                                                        << "cd x; ./run.sh | tee o";
    }

    void toolkitCommands()
    {
        QFETCH(QJsonObject, properties);
        QFETCH(QString, command);
        const auto plan = buildLaunchPlan(specOf(properties), context(2));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        // "*" stands for the -x list of variable names.
        const QStringList parts = command.split(" * ");
        if (parts.size() == 1) {
            QCOMPARE(plan->commandLine, command);
            return;
        }
        QVERIFY2(plan->commandLine.startsWith(parts.at(0) + " -x AZ_BATCHAI_MOUNT_ROOT "), qPrintable(plan->commandLine));
        // PATH too: the launch script puts the bundled trainer's folder on it for every rank.
        // A Python toolkit on a node gets the interpreter the head node chose (python, else python3).
        const QString python = parts.at(1).contains("$TRAINDESK_PYTHON") ? "-x TRAINDESK_PYTHON " : "";
        QVERIFY2(plan->commandLine.endsWith(" -x AZ_BATCHAI_NUM_GPUS " + python + "-x PATH " + parts.at(1)),
                 qPrintable(plan->commandLine));
    }

    void rankNodesFollowTheSlots_data()
    {
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<int>("processes");
        QTest::addColumn<QString>("hostfile");
        QTest::addColumn<QString>("ranks");
        // Batch AI's rule, not the cores: each node runs processCount / nodeCount ranks, the
        // first processCount % nodeCount nodes one more; the hostfile's slots say so (at least
        // 1, for the per-node steps). ranksRunWhereRankNodesSays checks a real mpirun agrees.
        const QStringList twoByTwo{"a@10.0.0.1:2", "b@10.0.0.2:2"};
        QTest::newRow("one more on the first") << twoByTwo << 3 << "10.0.0.1 slots=2\n10.0.0.2 slots=1\n" << "0-1 a, 2 b";
        QTest::newRow("one each") << twoByTwo << 2 << "10.0.0.1 slots=1\n10.0.0.2 slots=1\n" << "0 a, 1 b";
        QTest::newRow("every core") << twoByTwo << 4 << "10.0.0.1 slots=2\n10.0.0.2 slots=2\n" << "0-1 a, 2-3 b";
        QTest::newRow("one rank") << twoByTwo << 1 << "10.0.0.1 slots=1\n10.0.0.2 slots=1\n" << "0 a";
        QTest::newRow("more ranks than cores") << twoByTwo << 6 << "10.0.0.1 slots=3\n10.0.0.2 slots=3\n" << "0-2 a, 3-5 b";
        QTest::newRow("more than cores, one more on the first") << twoByTwo << 7 << "10.0.0.1 slots=4\n10.0.0.2 slots=3\n"
                                                                << "0-3 a, 4-6 b";
        QTest::newRow("unequal cores, even ranks") << QStringList{"a@h1:3", "b@h2:1", "c@h3:1"} << 8
                                                   << "h1 slots=3\nh2 slots=3\nh3 slots=2\n" << "0-2 a, 3-5 b, 6-7 c";
        // Nodes on one host share its line: its ranks go to them in node order, by their shares.
        QTest::newRow("shared host") << QStringList{"a@h1:2", "b@h2:1", "c@h1:1"} << 4 << "h1 slots=3\nh2 slots=1\n"
                                     << "0-1 a, 2 c, 3 b";
        QTest::newRow("shared host, two each") << QStringList{"a@h1:2", "b@h2:1", "c@h1:1"} << 6
                                               << "h1 slots=4\nh2 slots=2\n" << "0-1 a, 2-3 c, 4-5 b";
    }

    void rankNodesFollowTheSlots()
    {
        QFETCH(QStringList, nodes);
        QFETCH(int, processes);
        QFETCH(QString, hostfile);
        QFETCH(QString, ranks);
        const auto plan = buildLaunchPlan(customMpi(int(nodes.size()), processes), contextWith(nodes));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->hostfile, hostfile);
        QCOMPARE(plan->rankNodes.size(), processes);
        QCOMPARE(rankNodesText(plan->rankNodes), ranks);
        // Mapped by slot whatever the head node's defaults say.
        QVERIFY2(plan->commandLine.contains(" --map-by slot "), qPrintable(plan->commandLine));
        QVERIFY(plan->describe().contains("\nRanks: " + ranks + "\n"));
        QCOMPARE(plan->toJson().value("rankNodes").toArray().size(), processes);
    }

    void rankNodesOfTasksAndHeadNode_data()
    {
        QTest::addColumn<QJsonObject>("properties");
        QTest::addColumn<QStringList>("rankNodes");
        const QJsonObject base{{"nodeCount", 2}, {"stdOutErrPathPrefix", "/logs"}};
        auto with = [&](const QString &key, const QJsonObject &settings) {
            QJsonObject p = base;
            p.insert(key, settings);
            return p;
        };
        // One app context per task, in order: parameter servers, then workers, round the nodes.
        QTest::newRow("tensorflow") << with("tensorFlowSettings", {{"pythonScriptFilePath", "t.py"}, {"workerCount", 2},
                                                                   {"parameterServerCount", 2}})
                                    << QStringList{"node0", "node1", "node0", "node1"};
        QTest::newRow("pytorch gloo") << with("pyTorchSettings", {{"pythonScriptFilePath", "t.py"}, {"processCount", 3},
                                                                  {"communicationBackend", "Gloo"}})
                                      << QStringList{"node0", "node0", "node1"};
        QTest::newRow("caffe2") << with("caffe2Settings", {{"pythonScriptFilePath", "t.py"}}) << QStringList{"node0", "node1"};
        QTest::newRow("custom toolkit") << with("customToolkitSettings", {{"commandLine", "./run.sh"}}) << QStringList{"node0"};
        QJsonObject single = with("tensorFlowSettings", {{"pythonScriptFilePath", "t.py"}});
        single.insert("nodeCount", 1);
        QTest::newRow("tensorflow master alone") << single << QStringList{"node0"};
    }

    void rankNodesOfTasksAndHeadNode()
    {
        QFETCH(QJsonObject, properties);
        QFETCH(QStringList, rankNodes);
        const auto plan = buildLaunchPlan(specOf(properties), context(2));
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->rankNodes, rankNodes);
        QCOMPARE(plan->processCount, int(rankNodes.size()));
        QVERIFY2(!plan->commandLine.contains("--map-by"), qPrintable(plan->commandLine));  // each task names its host
    }

    void ranksRunWhereRankNodesSays_data()
    {
        QTest::addColumn<int>("processes");
        QTest::newRow("one more on the first") << 3;
        QTest::newRow("one each") << 2;
        QTest::newRow("more than the cores") << 7;
    }

    void ranksRunWhereRankNodesSays()
    {
        // Two hosts that are both this machine: a stand-in for ssh starts Open MPI's daemon
        // here and tells the ranks which host they were sent to.
        QFETCH(int, processes);
        const QString ssh = m_dir.filePath("fake-ssh");
        // Each "host" has its own TMPDIR: two daemons in one session directory hang at times.
        writeExecutable(ssh, "#!/bin/sh\n"
                             "while [ $# -gt 0 ]; do case \"$1\" in -*) shift ;; *) break ;; esac; done\n"
                             "host=$1; shift\n"
                             "export FAKE_HOST=\"$host\" TMPDIR=\"" + m_dir.filePath("tmp-").toUtf8() + "$host\"\n"
                             "mkdir -p \"$TMPDIR\" && exec /bin/sh -c \"$*\"\n");
        static int count = 0;
        LaunchContext c = localContext(QStringLiteral("rankmap%1").arg(++count), 2);
        c.nodes[0].host = "fake-host-a";
        c.nodes[1].host = "fake-host-b";
        const auto plan = buildLaunchPlan(customMpi(2, processes, "sh -c 'echo rank=$OMPI_COMM_WORLD_RANK host=$FAKE_HOST'"), c);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        qputenv("OMPI_MCA_plm_rsh_agent", ssh.toUtf8());
        qputenv("OMPI_MCA_plm_rsh_no_tree_spawn", "1");
        // A site default that maps by node: the plan's --map-by slot must win over it.
        qputenv("OMPI_MCA_rmaps_base_mapping_policy", "node");
        const Run r = run(*plan, "/usr/bin:/bin");
        for (const char *name : {"OMPI_MCA_plm_rsh_agent", "OMPI_MCA_plm_rsh_no_tree_spawn", "OMPI_MCA_rmaps_base_mapping_policy"})
            qunsetenv(name);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == "0", qPrintable(r.log + r.err));
        QCOMPARE(plan->rankNodes.size(), processes);
        for (int rank = 0; rank < processes; ++rank) {
            const QString host = plan->rankNodes.at(rank) == "node0" ? "fake-host-a" : "fake-host-b";
            const QByteArray line = QStringLiteral("rank=%1 host=%2\n").arg(rank).arg(host).toUtf8();
            QVERIFY2(r.out.contains(line), qPrintable(line + "not in\n" + r.out));
        }
    }

    void outputDirectoriesBecomeVariables()
    {
        // (A plain literal: moc's tokenizer trips over a quote inside a raw string.)
        const ParsedJobSpec parsed = parseJobSpec(
            "{\"nodeCount\": 1, \"stdOutErrPathPrefix\": \"$AZ_BATCHAI_MOUNT_ROOT/s\","
            " \"customMpiSettings\": {\"commandLine\": \"traindesk-trainer --dir $AZ_BATCHAI_OUTPUT_MODEL\", \"processCount\": 2},"
            " \"inputDirectories\": [{\"id\": \"data\", \"path\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/d\"}],"
            " \"outputDirectories\": [{\"id\": \"model\", \"pathPrefix\": \"$AZ_BATCHAI_MOUNT_ROOT/s\", \"pathSuffix\": \"m\"}],"
            " \"environmentVariables\": [{\"name\": \"MY_VAR\", \"value\": \"it's $AZ_BATCHAI_OUTPUT_MODEL\"}]}");
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join('\n')));
        const auto plan = buildLaunchPlan(parsed.spec, context(1));
        QVERIFY(plan.ok());
        QCOMPARE(plan->outputDirectories.size(), 1);
        const QString out = "/mnt/batch/s/workspaces/ws/experiments/exp/jobs/job1/1234/outputs/m";
        QCOMPARE(plan->outputDirectories.first().second, out);
        // Ids as written and in capitals; values quoted for the shell, variables expanded.
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_OUTPUT_MODEL=" + out + "\n"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_OUTPUT_model=" + out + "\n"));
        QVERIFY(plan->launchScript.contains("export AZ_BATCHAI_INPUT_DATA=/mnt/batch/.jobs/1234/myshare/d\n"));
        QVERIFY(plan->launchScript.contains("export MY_VAR='it'\\''s " + out + "'\n"));
        QVERIFY(plan->launchScript.contains("mkdir -p " + out + "\n"));
        QVERIFY(plan->commandLine.contains("-x AZ_BATCHAI_OUTPUT_MODEL"));
        QVERIFY(plan->commandLine.contains("-np 2"));
    }

    void refusesWhatCannotRun()
    {
        const ParsedJobSpec relative = parseJobSpec(R"({"nodeCount": 1, "stdOutErrPathPrefix": "relative/dir", "customMpiSettings": {"commandLine": "a"}})");
        auto plan = buildLaunchPlan(relative.spec, context(1));
        QVERIFY(!plan);
        QCOMPARE(plan.error(), QStringLiteral("properties.stdOutErrPathPrefix: expected an absolute path, found 'relative/dir'"));
        const ParsedJobSpec big = parseJobSpec(R"({"nodeCount": 3, "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}})");
        plan = buildLaunchPlan(big.spec, context(2));
        QCOMPARE(plan.error(), QStringLiteral("properties.nodeCount: expected at most 2 (the nodes assigned to the job), found 3"));
        const ParsedJobSpec temp = parseJobSpec(R"({"nodeCount": 1, "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_TEMP/x", "customMpiSettings": {"commandLine": "a"}})");
        plan = buildLaunchPlan(temp.spec, context(1));
        QVERIFY2(plan.error().startsWith("properties.stdOutErrPathPrefix: expected a path TrainDesk can resolve before the job starts"),
                 qPrintable(plan.error()));
        LaunchContext noShares = context(1);
        noShares.shares.clear();
        const ParsedJobSpec tutorial = parseJobSpec(readFile(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        plan = buildLaunchPlan(tutorial.spec, context(1));
        QVERIFY(!plan);  // nodeCount 4
        noShares.nodes = context(4).nodes;
        plan = buildLaunchPlan(tutorial.spec, noShares);
        QCOMPARE(plan.error(), QStringLiteral("properties.mountVolumes.azureFileShares[0]: expected a share of workspace 'ws' "
                                              "named 'myshare', found none"));
    }
};

QTEST_GUILESS_MAIN(TestLaunchPlan)
#include "tst_launchplan.moc"

// Ranks get the machine (issue #39): a job's launch script run for real on this machine
// (mpirun as the runner starts it) and each rank's Cpus_allowed_list and OMP_NUM_THREADS
// read back. Open MPI's default pinned a lone rank (and every -np 1 part of a task toolkit)
// to one core; the job's own binding still wins.
#include "jobspec/JobSpec.h"
#include "launch/LaunchPlan.h"

#include <QtTest>

#include <QThread>

#include <signal.h>

using namespace TrainDesk;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString allowedCpus()
{
    for (const QByteArray &line : readFile("/proc/self/status").split('\n')) {
        if (line.startsWith("Cpus_allowed_list:"))
            return QString::fromUtf8(line.mid(18)).trimmed();
    }
    return {};
}

// What each rank prints: its CPUs and threads.
const QByteArray rankScript = "echo \"rank ${RANK:-$OMPI_COMM_WORLD_RANK}: cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "
                              "/proc/self/status) threads=$OMP_NUM_THREADS\"\n";

} // namespace

class TstRankBinding : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    const int m_cores = qMax(1, QThread::idealThreadCount());

    struct Run
    {
        QByteArray out;
        QByteArray log;
        QString exitCode;
    };

    // The job on `nodes` nodes of this machine (each with this machine's cores), run as the
    // runner runs it: hostfile and script written, the script in its own session.
    Run run(const QString &name, QJsonObject properties, int nodes)
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
            n.slotCount = m_cores;
            c.nodes.append(n);
        }
        QDir().mkpath(c.mountRoot);
        properties.insert("nodeCount", nodes);
        properties.insert("stdOutErrPathPrefix", root + "/jobs");
        const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(QJsonObject{{"properties", properties}}).toJson());
        if (parsed.hasErrors())
            return {{}, parsed.errorTexts().join("; ").toUtf8(), {}};
        const auto plan = buildLaunchPlan(parsed.spec, c);
        if (!plan)
            return {{}, plan.error().toUtf8(), {}};
        QDir().mkpath(plan->stdOutErrDir);
        for (const auto &[path, text] : {std::pair{plan->hostfilePath(), plan->hostfile},
                                         std::pair{plan->launchScriptPath(), plan->launchScript}}) {
            QFile f(path);
            f.open(QIODevice::WriteOnly);
            f.write(text.toUtf8());
        }
        QProcess p;
        p.start("setsid", {"-w", "/bin/sh", plan->launchScriptPath()});
        if (!p.waitForFinished(120000)) {
            if (const qint64 group = readFile(plan->jobDir + "/pid").trimmed().toLongLong(); group > 0)
                ::kill(pid_t(-group), SIGKILL);
            p.kill();
        }
        return {readFile(plan->stdOutErrDir + "/stdout.txt"), readFile(plan->stdOutErrDir + "/execution-node0.log"),
                QString::fromUtf8(readFile(plan->exitCodePath())).trimmed()};
    }

    QString script()
    {
        const QString path = m_dir.filePath("rank.sh");
        QFile f(path);
        if (!f.exists() && f.open(QIODevice::WriteOnly))
            f.write(rankScript);
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (QStandardPaths::findExecutable("mpirun").isEmpty())
            QSKIP("mpirun not found (Debian package openmpi-bin)");
    }

    // The bundled trainer's case: one rank on the node, which may use all of it.
    void aLoneRankMayUseTheWholeNode()
    {
        const Run r = run("lone", {{"customMpiSettings", QJsonObject{{"commandLine", "/bin/sh " + script()}, {"processCount", 1}}}}, 1);
        QVERIFY2(r.exitCode == "0", r.log.constData());
        QVERIFY2(r.out.contains(QStringLiteral("rank 0: cpus=%1 threads=%2").arg(allowedCpus()).arg(m_cores).toUtf8()),
                 (r.out + r.log).constData());
        QVERIFY2(r.log.contains("ranks: Open MPI binding none"), r.log.constData());
        QVERIFY2(r.log.contains(QStringLiteral("threads: OMP_NUM_THREADS=%1 (node0: %1 core").arg(m_cores).toUtf8()),
                 r.log.constData());
    }

    // A task toolkit: every rank is its own `-np 1` part of one mpirun; two ranks on this
    // machine share its cores.
    void taskRanksShareTheirNode()
    {
        const Run r = run("tasks", {{"pyTorchSettings", QJsonObject{{"pythonInterpreterPath", "/bin/sh"}, {"pythonScriptFilePath", script()},
                                                                    {"processCount", 2}, {"communicationBackend", "gloo"}}}},
                          2);
        QVERIFY2(r.exitCode == "0", r.log.constData());
        const int share = qMax(1, m_cores / 2);
        for (int rank : {0, 1}) {
            const QByteArray line = QStringLiteral("rank %1: cpus=%2 threads=%3").arg(rank).arg(allowedCpus()).arg(share).toUtf8();
            QVERIFY2(r.out.contains(line), (line + " not in:\n" + r.out + r.log).constData());
        }
    }

    // The job's own binding and threads win, and the log says so.
    void theJobsOwnBindingWins()
    {
        if (m_cores < 2)
            QSKIP("one core: a rank bound to a core cannot be told from an unbound one");
        const QJsonArray env{QJsonObject{{"name", "OMPI_MCA_hwloc_base_binding_policy"}, {"value", "core"}},
                             QJsonObject{{"name", "OMP_NUM_THREADS"}, {"value", "3"}}};
        const Run r = run("own", {{"environmentVariables", env},
                                  {"customMpiSettings", QJsonObject{{"commandLine", "/bin/sh " + script()}, {"processCount", 1}}}},
                          1);
        QVERIFY2(r.exitCode == "0", r.log.constData());
        QVERIFY2(r.out.contains("threads=3") && !r.out.contains(QStringLiteral("cpus=%1 ").arg(allowedCpus()).toUtf8()),
                 (r.out + r.log).constData());
        QVERIFY2(r.log.contains("the job's own OMPI_MCA_hwloc_base_binding_policy kept"), r.log.constData());
        // --bind-to in the command line (mpirun's options before the program) too.
        const Run cmd = run("cmd", {{"customMpiSettings", QJsonObject{{"commandLine", "--bind-to core /bin/sh " + script()}, {"processCount", 1}}}},
                            1);
        QVERIFY2(cmd.exitCode == "0", cmd.log.constData());
        QVERIFY2(!cmd.out.contains(QStringLiteral("cpus=%1 ").arg(allowedCpus()).toUtf8()), (cmd.out + cmd.log).constData());
        QVERIFY2(cmd.log.contains("the job's own --bind-to kept"), cmd.log.constData());
    }
};

QTEST_GUILESS_MAIN(TstRankBinding)
#include "tst_rankbinding.moc"

// A job on several nodes is told the network they share (from the probe's recorded
// interfaces): Gloo, NCCL and Open MPI variables, the user's own winning, each task its own
// interface where the nodes name it differently, and each task's own output files.
#include "jobspec/JobSpec.h"
#include "launch/JobNetwork.h"
#include "launch/LaunchPlan.h"
#include "launch/TaskOutputs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

namespace {

// A node as the probe left it: interface -> address/prefix.
Node node(const QString &name, const QString &host, const QList<QPair<QString, QString>> &addresses)
{
    Node n;
    n.name = name;
    n.host = host;
    n.slotCount = 2;
    QJsonArray array;
    for (const auto &[iface, cidr] : addresses)
        array.append(QJsonObject{{"interface", iface}, {"address", cidr}});
    if (!addresses.isEmpty())
        n.facts = QString::fromUtf8(QJsonDocument(QJsonObject{{"addresses", array}}).toJson(QJsonDocument::Compact));
    return n;
}

QList<Node> probedNodes()
{
    return {node("node1", "10.1.2.1", {{"lo", "127.0.0.1/8"}, {"docker0", "172.17.0.1/16"}, {"eth0", "10.1.2.1/24"}}),
            node("node2", "10.1.2.2", {{"lo", "127.0.0.1/8"}, {"docker0", "172.17.0.1/16"}, {"eth0", "10.1.2.2/24"}})};
}

JobSpec spec(const QJsonObject &toolkit, const QString &key, const QJsonArray &environment = {})
{
    QJsonObject properties{{"nodeCount", 2}, {"stdOutErrPathPrefix", "/jobs"}, {key, toolkit}};
    if (!environment.isEmpty())
        properties.insert("environmentVariables", environment);
    const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(QJsonObject{{"properties", properties}}).toJson());
    if (parsed.hasErrors())
        qFatal("%s", qPrintable(parsed.errorTexts().join('\n')));
    return parsed.spec;
}

JobSpec pyTorch(const QJsonArray &environment = {})
{
    return spec(QJsonObject{{"pythonScriptFilePath", "/s/train.py"}, {"processCount", 2}, {"communicationBackend", "gloo"}},
                "pyTorchSettings", environment);
}

LaunchPlan plan(const JobSpec &s, const QList<Node> &nodes)
{
    LaunchContext c;
    c.workspace = "ws";
    c.experiment = "exp";
    c.job = "job1";
    c.uuid = "1234";
    c.mountRoot = "/mnt/batch";
    c.nodes = nodes;
    const auto p = buildLaunchPlan(s, c);
    if (!p)
        qFatal("%s", qPrintable(p.error()));
    return *p;
}

QString variable(const LaunchPlan &p, const QString &name)
{
    for (const auto &[n, v] : p.environment) {
        if (n == name)
            return v;
    }
    return QStringLiteral("<unset>");
}

} // namespace

class TestJobNetwork : public QObject
{
    Q_OBJECT
private slots:
    void theHeadNodesNetworkIsChosenAndItsInterfaceNamed()
    {
        const JobNetwork n = JobNetwork::of(probedNodes());
        // docker0's network is on both nodes too, but the head node's address is on eth0's.
        QCOMPARE(n.network, QStringLiteral("10.1.2.0/24"));
        QCOMPARE(n.interfaces, (QStringList{"eth0", "eth0"}));
        QCOMPARE(n.commonInterface(), QStringLiteral("eth0"));

        const LaunchPlan p = plan(pyTorch(), probedNodes());
        QCOMPARE(variable(p, "GLOO_SOCKET_IFNAME"), QStringLiteral("eth0"));
        QCOMPARE(variable(p, "NCCL_SOCKET_IFNAME"), QStringLiteral("eth0"));
        QCOMPARE(variable(p, "OMPI_MCA_btl_tcp_if_include"), QStringLiteral("10.1.2.0/24"));
        QCOMPARE(variable(p, "OMPI_MCA_oob_tcp_if_include"), QStringLiteral("10.1.2.0/24"));
        // Every rank gets them (mpirun -x), and the execution log says so.
        QVERIFY2(p.commandLine.contains("-x GLOO_SOCKET_IFNAME"), qPrintable(p.commandLine));
        QVERIFY2(p.launchScript.contains("log 'network 10.1.2.0/24 (eth0 on node1, eth0 on node2), from the nodes'\\''"
                                         " recorded interfaces: OMPI_MCA_btl_tcp_if_include=10.1.2.0/24"),
                 qPrintable(p.launchScript));
    }

    void theUsersOwnVariablesWin()
    {
        const LaunchPlan p = plan(pyTorch({QJsonObject{{"name", "GLOO_SOCKET_IFNAME"}, {"value", "ib0"}},
                                           QJsonObject{{"name", "OMPI_MCA_btl_tcp_if_exclude"}, {"value", "lo,docker0"}}}),
                                  probedNodes());
        QCOMPARE(variable(p, "GLOO_SOCKET_IFNAME"), QStringLiteral("ib0"));
        QCOMPARE(variable(p, "NCCL_SOCKET_IFNAME"), QStringLiteral("eth0"));
        // Include and exclude may not both be given to Open MPI: the user's exclude stands.
        QCOMPARE(variable(p, "OMPI_MCA_btl_tcp_if_include"), QStringLiteral("<unset>"));
        QCOMPARE(variable(p, "OMPI_MCA_oob_tcp_if_include"), QStringLiteral("10.1.2.0/24"));
        QVERIFY2(p.launchScript.contains("the job'\\''s own OMPI_MCA_btl_tcp_if_exclude, GLOO_SOCKET_IFNAME kept "
                                         "(environmentVariables win)"),
                 qPrintable(p.launchScript));
        // A custom MPI command line with its own --mca btl_tcp_if_... keeps it too.
        const LaunchPlan custom = plan(spec(QJsonObject{{"commandLine", "mpirun --mca btl_tcp_if_include eth1 a.out"}},
                                            "customMpiSettings"),
                                       probedNodes());
        QCOMPARE(variable(custom, "OMPI_MCA_btl_tcp_if_include"), QStringLiteral("<unset>"));
        QCOMPARE(variable(custom, "OMPI_MCA_oob_tcp_if_include"), QStringLiteral("10.1.2.0/24"));
    }

    void nodesThatNameTheInterfaceDifferentlyTellEachTaskItsOwn()
    {
        const QList<Node> nodes{node("a", "192.168.5.10", {{"ens5", "192.168.5.10/24"}}),
                                node("b", "192.168.5.11", {{"enp0s3", "192.168.5.11/24"}})};
        const LaunchPlan p = plan(pyTorch(), nodes);
        QCOMPARE(variable(p, "GLOO_SOCKET_IFNAME"), QStringLiteral("<unset>"));
        QCOMPARE(p.tasks.size(), 2);
        QVERIFY2(p.tasks.at(0).commandLine.contains("GLOO_SOCKET_IFNAME=ens5"), qPrintable(p.tasks.at(0).commandLine));
        QVERIFY2(p.tasks.at(1).commandLine.contains("GLOO_SOCKET_IFNAME=enp0s3"), qPrintable(p.tasks.at(1).commandLine));
        QVERIFY(p.tasks.at(1).commandLine.contains("NCCL_SOCKET_IFNAME=enp0s3"));
        // An MPI job gets one value for every rank: NCCL's list of exact names.
        const LaunchPlan horovod = plan(spec(QJsonObject{{"pythonScriptFilePath", "/s/h.py"}}, "horovodSettings"), nodes);
        QCOMPARE(variable(horovod, "NCCL_SOCKET_IFNAME"), QStringLiteral("=ens5,enp0s3"));
        QCOMPARE(variable(horovod, "GLOO_SOCKET_IFNAME"), QStringLiteral("<unset>"));
    }

    void withoutProbedInterfacesNothingIsSetAndTheLogSaysWhy()
    {
        QList<Node> nodes = probedNodes();
        nodes[1].facts.clear();
        const LaunchPlan p = plan(pyTorch(), nodes);
        QCOMPARE(variable(p, "GLOO_SOCKET_IFNAME"), QStringLiteral("<unset>"));
        QVERIFY2(p.launchScript.contains("none set for Gloo, NCCL or Open MPI: the interfaces of node2 are not known"),
                 qPrintable(p.launchScript));
        // No network every node is on.
        const QList<Node> apart{node("a", "10.0.0.1", {{"eth0", "10.0.0.1/24"}}), node("b", "10.0.1.1", {{"eth0", "10.0.1.1/24"}})};
        QVERIFY(JobNetwork::of(apart).network.isEmpty());
        QVERIFY(JobNetwork::of(apart).reason.contains("no IPv4 network that every node of the job is on"));
    }

    // Slurm records no interface and its nodes' names need not resolve (gloo then falls back
    // to loopback): each task finds, on its node, the interface with its node's address.
    void inSlurmEachTaskLooksUpItsNodesInterface()
    {
        for (const auto &[address, expected] : QList<QPair<QString, QString>>{{"127.0.0.1", "lo"}, {"192.0.2.77", "unset"}}) {
            QProcess sh;
            sh.start("/bin/sh", {"-c", JobNetwork::interfaceLookupText(address, {"GLOO_SOCKET_IFNAME"})
                                           + "; echo \"${GLOO_SOCKET_IFNAME:-unset}\""});
            QVERIFY(sh.waitForFinished());
            QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()).trimmed(), expected);
        }
        LaunchContext c;
        c.workspace = "ws";
        c.experiment = "exp";
        c.job = "job1";
        c.uuid = "1234";
        c.mountRoot = "/mnt/batch";
        c.slurm = true;
        c.nodes = {node("node-0", "@slurm-addr-0@", {}), node("node-1", "@slurm-addr-1@", {})};
        const auto p = buildLaunchPlan(pyTorch(), c);
        QVERIFY2(p, qPrintable(p.error()));
        QVERIFY2(p->commandLine.contains("awk -v a=@slurm-addr-1@ ") && p->commandLine.contains("GLOO_SOCKET_IFNAME="),
                 qPrintable(p->commandLine));
        QVERIFY(!p->launchScript.contains("none set for Gloo"));
        // The job's own wins.
        const auto own = buildLaunchPlan(pyTorch({QJsonObject{{"name", "GLOO_SOCKET_IFNAME"}, {"value", "eth1"}}}), c);
        QVERIFY2(own, qPrintable(own.error()));
        QVERIFY2(!own->commandLine.contains("GLOO_SOCKET_IFNAME=") && own->commandLine.contains("NCCL_SOCKET_IFNAME="),
                 qPrintable(own->commandLine));
        QVERIFY(QString(own->launchScript).replace("'\\''", "'").contains("the job's own GLOO_SOCKET_IFNAME kept"));
    }

    void theExecutionLogNamesTheInterpreterAndWhy()
    {
        // On the nodes: decided on the head node, with where it is and its version.
        const LaunchPlan onNodes = plan(pyTorch(), probedNodes());
        QVERIFY2(onNodes.launchScript.contains("log \"Python interpreter: python ($py_found): the job names no "
                                               "pythonInterpreterPath and the head node has python\""),
                 qPrintable(onNodes.launchScript));
        QVERIFY(onNodes.launchScript.contains("there is no 'python' on this node: the job's Python script runs with python3"));
        // Named by the job.
        const LaunchPlan named = plan(spec(QJsonObject{{"pythonScriptFilePath", "/s/train.py"}, {"processCount", 2},
                                                       {"communicationBackend", "gloo"},
                                                       {"pythonInterpreterPath", "/opt/conda/bin/python"}},
                                           "pyTorchSettings"),
                                      probedNodes());
        QVERIFY2(named.launchScript.contains("log 'Python interpreter: /opt/conda/bin/python (the job'\\''s pythonInterpreterPath)'"),
                 qPrintable(named.launchScript));
        // A custom MPI command names its own program: nothing said.
        const LaunchPlan custom = plan(spec(QJsonObject{{"commandLine", "./a.out"}}, "customMpiSettings"), probedNodes());
        QVERIFY(!custom.launchScript.contains("Python interpreter"));
    }

    void eachTaskHasItsOwnOutputFiles()
    {
        const LaunchPlan p = plan(pyTorch(), probedNodes());
        QVERIFY2(p.launchScript.contains("follow_output stdout & split_out=$!"), qPrintable(p.launchScript));
        QVERIFY(p.launchScript.contains("-v names='0 1'"));
        const LaunchPlan tf = plan(spec(QJsonObject{{"pythonScriptFilePath", "/s/tf.py"}, {"workerCount", 2},
                                                    {"parameterServerCount", 1}},
                                        "tensorFlowSettings"),
                                   probedNodes());
        QVERIFY2(tf.launchScript.contains("-v names='ps-0 wk-0 wk-1'"), qPrintable(tf.launchScript));
        QCOMPARE(TaskOutputs::taskIndexOf("stdout-wk-1.txt"), 1);
        QCOMPARE(TaskOutputs::taskIndexOf("stderr-12.txt"), 12);
        QCOMPARE(TaskOutputs::taskIndexOf("stdout-job_prep-node1.txt"), -1);
        QCOMPARE(TaskOutputs::taskIndexOf("stdout.txt"), -1);
    }

    // mpirun tags each piece it reads: a rank printing unbuffered ("text", then "\n") leaves
    // its line open, and another rank's piece follows on the same line of stdout.txt. Each
    // piece goes to its own rank's file (issue #39's matrix found rank 1's line in
    // stdout-0.txt), with the awk that runs on the nodes (mawk on Debian).
    void interleavedPiecesGoToTheirRanks()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("stdouterr"));
        QFile combined(dir.filePath("stdouterr/stdout.txt"));
        QVERIFY(combined.open(QIODevice::WriteOnly));
        combined.write("[1,0]<stdout>:cell rank 0[1,1]<stdout>:cell rank 1\n"
                       "[1,0]<stdout>:\n"
                       "[1,1]<stdout>:one[1,1]<stdout>: line\n"
                       "[1,2]<stdout>:step=1 loss=0.5\n"
                       "[1,0]<stdout>:no end");
        combined.close();
        // A job already gone: tail reads the file to its end and stops.
        const QString script = QStringLiteral("job=2147483646\n") + TaskOutputs::followerText({"0", "1", "wk-0"}, QString())
                               + QStringLiteral("wait $split_out $split_err\n");
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start("bash", {"-c", script});
        QVERIFY(sh.waitForFinished(30000));
        QCOMPARE(sh.exitCode(), 0);
        auto read = [&](const QString &name) {
            QFile f(dir.filePath("stdouterr/" + name));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("(none)");
        };
        QCOMPARE(read("stdout-0.txt"), QStringLiteral("cell rank 0\nno end\n"));
        QCOMPARE(read("stdout-1.txt"), QStringLiteral("cell rank 1\none line\n"));
        QCOMPARE(read("stdout-wk-0.txt"), QStringLiteral("step=1 loss=0.5\n"));
    }
};

QTEST_GUILESS_MAIN(TestJobNetwork)
#include "tst_jobnetwork.moc"

// Clusters of SSH nodes end to end, on two real sshd servers (127.0.0.2 and 127.0.0.3)
// that accept a throwaway user's password: creation with key generation and deployment,
// the setup task and its logs, the setup task on demand (both nodes in parallel, one
// node, cancelled from the GUI's worker), probing (streamed), node states (unreachable,
// setup task failed), resize (drain, park, rejoin), delete refused while a job runs, node
// exec, and a job across both nodes (preparation on every node, mpirun through the
// cluster's SSH).
#include "IntegrationTest.h"
#include "../core/EscapingJob.h"

#include "cluster/ClusterMesh.h"
#include "cluster/ClusterService.h"
#include "launch/MultiNodeJob.h"
#include "cluster/SshKeys.h"
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "session/ClusterWorker.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QThread>

using namespace TrainDesk;

class TestCluster : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    TestAccount m_user;
    SshServer m_node1;
    SshServer m_node2;
    Store m_store;
    qint64 m_clusterId = 0;
    int m_jobs = 0;

    QString address(const SshServer &s) const { return QStringLiteral("%1@%2:%3").arg(m_user.name(), s.address()).arg(s.port()); }

    CreateClusterRequest request(const QString &name) const
    {
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = name;
        r.nodes = {QStringLiteral("n1=") + address(m_node1), QStringLiteral("n2=") + address(m_node2)};
        r.password = m_user.password();
        r.keyFile = m_user.keyFile();
        r.generateSshKeys = true;
        r.acceptNewHostKeys = true;
        r.connectTimeoutMs = 5000;
        return r;
    }

    QMap<QString, Node> nodesByName(qint64 clusterId, bool all = false) const
    {
        QMap<QString, Node> nodes;
        for (const Node &n : all ? m_store.allNodes(clusterId) : m_store.nodes(clusterId))
            nodes.insert(n.name, n);
        return nodes;
    }

    Job submit(const QJsonObject &properties)
    {
        const QByteArray spec = QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
        JobRunner runner(m_store);
        const auto job = JobSubmission(m_store).submit({QStringLiteral("ws"), QStringLiteral("exp"),
                                        QStringLiteral("job%1").arg(++m_jobs), QStringLiteral("c1"), spec});
        if (!job)
            qFatal("submit failed: %s", qPrintable(job.error()));
        runner.refreshAll();  // the test stands in for the agent, which schedules
        return *m_store.jobById(job->id);
    }

private slots:
    void initTestCase()
    {
        // As an ordinary user the servers run as that user and let it in with its key only.
        QVERIFY2(m_user.create(m_home.path()), qPrintable(m_user.error()));
        // n1 has "a GPU": an nvidia-smi that answers as the driver's does.
        const QString fakeBin = m_home.filePath(QStringLiteral("fake-bin"));
        QDir().mkpath(fakeBin);
        QFile smi(fakeBin + QStringLiteral("/nvidia-smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3, 81559 MiB'\n");
        smi.close();
        smi.setPermissions(smi.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther
                           | QFileDevice::ReadOther);
        // Each "node" has a temporary folder of its own, as separate machines do: Open MPI's
        // daemons of both would otherwise race for one session folder under /tmp.
        QStringList tmp;
        for (const char *name : {"tmp-n1", "tmp-n2"}) {
            tmp << m_home.filePath(QLatin1String(name));
            QVERIFY(QDir().mkpath(tmp.last()));
            QVERIFY(QFile::setPermissions(tmp.last(), QFileDevice::Permissions(0x7777)));
        }
        SshServer::Options options;
        options.passwordAuthentication = true;  // keys from each user's ~/.ssh/authorized_keys too
        options.address = QStringLiteral("127.0.0.2");
        options.extraConfig = {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin TMPDIR=%2").arg(fakeBin, tmp.at(0))};
        m_user.configure(options);
        QVERIFY2(m_node1.start(m_home.filePath(QStringLiteral("sshd1")), options), qPrintable(m_node1.error()));
        options.extraConfig = {QStringLiteral("SetEnv TMPDIR=%1").arg(tmp.at(1))};
        m_user.configure(options);
        options.address = QStringLiteral("127.0.0.3");
        QVERIFY2(m_node2.start(m_home.filePath(QStringLiteral("sshd2")), options), qPrintable(m_node2.error()));
        QVERIFY(m_store.open(m_home.dataDir() + QStringLiteral("/traindesk.db")));
        const auto ws = m_store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        QVERIFY(m_store.createExperiment(ws->id, QStringLiteral("exp")));
    }

    void createGeneratesAndDeploysAKey()
    {
        CreateClusterRequest r = request(QStringLiteral("c1"));
        // With $HOME/setup-together present, each node waits (up to 60 s) until both have
        // begun: setup that runs the nodes one after the other cannot overlap, at any speed.
        r.setupTask = QStringLiteral(
            "echo \"set up $AZ_BATCHAI_NODE_NAME\"; echo to-stderr >&2; "
            "if [ -e \"$HOME/setup-together\" ]; then touch \"$HOME/setup-began-$AZ_BATCHAI_NODE_NAME\"; i=0; "
            "while [ $i -lt 600 ] && ! { [ -e \"$HOME/setup-began-n1\" ] && [ -e \"$HOME/setup-began-n2\" ]; }; "
            "do sleep 0.1; i=$((i+1)); done; fi");
        QStringList messages;
        ClusterEvents events;
        events.message = [&](const QString &m) { messages << m; };
        const auto cluster = ClusterService(m_store).create(r, events);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        m_clusterId = cluster->id;

        // The key pair: ed25519, in the data directory, private part the owner's alone.
        const QString key = SshKeys::defaultKeyPath();
        QVERIFY(key.startsWith(m_home.dataDir()));
        QCOMPARE(QFileInfo(key).permissions() & 0x0777, QFileDevice::ReadUser | QFileDevice::WriteUser);
        QFile pub(key + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QByteArray publicKey = pub.readAll().trimmed();
        QVERIFY(publicKey.startsWith("ssh-ed25519 "));
        // Deployed as ssh-copy-id does: once (both nodes share this user's home), 0600.
        QFile authorized(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));
        QVERIFY(authorized.open(QIODevice::ReadOnly));
        const QByteArray lines = authorized.readAll();
        QCOMPARE(lines.count(publicKey), 1);
        QCOMPARE(authorized.permissions() & 0x0777, QFileDevice::ReadUser | QFileDevice::WriteUser);
        // The key alone logs in from now on: no password is kept.
        QCOMPARE(cluster->sshKeyFile, key);
        QVERIFY(cluster->sshSecret.isEmpty());
        // Both host keys are on record in TrainDesk's own known_hosts.
        QFile known(m_home.knownHosts());
        QVERIFY(known.open(QIODevice::ReadOnly));
        const QByteArray knownText = known.readAll();
        QVERIFY(knownText.contains(QStringLiteral("[127.0.0.2]:%1 ssh-ed25519").arg(m_node1.port()).toUtf8()));
        QVERIFY(knownText.contains(QStringLiteral("[127.0.0.3]:%1 ssh-ed25519").arg(m_node2.port()).toUtf8()));

        const QList<Node> nodes = m_store.nodes(cluster->id);
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes.at(0).name, QStringLiteral("n1"));  // the head node
        QCOMPARE(nodes.at(0).host, QStringLiteral("127.0.0.2"));
        for (const Node &n : nodes) {
            QCOMPARE(toString(n.state), toString(NodeState::Idle));
            QCOMPARE(n.slotCount, QThread::idealThreadCount());
        }
        QCOMPARE(cluster->mountRoot, m_user.home() + QStringLiteral("/traindesk/mounts/ws/c1"));
        // SSH between the nodes for mpirun, with the cluster's own key.
        QVERIFY(QFile::exists(m_user.home() + QLatin1Char('/') + ClusterMesh::configRelativePath(*cluster)));
        QVERIFY2(messages.join('\n').contains(QLatin1String("key deployed")), qPrintable(messages.join('\n')));

        // The setup task ran on each node as it joined; its logs are kept and listed.
        const auto logs = ClusterService(m_store).setupLogs(QStringLiteral("ws"), QStringLiteral("c1"));
        QVERIFY(logs);
        QCOMPARE(logs->size(), 2);
        for (const SetupLog &log : *logs) {
            QVERIFY(log.succeeded());
            QFile out(log.stdOutPath), err(log.stdErrPath);
            QVERIFY(out.open(QIODevice::ReadOnly) && err.open(QIODevice::ReadOnly));
            QCOMPARE(out.readAll(), QStringLiteral("set up %1\n").arg(log.node).toUtf8());
            QCOMPARE(err.readAll(), QByteArray("to-stderr\n"));
        }
    }

    void runSetupAgainOnEveryNodeOrOne()
    {
        ClusterService service(m_store);
        const int logsBefore = int(service.setupLogs(QStringLiteral("ws"), QStringLiteral("c1"))->size());
        QStringList messages;
        ClusterEvents events;
        events.message = [&](const QString &m) { messages << m; };
        const QString together = m_user.home() + QStringLiteral("/setup-together");
        QVERIFY(QFile(together).open(QIODevice::WriteOnly));
        const auto runs = service.runSetup(QStringLiteral("ws"), QStringLiteral("c1"), {}, events);
        for (const QString &name : {together, m_user.home() + QStringLiteral("/setup-began-n1"),
                                    m_user.home() + QStringLiteral("/setup-began-n2")})
            QFile::remove(name);
        QVERIFY2(runs, qPrintable(runs.error()));
        QCOMPARE(runs->size(), 2);
        QCOMPARE(runs->at(0).node, QStringLiteral("n1"));  // node order
        QCOMPARE(runs->at(1).node, QStringLiteral("n2"));
        for (const SetupLog &run : *runs) {
            QVERIFY2(run.succeeded(), qPrintable(run.failure()));
            QFile out(run.stdOutPath);
            QVERIFY(out.open(QIODevice::ReadOnly));
            QCOMPARE(out.readAll(), QStringLiteral("set up %1\n").arg(run.node).toUtf8());
        }
        // Both nodes ran at once: each started before the other ended (each waited for the
        // other to begin; one after the other, the first ends only after its 60 s wait).
        QVERIFY(runs->at(0).started < runs->at(1).ended && runs->at(1).started < runs->at(0).ended);
        QCOMPARE(messages.filter(QLatin1String("setup task succeeded")).size(), 2);
        QCOMPARE(int(service.setupLogs(QStringLiteral("ws"), QStringLiteral("c1"))->size()), logsBefore + 2);

        const auto one = service.runSetup(QStringLiteral("ws"), QStringLiteral("c1"), {QStringLiteral("n2")});
        QVERIFY2(one && one->size() == 1 && one->first().node == QLatin1String("n2"), qPrintable(one.error()));
        for (const Node &n : m_store.nodes(m_clusterId))
            QCOMPARE(toString(n.state), toString(NodeState::Idle));
    }

    void cancelledSetupLeavesTheNodeUnusable()
    {
        // The task is slow while a file of the node's user is there.
        const QString slow = m_user.home() + QStringLiteral("/slow-setup");
        CreateClusterRequest r = request(QStringLiteral("c4"));
        r.nodes = {QStringLiteral("n1=") + address(m_node1)};
        r.password.clear();  // the key deployed before logs in
        r.keyFile.clear();
        r.setupTask = QStringLiteral("if [ -e \"$HOME/slow-setup\" ]; then echo slow; sleep 120; fi");
        const auto cluster = ClusterService(m_store).create(r);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        QFile marker(slow);
        QVERIFY(marker.open(QIODevice::WriteOnly));
        marker.close();

        ClusterWorker worker(m_home.dataDir() + QStringLiteral("/traindesk.db"));
        QSignalSpy messages(&worker, &ClusterWorker::message);
        QSignalSpy finished(&worker, &ClusterWorker::finished);
        const int id = worker.runSetup(QStringLiteral("ws"), QStringLiteral("c4"));
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 20000);
        QCOMPARE(messages.first().at(0).toInt(), id);
        QVERIFY2(messages.first().at(1).toString().contains(QLatin1String("node n1: running the setup task")),
                 qPrintable(messages.first().at(1).toString()));
        // The task is running on the node once its output reaches the log.
        const QDir logs(SetupTask::logDirectory(QStringLiteral("ws"), QStringLiteral("c4")) + QStringLiteral("/n1"));
        auto runningOutput = [&] {
            const QStringList outs = logs.entryList({QStringLiteral("*-stdout.txt")}, QDir::Files, QDir::Name);
            QFile out(logs.filePath(outs.value(outs.size() - 1)));
            return out.open(QIODevice::ReadOnly) ? out.readAll() : QByteArray();
        };
        QTRY_COMPARE_WITH_TIMEOUT(runningOutput(), QByteArray("slow\n"), 20000);
        QElapsedTimer timer;
        timer.start();
        worker.cancel();
        QVERIFY(finished.wait(20000));
        QVERIFY(timer.elapsed() < 20000);
        QCOMPARE(finished.first().at(0).toInt(), id);
        QCOMPARE(finished.first().at(1).toLongLong(), cluster->id);
        const QString error = finished.first().at(2).toString();
        QVERIFY2(error.contains(QLatin1String("node n1")) && error.contains(QLatin1String("cancelled")), qPrintable(error));
        const Node n = m_store.nodes(cluster->id).first();
        QCOMPARE(toString(n.state), toString(NodeState::Unusable));
        QVERIFY2(n.stateReason.contains(QLatin1String("cancelled")), qPrintable(n.stateReason));

        // Without the file the task is quick again, and the node comes back.
        QVERIFY(QFile::remove(slow));
        const auto runs = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("c4"), {});
        QVERIFY2(runs && runs->first().succeeded(), qPrintable(runs ? runs->first().failure() : runs.error()));
        QCOMPARE(toString(m_store.nodes(cluster->id).first().state), toString(NodeState::Idle));
        QVERIFY(ClusterService(m_store).remove(QStringLiteral("ws"), QStringLiteral("c4")));
    }

    void probeStreamsEachCheck()
    {
        QList<ProbeCheck> streamed;
        QElapsedTimer timer;
        timer.start();
        QList<qint64> when;
        ClusterEvents events;
        events.check = [&](const ProbeCheck &c) {
            streamed << c;
            when << timer.elapsed();
        };
        const auto results = ClusterService(m_store).probe(QStringLiteral("ws"), QStringLiteral("c1"), events);
        QVERIFY2(results, qPrintable(results.error()));
        QCOMPARE(results->size(), 2);
        QVERIFY(when.first() < when.last());
        QSet<QString> ids;
        for (const ProbeCheck &c : streamed) {
            ids.insert(c.node + QLatin1Char('/') + c.id);
            QVERIFY2(c.passed || !c.hint.isEmpty(), qPrintable(c.toText()));
            // The bundled trainer is not installed here, and n1's GPU is an nvidia-smi that
            // answers without a driver: the trainer rightly finds no usable GPU there.
            if (c.id == QLatin1String("trainer-gpu"))
                QVERIFY2(c.node == QLatin1String("n1") && !c.passed && c.toText().contains(QLatin1String("no NVIDIA driver")),
                         qPrintable(c.toText()));
            else if (c.id != QLatin1String("trainer"))
                QVERIFY2(c.passed, qPrintable(c.toText()));
        }
        for (const QString &node : {QStringLiteral("n1"), QStringLiteral("n2")}) {
            for (const char *id : {"reachable", "authenticated", "os", "cores", "memory", "gpus", "openmpi", "trainer",
                                   "mountRoot", "shares", "headSsh"})
                QVERIFY2(ids.contains(node + QLatin1Char('/') + QLatin1String(id)), id);
        }
        QVERIFY(ids.contains(QStringLiteral("/network")));
        auto check = [&](const QString &node, const QString &id) {
            return *std::find_if(streamed.begin(), streamed.end(),
                                 [&](const ProbeCheck &c) { return c.node == node && c.id == id; });
        };
        QCOMPARE(check(QStringLiteral("n1"), QStringLiteral("gpus")).detail, QStringLiteral("1: NVIDIA H100 80GB HBM3, 81559 MiB"));
        QVERIFY(check(QStringLiteral("n2"), QStringLiteral("gpus")).detail.startsWith(QLatin1String("none")));
        // The head node logs in to n2 without a password, through the cluster's SSH config.
        const auto head = std::find_if(streamed.begin(), streamed.end(), [](const ProbeCheck &c) {
            return c.node == QLatin1String("n2") && c.id == QLatin1String("headSsh");
        });
        QVERIFY2(head->passed && head->detail.contains(QLatin1String("n1 reaches n2")), qPrintable(head->toText()));
        // What was learnt is kept for the node table.
        const Node n1 = nodesByName(m_clusterId).value(QStringLiteral("n1"));
        const QJsonObject facts = QJsonDocument::fromJson(n1.facts.toUtf8()).object();
        QCOMPARE(facts.value("cores").toInt(), QThread::idealThreadCount());
        QVERIFY(facts.value("openMpi").toString().startsWith(QLatin1Char('4')));
        QCOMPARE(facts.value("gpus").toArray().size(), 1);
    }

    void nodeExecStreamsAndReturnsTheExitCode()
    {
        QByteArray out, err;
        ExecHandlers handlers;
        handlers.onStdOut = [&](const QByteArray &d) { out += d; };
        handlers.onStdErr = [&](const QByteArray &d) { err += d; };
        const auto status = ClusterService(m_store).exec(QStringLiteral("ws"), QStringLiteral("c1"), QStringLiteral("n2"),
                                                         QStringLiteral("id -un; echo oops >&2; exit 5"), handlers);
        QVERIFY2(status, qPrintable(status.error()));
        QCOMPARE(*status, 5);
        QCOMPARE(out, m_user.name().toUtf8() + '\n');
        QCOMPARE(err, QByteArray("oops\n"));
        const auto missing = ClusterService(m_store).exec(QStringLiteral("ws"), QStringLiteral("c1"), QStringLiteral("n9"),
                                                          QStringLiteral("true"), {});
        QVERIFY(!missing);
        QVERIFY2(missing.error().contains(QLatin1String("no node 'n9'")), qPrintable(missing.error()));
    }

    void mpirunOnTheHeadReachesTheOtherNode()
    {
        // What the launch script's mpirun does: from n1, start a rank on n2 over ssh with
        // the cluster's own config and key.
        const auto cluster = m_store.clusterById(m_clusterId);
        QByteArray out, err;
        ExecHandlers handlers;
        handlers.onStdOut = [&](const QByteArray &d) { out += d; };
        handlers.onStdErr = [&](const QByteArray &d) { err += d; };
        const QString before = m_node2.log();
        const auto status = ClusterService(m_store).exec(
            QStringLiteral("ws"), QStringLiteral("c1"), QStringLiteral("n1"),
            MultiNodeJob::launchPrefix(*cluster)
                + QStringLiteral("mpirun --oversubscribe -np 1 --host 127.0.0.2 sh -c 'echo rank $OMPI_COMM_WORLD_RANK' : "
                                 "-np 1 --host 127.0.0.3 sh -c 'echo rank $OMPI_COMM_WORLD_RANK'"),
            handlers, nullptr, 120000);
        QVERIFY2(status, qPrintable(status.error()));
        QVERIFY2(*status == 0, err.constData());
        QVERIFY(out.contains("rank 0") && out.contains("rank 1"));
        // n2's sshd let the user in with the cluster's key (not TrainDesk's own).
        const QString after = m_node2.log().mid(before.size());
        QVERIFY2(after.contains(QStringLiteral("Accepted publickey for %1").arg(m_user.name())), qPrintable(after));
    }

    void jobStartNamesTheNodeTheHeadCannotReach()
    {
        // Without the cluster's key (its config still there: a missing folder would be made
        // again) the head node has no key that n2 accepts.
        const auto cluster = m_store.clusterById(m_clusterId);
        const QString config = m_user.home() + QLatin1Char('/') + ClusterMesh::directoryRelativePath(*cluster)
                               + QStringLiteral("/id_ed25519");
        QVERIFY(QFile::rename(config, config + QStringLiteral(".away")));
        const Job job = submit({{"nodeCount", 2},
                                {"customMpiSettings", QJsonObject{{"commandLine", "hostname"}, {"processCount", 2}}},
                                {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/logs"}});
        QVERIFY(QFile::rename(config + QStringLiteral(".away"), config));
        const Job done = *m_store.jobById(job.id);
        QCOMPARE(toString(done.state), toString(JobState::Failed));
        QVERIFY(!done.errors.isEmpty());
        QVERIFY2(done.errors.first().message.contains(QLatin1String("cannot log in to node n2")),
                 qPrintable(done.errors.first().message));
        for (const Node &n : m_store.nodes(m_clusterId))
            QCOMPARE(toString(n.state), toString(NodeState::Idle));
    }

    void jobAcrossBothNodes()
    {
        // One rank more than n1 has slots: the last one runs on n2. Each rank says which node
        // it is on through the node's own TMPDIR (tmp-n1, tmp-n2).
        const int ranks = nodesByName(m_clusterId).value(QStringLiteral("n1")).slotCount + 1;
        const Job job = submit({{"nodeCount", 2},
                                {"jobPreparation", QJsonObject{{"commandLine", "echo prepared"}}},
                                {"customMpiSettings", QJsonObject{{"commandLine", "sh -c 'echo rank $OMPI_COMM_WORLD_RANK $TMPDIR'"},
                                                                  {"processCount", ranks}}},
                                {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/logs"}});
        const Job done = waitForJobEnd(m_store, job.id);
        QCOMPARE(done.nodes, QStringList({QStringLiteral("n1"), QStringLiteral("n2")}));
        auto read = [&](const QString &name) {
            QFile f(done.jobDir + QStringLiteral("/stdouterr/") + name);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
        };
        QVERIFY2(done.state == JobState::Succeeded,
                 qPrintable(toString(done.state) + QLatin1Char(' ')
                            + (done.errors.isEmpty() ? QString() : done.errors.first().message) + QLatin1Char(' ')
                            + QString::fromUtf8(read(QStringLiteral("stderr.txt")))));
        QCOMPARE(read(QStringLiteral("stdout-job_prep-n1.txt")), QByteArray("prepared\n"));
        QCOMPARE(read(QStringLiteral("stdout-job_prep-n2.txt")), QByteArray("prepared\n"));
        // Where the log filter by node says each rank ran is where it ran.
        QCOMPARE(done.rankNodes.size(), ranks);
        const QByteArray out = read(QStringLiteral("stdout.txt"));
        QCOMPARE(out.count('\n'), ranks);  // one line per rank
        const QRegularExpression line(QStringLiteral("^\\[\\d+,(\\d+)\\]<stdout>:rank (\\d+) .*/tmp-(n\\d)$"));
        for (const QByteArray &text : out.trimmed().split('\n')) {
            const auto m = line.match(QString::fromUtf8(text));
            QVERIFY2(m.hasMatch(), text.constData());
            const int rank = m.captured(1).toInt();
            QCOMPARE(m.captured(2).toInt(), rank);
            QCOMPARE(done.rankNodes.at(rank), m.captured(3));
        }
        QCOMPARE(done.rankNodes.last(), QStringLiteral("n2"));
    }

    void terminateEndsEveryProcessOfAJobOnANode()
    {
        // Over SSH as on this machine: what the job started, however it detached, is gone
        // when terminate returns (the nodes are this machine, so ps here sees them).
        Testing::EscapingJob escaping;
        const Job job = submit({{"nodeCount", 1},
                                {"customToolkitSettings", QJsonObject{{"commandLine", escaping.command()}}},
                                {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/logs"}});
        QTRY_VERIFY_WITH_TIMEOUT(escaping.allStarted(), 30000);
        const auto ended = JobRunner(m_store).terminate(job.id, 3000);
        QVERIFY2(ended && isFinished(ended->state), qPrintable(ended.error()));
        QVERIFY2(escaping.running().isEmpty(), qPrintable(escaping.running()));
    }

    void setupRepairsTheHeadNodesClusterFolder()
    {
        // The head node's cluster folder is gone (another data directory's delete used to do
        // that): `cluster setup` makes it whole again, and mpirun reaches the other node.
        const auto cluster = m_store.clusterById(m_clusterId);
        QVERIFY(cluster);
        const QString folder = m_user.home() + QLatin1Char('/') + ClusterMesh::directoryRelativePath(*cluster);
        QVERIFY2(QFileInfo(folder + QStringLiteral("/ssh_config")).isFile(), qPrintable(folder));
        QVERIFY(QDir(folder).removeRecursively());
        const auto runs = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("c1"), {});
        QVERIFY2(runs, qPrintable(runs.error()));
        for (const char *file : {"ssh_config", "id_ed25519", "known_hosts"})
            QVERIFY2(QFileInfo(folder + QLatin1Char('/') + QLatin1String(file)).isFile(), file);
        mpirunOnTheHeadReachesTheOtherNode();
        // Gone again: a job across both nodes makes it again before it starts.
        QVERIFY(QDir(folder).removeRecursively());
        jobAcrossBothNodes();
        QVERIFY(QFileInfo(folder + QStringLiteral("/ssh_config")).isFile());
    }

    void resizeDrainsParksAndRejoins()
    {
        ClusterService service(m_store);
        // Down to one: n2 is idle and leaves at once.
        auto cluster = service.resize(QStringLiteral("ws"), QStringLiteral("c1"), 1);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        QCOMPARE(m_store.nodes(m_clusterId).size(), 1);
        QVERIFY(nodesByName(m_clusterId, true).value(QStringLiteral("n2")).parked);
        // A job on n1, then down to 0: n1 drains (leaving) while the job runs.
        const Job job = submit({{"nodeCount", 1},
                                {"customToolkitSettings", QJsonObject{{"commandLine", "sleep 120"}}},
                                {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/logs"}});
        QCOMPARE(toString(m_store.jobById(job.id)->state), toString(JobState::Running));
        cluster = service.resize(QStringLiteral("ws"), QStringLiteral("c1"), 0);
        QVERIFY(cluster);
        QCOMPARE(toString(nodesByName(m_clusterId).value(QStringLiteral("n1")).state), toString(NodeState::Leaving));
        QVERIFY(service.refresh(m_clusterId));  // still running: still leaving
        QCOMPARE(toString(nodesByName(m_clusterId).value(QStringLiteral("n1")).state), toString(NodeState::Leaving));
        // Delete is refused while the job runs.
        const auto refused = service.remove(QStringLiteral("ws"), QStringLiteral("c1"));
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("running")), qPrintable(refused.error()));
        // The job ends: the node leaves; the cluster is parked with no node.
        const auto terminated = JobRunner(m_store).terminate(job.id, 3000);
        QVERIFY2(terminated && isFinished(terminated->state), qPrintable(terminated.error()));
        QVERIFY(service.refresh(m_clusterId));
        QVERIFY(m_store.nodes(m_clusterId).isEmpty());
        QCOMPARE(m_store.clusterById(m_clusterId)->targetNodeCount, 0);
        // Back to two: both rejoin through their setup task.
        const int logsBefore = int(service.setupLogs(QStringLiteral("ws"), QStringLiteral("c1"))->size());
        cluster = service.resize(QStringLiteral("ws"), QStringLiteral("c1"), 2);
        QVERIFY(cluster);
        QCOMPARE(m_store.nodes(m_clusterId).size(), 2);
        for (const Node &n : m_store.nodes(m_clusterId))
            QCOMPARE(toString(n.state), toString(NodeState::Idle));
        QCOMPARE(int(service.setupLogs(QStringLiteral("ws"), QStringLiteral("c1"))->size()), logsBefore + 2);
        // Above the node count is refused with the range.
        const auto tooMany = service.resize(QStringLiteral("ws"), QStringLiteral("c1"), 3);
        QVERIFY(!tooMany);
        QVERIFY2(tooMany.error().contains(QLatin1String("from 0 to 2")), qPrintable(tooMany.error()));
    }

    void unreachableNodeIsUnusableUntilItAnswers()
    {
        ClusterService service(m_store);
        m_node2.stop();
        m_node2.dropConnections();
        SshConnectionPool::instance().closeIdle();
        // As `cluster show` and `node list` ask the nodes before they print.
        QVERIFY(service.refresh(m_clusterId));
        const Node n2 = nodesByName(m_clusterId).value(QStringLiteral("n2"));
        QCOMPARE(toString(n2.state), toString(NodeState::Unusable));
        QVERIFY2(n2.stateReason.startsWith(QLatin1String("unreachable: ")) && n2.stateReason.contains(QLatin1String("n2")),
                 qPrintable(n2.stateReason));
        QCOMPARE(toString(nodesByName(m_clusterId).value(QStringLiteral("n1")).state), toString(NodeState::Idle));
        QVERIFY2(m_node2.restart(), qPrintable(m_node2.error()));
        QVERIFY(service.refresh(m_clusterId));
        QCOMPARE(toString(nodesByName(m_clusterId).value(QStringLiteral("n2")).state), toString(NodeState::Idle));
        QVERIFY(nodesByName(m_clusterId).value(QStringLiteral("n2")).lastSeen.secsTo(QDateTime::currentDateTimeUtc()) < 30);
    }

    void failingSetupTaskMakesTheNodeUnusable()
    {
        CreateClusterRequest r = request(QStringLiteral("c2"));
        r.nodes = {address(m_node1)};
        r.password.clear();  // the key deployed before logs in
        r.keyFile.clear();
        r.setupTask = QStringLiteral("echo boom >&2; exit 3");
        const auto cluster = ClusterService(m_store).create(r);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        const Node n = m_store.nodes(cluster->id).first();
        QCOMPARE(toString(n.state), toString(NodeState::Unusable));
        QVERIFY2(n.stateReason.contains(QLatin1String("setup task failed with exit code 3")), qPrintable(n.stateReason));
        const auto logs = ClusterService(m_store).setupLogs(QStringLiteral("ws"), QStringLiteral("c2"), n.name);
        QVERIFY(logs && logs->size() == 1);
        QCOMPARE(logs->first().exitCode.value_or(-1), 3);
        QFile err(logs->first().stdErrPath);
        QVERIFY(err.open(QIODevice::ReadOnly));
        QCOMPARE(err.readAll(), QByteArray("boom\n"));
        QVERIFY(n.stateReason.contains(logs->first().stdErrPath));
    }

    void creationFailsClearlyAndStoresNothing()
    {
        CreateClusterRequest r = request(QStringLiteral("c3"));
        r.generateSshKeys = false;
        r.password = QStringLiteral("wrong password");
        r.keyFile.clear();
        QElapsedTimer timer;
        timer.start();
        const auto failed = ClusterService(m_store).create(r);
        QVERIFY(!failed);
        QVERIFY(timer.elapsed() < 20000);
        QVERIFY2(failed.error().contains(QLatin1String("node n1")) && failed.error().contains(QLatin1String("node n2"))
                     && failed.error().contains(QLatin1String("authentication failed")),
                 qPrintable(failed.error()));
        QVERIFY(!m_store.cluster(m_store.workspace(QStringLiteral("ws"))->id, QStringLiteral("c3")));
        r.nodes = {QStringLiteral("n1=") + address(m_node1), QStringLiteral("not an address")};
        QVERIFY(!ClusterService(m_store).create(r));
    }

    void deleteRemovesTheCluster()
    {
        QVERIFY(ClusterService(m_store).remove(QStringLiteral("ws"), QStringLiteral("c2")));
        QVERIFY(!m_store.cluster(m_store.workspace(QStringLiteral("ws"))->id, QStringLiteral("c2")));
    }

    void cleanupTestCase()
    {
        m_node1.stop();
        m_node2.stop();
        SshConnectionPool::instance().closeIdle();
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"

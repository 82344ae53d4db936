// The setup task on demand (ClusterService::runSetup) on local clusters, this machine
// without SSH: it runs again and leaves a new log, the node is preparing meanwhile, a
// failing task makes the node unusable until a fixed one runs, and the refusals (unknown
// node, no setup task, a node running a job) name what they refuse and change nothing.
#include "cluster/ClusterService.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "store/Store.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

class TestClusterSetup : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;
    qint64 m_experimentId = 0;

    QString counterPath() const { return m_dir.filePath(QStringLiteral("runs.txt")); }
    QString scriptPath() const { return m_dir.filePath(QStringLiteral("setup.sh")); }

    int runsCounted() const
    {
        QFile f(counterPath());
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
    }

    // What a user does to the script on a share before running the setup task again.
    bool writeScript(const QByteArray &body) const
    {
        QFile f(scriptPath());
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(body) == body.size();
    }

    Result<Cluster> createLocal(const QString &name, const QString &setupTask)
    {
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = name;
        r.local = true;
        r.setupTask = setupTask;
        return ClusterService(m_store).create(r);
    }

    Node onlyNode(const QString &cluster) const
    {
        const auto c = m_store.cluster(m_store.workspace(QStringLiteral("ws"))->id, cluster);
        return c ? m_store.nodes(c->id).value(0) : Node();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        qputenv("TRAINDESK_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        const auto ws = m_store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        const auto exp = m_store.createExperiment(ws->id, QStringLiteral("exp"));
        QVERIFY(exp);
        m_experimentId = exp->id;
        // Counts its runs in a file and says which run it is.
        const QString counter = shellQuote(counterPath());
        const auto counted = createLocal(QStringLiteral("counted"),
                                         QStringLiteral("n=$(cat %1 2>/dev/null || echo 0); n=$((n + 1)); "
                                                        "echo $n > %1; echo \"run $n on $AZ_BATCHAI_NODE_NAME\"")
                                             .arg(counter));
        QVERIFY2(counted, qPrintable(counted.error()));
        QCOMPARE(runsCounted(), 1);
        QVERIFY(writeScript("echo first\n"));
        const auto scripted = createLocal(QStringLiteral("scripted"), QStringLiteral("sh ") + shellQuote(scriptPath()));
        QVERIFY2(scripted, qPrintable(scripted.error()));
        QVERIFY(createLocal(QStringLiteral("plain"), QString()));
    }

    void runsTheTaskAgain()
    {
        // The node is preparing while the task runs: seen from the worker thread that
        // reports the step, with a Store of that thread.
        const qint64 clusterId = onlyNode(QStringLiteral("counted")).clusterId;
        QStringList messages;
        QString stateWhileRunning;
        ClusterEvents events;
        events.message = [&](const QString &line) {
            messages << line;
            if (line.contains(QLatin1String("running the setup task"))) {
                Store store;
                if (store.open(DataPaths::databasePath()))
                    stateWhileRunning = toString(store.nodes(clusterId).value(0).state);
            }
        };
        const auto runs = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("counted"), {}, events);
        QVERIFY2(runs, qPrintable(runs.error()));
        QCOMPARE(runs->size(), 1);
        const SetupLog run = runs->first();
        QCOMPARE(run.node, QStringLiteral("localhost"));
        QVERIFY2(run.succeeded(), qPrintable(run.failure()));
        QCOMPARE(runsCounted(), 2);
        QFile out(run.stdOutPath);
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), QByteArray("run 2 on localhost\n"));
        QCOMPARE(stateWhileRunning, toString(NodeState::Preparing));
        QVERIFY2(messages.size() == 2 && messages.last().contains(QLatin1String("setup task succeeded")),
                 qPrintable(messages.join(QLatin1Char('\n'))));

        // A new log beside the first one, newest first.
        const auto logs = ClusterService(m_store).setupLogs(QStringLiteral("ws"), QStringLiteral("counted"));
        QVERIFY(logs);
        QCOMPARE(logs->size(), 2);
        QCOMPARE(logs->first().stdOutPath, run.stdOutPath);
        const Node node = onlyNode(QStringLiteral("counted"));
        QCOMPARE(toString(node.state), toString(NodeState::Idle));
        QVERIFY(node.stateReason.isEmpty());

        // Naming the node does the same.
        const auto named = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("counted"),
                                                            {QStringLiteral("localhost")});
        QVERIFY2(named && named->size() == 1 && named->first().succeeded(), qPrintable(named.error()));
        QCOMPARE(runsCounted(), 3);
    }

    void failingTaskMakesTheNodeUnusableUntilFixed()
    {
        QVERIFY(writeScript("echo broken >&2\nexit 7\n"));
        auto runs = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("scripted"), {});
        QVERIFY2(runs, qPrintable(runs.error()));  // a failed run is a log, not a failure
        QCOMPARE(runs->size(), 1);
        QCOMPARE(runs->first().exitCode.value_or(-1), 7);
        QFile err(runs->first().stdErrPath);
        QVERIFY(err.open(QIODevice::ReadOnly));
        QCOMPARE(err.readAll(), QByteArray("broken\n"));
        Node node = onlyNode(QStringLiteral("scripted"));
        QCOMPARE(toString(node.state), toString(NodeState::Unusable));
        QVERIFY2(node.stateReason.contains(QLatin1String("setup task failed with exit code 7"))
                     && node.stateReason.contains(runs->first().stdErrPath),
                 qPrintable(node.stateReason));
        QVERIFY(SetupTask::failureSummary(*runs).startsWith(QLatin1String("node localhost: setup task failed")));

        // The script is fixed: running it again brings the node back.
        QVERIFY(writeScript("echo fixed\n"));
        runs = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("scripted"), {});
        QVERIFY2(runs && runs->first().succeeded(), qPrintable(runs ? runs->first().failure() : runs.error()));
        QVERIFY(SetupTask::failureSummary(*runs).isEmpty());
        node = onlyNode(QStringLiteral("scripted"));
        QCOMPARE(toString(node.state), toString(NodeState::Idle));
        QVERIFY2(node.stateReason.isEmpty(), qPrintable(node.stateReason));
    }

    void unknownNodeIsRefused()
    {
        const int runsBefore = runsCounted();
        const auto refused = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("counted"),
                                                              {QStringLiteral("localhost"), QStringLiteral("n9")});
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("'n9'")) && refused.error().contains(QLatin1String("'counted'")),
                 qPrintable(refused.error()));
        QCOMPARE(runsCounted(), runsBefore);  // not even on the node that exists
        QCOMPARE(toString(onlyNode(QStringLiteral("counted")).state), toString(NodeState::Idle));
    }

    void unknownClusterIsRefusedAsElsewhere()
    {
        ClusterService service(m_store);
        const auto missing = service.runSetup(QStringLiteral("ws"), QStringLiteral("nowhere"), {});
        QVERIFY(!missing);
        QCOMPARE(missing.error(), service.setupLogs(QStringLiteral("ws"), QStringLiteral("nowhere")).error());
        QVERIFY2(missing.error().contains(QLatin1String("nowhere")), qPrintable(missing.error()));
        const auto noWorkspace = service.runSetup(QStringLiteral("nows"), QStringLiteral("counted"), {});
        QVERIFY(!noWorkspace);
        QCOMPARE(noWorkspace.error(), service.remove(QStringLiteral("nows"), QStringLiteral("counted")).error());
    }

    void clusterWithoutSetupTaskIsRefused()
    {
        const auto refused = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("plain"), {});
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("'plain'"))
                     && refused.error().contains(QLatin1String("no setup task")),
                 qPrintable(refused.error()));
        QCOMPARE(toString(onlyNode(QStringLiteral("plain")).state), toString(NodeState::Idle));
    }

    void nodeRunningAJobIsRefused()
    {
        const auto cluster = m_store.cluster(m_store.workspace(QStringLiteral("ws"))->id, QStringLiteral("counted"));
        QVERIFY(cluster);
        Job job;
        job.experimentId = m_experimentId;
        job.clusterId = cluster->id;
        job.name = QStringLiteral("training");
        job.spec = "{}";
        auto created = m_store.createJob(job);
        QVERIFY2(created, qPrintable(created.error()));
        created->state = JobState::Running;
        created->nodes = {QStringLiteral("localhost")};
        QVERIFY(m_store.updateJob(*created));
        QVERIFY(m_store.setNodeState(onlyNode(QStringLiteral("counted")).id, NodeState::Running));
        const int runsBefore = runsCounted();

        const auto refused = ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("counted"), {});
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("localhost"))
                     && refused.error().contains(QLatin1String("'training'")),
                 qPrintable(refused.error()));
        QCOMPARE(runsCounted(), runsBefore);
        QCOMPARE(toString(onlyNode(QStringLiteral("counted")).state), toString(NodeState::Running));

        // The job ends: the task may run again.
        created->state = JobState::Failed;
        QVERIFY(m_store.updateJob(*created));
        QVERIFY(m_store.setNodeState(onlyNode(QStringLiteral("counted")).id, NodeState::Idle));
        QVERIFY(ClusterService(m_store).runSetup(QStringLiteral("ws"), QStringLiteral("counted"), {}));
        QCOMPARE(runsCounted(), runsBefore + 1);
    }
};

QTEST_GUILESS_MAIN(TestClusterSetup)
#include "tst_clustersetup.moc"

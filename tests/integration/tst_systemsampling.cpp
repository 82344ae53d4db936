// System metrics of SSH nodes: the agent's NodeSampling samples every node of a running job
// of an SSH cluster over its real SSH transport (two sshd servers on loopback, each a node)
// and stores one sample per node and round with the job. The nodes are this machine, so
// what /proc says here is the truth to compare with.
#include "IntegrationTest.h"

#include "agent/NodeSampling.h"
#include "metrics/SystemSample.h"
#include "metrics/SystemSampler.h"
#include "transport/SshTransport.h"

#include <QSet>

using namespace TrainDesk;

namespace {

qint64 memTotalHere()
{
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("MemTotal:"))
            return line.simplified().split(' ').at(1).toLongLong() * 1024;
    }
    return -1;
}

} // namespace

class TestSystemSampling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // No root needed: each server runs as the user running the test and lets that user in.
        m_key = m_home.makeClientKey(QStringLiteral("client_key"));
        const QString keys = m_home.authorizedKeysFor(m_key);
        QVERIFY(!keys.isEmpty());
        SshServer::Options options;
        options.authorizedKeysFile = keys;
        QVERIFY2(m_a.start(m_home.filePath(QStringLiteral("sshd-a")), options), qPrintable(m_a.error()));
        options.address = QStringLiteral("127.0.0.2");
        QVERIFY2(m_b.start(m_home.filePath(QStringLiteral("sshd-b")), options), qPrintable(m_b.error()));
        QDir().mkpath(m_home.dataDir());
        // Trust on first use, as the cluster wizard does: clusters then accept known keys only.
        for (SshServer *server : {&m_a, &m_b}) {
            SshTransport first(loginParameters(*server, m_key, HostKeyPolicy::AcceptNew));
            const auto hello = first.exec(QStringLiteral("true"));
            QVERIFY2(hello, qPrintable(hello.error()));
        }
    }

    void samplerReadsANodeOverSsh()
    {
        SshTransport transport(loginParameters(m_a, m_key, HostKeyPolicy::KnownOnly));
        const auto sample = SystemSampler::sample(transport, QStringLiteral("a"));
        QVERIFY2(sample, qPrintable(sample.error()));
        QCOMPARE(sample->node, QStringLiteral("a"));
        QVERIFY(sample->cpuPercent >= 0 && sample->cpuPercent <= 100);
        QCOMPARE(sample->memTotalBytes, memTotalHere());
        QVERIFY(sample->memUsedBytes > 0 && sample->memUsedBytes < sample->memTotalBytes);
        QVERIFY(sample->netRxBytes >= 0);
    }

    void agentSamplesEveryNodeOfARunningJob()
    {
        Store store;
        QVERIFY(store.open(m_home.filePath(QStringLiteral("store.db"))));
        const auto ws = store.createWorkspace(QStringLiteral("ws"));
        const auto exp = store.createExperiment(ws->id, QStringLiteral("exp"));
        Cluster c;
        c.workspaceId = ws->id;
        c.name = QStringLiteral("pair");
        c.kind = ClusterKind::Ssh;
        c.targetNodeCount = 2;
        c.sshKeyFile = m_key;
        QList<Node> nodes;
        for (SshServer *server : {&m_a, &m_b}) {
            Node n;
            n.name = QStringLiteral("node-%1").arg(server->port());
            n.host = server->address();
            n.port = server->port();
            n.user = SshServer::loginUser();
            nodes << n;
        }
        const auto cluster = store.createCluster(c, nodes);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = QStringLiteral("running");
        job.spec = "{}";
        job.uuid = QStringLiteral("u");
        job.state = JobState::Running;
        auto created = store.createJob(job);
        QVERIFY2(created, qPrintable(created.error()));
        created->nodes = {nodes.at(0).name, nodes.at(1).name};
        QVERIFY(store.updateJob(*created));

        NodeSampling sampling(store, 1);
        QElapsedTimer clock;
        clock.start();
        // Two rounds: both nodes, twice.
        while (store.systemSamples(created->id).size() < 4 && clock.elapsed() < 30000) {
            sampling.tick({*created});
            QTest::qWait(100);
        }
        const auto rows = store.systemSamples(created->id);
        QVERIFY2(rows.size() >= 4, qPrintable(QStringLiteral("%1 samples in 30 s").arg(rows.size())));
        QSet<QString> seen;
        for (const auto &[id, json] : rows) {
            const auto s = SystemSample::fromJson(json);
            QVERIFY(s);
            seen.insert(s->node);
            QCOMPARE(s->memTotalBytes, memTotalHere());
        }
        QCOMPARE(seen, QSet<QString>({nodes.at(0).name, nodes.at(1).name}));

        // An ended job is not sampled any more. Samples started while it ran are stored
        // when they finish (a loaded machine can take seconds): wait for those first.
        sampling.tick({});
        clock.restart();
        while (sampling.samplesUnderWay() > 0 && clock.elapsed() < 30000) {
            QTest::qWait(100);
            sampling.tick({});
        }
        QCOMPARE(sampling.samplesUnderWay(), 0);
        const qsizetype after = store.systemSamples(created->id).size();
        QTest::qWait(1500);
        sampling.tick({});
        QCOMPARE(store.systemSamples(created->id).size(), after);
    }

private:
    IntegrationHome m_home;
    QString m_key;
    SshServer m_a;
    SshServer m_b;
};

QTEST_GUILESS_MAIN(TestSystemSampling)
#include "tst_systemsampling.moc"

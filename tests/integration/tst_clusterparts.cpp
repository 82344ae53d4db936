// The parts of SSH clusters that need no server: node addresses, sealed secrets, the
// known_hosts file (OpenSSH's hashed entries too), the Store's cluster sizing and the
// schema migration from version 1.
#include "IntegrationTest.h"

#include "cluster/ClusterCredentials.h"
#include "cluster/NodeAddress.h"
#include "cluster/SecretBox.h"
#include "store/Store.h"
#include "transport/KnownHosts.h"

#include <QCryptographicHash>
#include <QMessageAuthenticationCode>
#include <QSqlDatabase>
#include <QSqlQuery>

using namespace TrainDesk;

class TestClusterParts : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;

private slots:
    void nodeAddresses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("plain") << "alice@gpu1" << "gpu1" << "alice" << "gpu1" << 22;
        QTest::newRow("port") << "alice@10.0.0.5:2222" << "10.0.0.5" << "alice" << "10.0.0.5" << 2222;
        QTest::newRow("named") << "head=bob@node.example.org:22" << "head" << "bob" << "node.example.org" << 22;
        QTest::newRow("ipv6") << "carol@[fe80::1]:2200" << "fe80--1" << "carol" << "fe80::1" << 2200;
        QTest::newRow("spaces") << "  dave@gpu2  " << "gpu2" << "dave" << "gpu2" << 22;
    }
    void nodeAddresses()
    {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(QString, user);
        QFETCH(QString, host);
        QFETCH(int, port);
        const auto a = parseNodeAddresses({text});
        QVERIFY2(a, qPrintable(a.error()));
        QCOMPARE(a->first().name, name);
        QCOMPARE(a->first().user, user);
        QCOMPARE(a->first().host, host);
        QCOMPARE(a->first().port, port);
    }

    void badNodeAddresses()
    {
        for (const QString &bad : {QStringLiteral("alice@"), QStringLiteral("alice@host:0"), QStringLiteral("alice@host:99999"),
                                   QStringLiteral("alice@host:x"), QStringLiteral("al ice@host"), QStringLiteral("alice@[::1"),
                                   QStringLiteral("alice@host;rm -rf /"), QStringLiteral("bad name=alice@host")}) {
            const auto a = parseNodeAddress(bad);
            QVERIFY2(!a, qPrintable(bad));
            QVERIFY2(a.error().contains(bad.trimmed()), qPrintable(a.error()));
        }
        QVERIFY(!parseNodeAddresses({QStringLiteral("a@h:22"), QStringLiteral("b@h:22")}));  // the same endpoint twice
        // The same host on two ports: names tell them apart.
        const auto two = parseNodeAddresses({QStringLiteral("a@h:2201"), QStringLiteral("a@h:2202")});
        QVERIFY(two);
        QCOMPARE(two->at(0).name, QStringLiteral("h-2201"));
        QCOMPARE(two->at(1).name, QStringLiteral("h-2202"));
    }

    void secretsAreSealed()
    {
        const auto sealed = SecretBox::seal(QStringLiteral("hunter2 ünïcode"));
        QVERIFY(sealed);
        QVERIFY(sealed->startsWith(QLatin1String("v1:")));
        QVERIFY(!sealed->contains(QLatin1String("hunter2")));
        QVERIFY(*SecretBox::seal(QStringLiteral("hunter2 ünïcode")) != *sealed);  // a fresh nonce each time
        QCOMPARE(*SecretBox::open(*sealed), QStringLiteral("hunter2 ünïcode"));
        QCOMPARE(QFile(SecretBox::keyPath()).permissions() & 0x0777, QFileDevice::ReadUser | QFileDevice::WriteUser);
        // Tampering is detected.
        QString tampered = *sealed;
        tampered[10] = tampered[10] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        QVERIFY(!SecretBox::open(tampered));
        // A cluster's credentials go through it.
        Cluster c;
        c.sshSecret = *ClusterCredentials::seal({QStringLiteral("pw"), QStringLiteral("phrase")});
        QCOMPARE(ClusterCredentials::open(c)->password, QStringLiteral("pw"));
        QCOMPARE(ClusterCredentials::open(c)->keyPassphrase, QStringLiteral("phrase"));
    }

    void knownHostsFile()
    {
        const QString path = m_home.filePath(QStringLiteral("known_hosts"));
        const HostKey key{QStringLiteral("ssh-ed25519"), QByteArray("key-one-blob")};
        const HostKey other{QStringLiteral("ssh-ed25519"), QByteArray("key-two-blob")};
        // OpenSSH's hashed form: |1|salt|HMAC-SHA1(salt, "[host]:port").
        const QByteArray salt("0123456789abcdefghij");
        const QByteArray hash = QMessageAuthenticationCode::hash("[10.1.1.1]:2222", salt, QCryptographicHash::Sha1);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# comment\n\n@cert-authority * ssh-rsa AAAA\n");
        f.write("|1|" + salt.toBase64() + '|' + hash.toBase64() + " ssh-ed25519 " + key.blob.toBase64() + '\n');
        f.write("gpu1,gpu1.example.org ssh-ed25519 " + key.blob.toBase64() + " comment\n");
        f.close();
        KnownHosts hosts(path);
        QCOMPARE(int(hosts.check(QStringLiteral("10.1.1.1"), 2222, key).match), int(KnownHosts::Match::Known));
        QCOMPARE(int(hosts.check(QStringLiteral("gpu1.example.org"), 22, key).match), int(KnownHosts::Match::Known));
        QCOMPARE(int(hosts.check(QStringLiteral("gpu2"), 22, key).match), int(KnownHosts::Match::Unknown));
        const auto changed = hosts.check(QStringLiteral("gpu1"), 22, other);
        QCOMPARE(int(changed.match), int(KnownHosts::Match::Changed));
        QCOMPARE(changed.storedFingerprint, key.fingerprint());
        // Another key type on record counts as changed too.
        QCOMPARE(int(hosts.check(QStringLiteral("gpu1"), 22, {QStringLiteral("ssh-rsa"), "rsa"}).match),
                 int(KnownHosts::Match::Changed));
        // Markers: a @revoked key is refused even though a line trusts it; @cert-authority
        // lines are skipped with a note (the one above matches every host).
        QCOMPARE(hosts.check(QStringLiteral("gpu2"), 22, key).note.contains(QStringLiteral("@cert-authority")), true);
        QFile more(path);
        QVERIFY(more.open(QIODevice::Append));
        more.write("@revoked gpu1.example.org ssh-ed25519 " + key.blob.toBase64() + '\n');
        more.write("@revoked *.revoked.example.org ssh-ed25519 " + other.blob.toBase64() + '\n');
        more.close();
        QCOMPARE(int(hosts.check(QStringLiteral("gpu1.example.org"), 22, key).match), int(KnownHosts::Match::Revoked));
        QCOMPARE(int(hosts.check(QStringLiteral("a.revoked.example.org"), 22, other).match), int(KnownHosts::Match::Revoked));
        QCOMPARE(int(hosts.check(QStringLiteral("10.1.1.1"), 2222, key).match), int(KnownHosts::Match::Known));
        QVERIFY(hosts.add(QStringLiteral("gpu2"), 2200, other));
        QCOMPARE(int(hosts.check(QStringLiteral("gpu2"), 2200, other).match), int(KnownHosts::Match::Known));
        QCOMPARE(hosts.keys(QStringLiteral("gpu2"), 2200).size(), 1);
        // As OpenSSH prints fingerprints: SHA256, base64 without padding.
        QCOMPARE(key.fingerprint(), QStringLiteral("SHA256:")
                                        + QString::fromLatin1(QCryptographicHash::hash(key.blob, QCryptographicHash::Sha256)
                                                                  .toBase64(QByteArray::OmitTrailingEquals)));
    }

    void storeParksNodesAndRefusesBusyDeletes()
    {
        Store store;
        QVERIFY(store.open(m_home.filePath(QStringLiteral("store.db"))));
        const auto ws = store.createWorkspace(QStringLiteral("ws"));
        const auto exp = store.createExperiment(ws->id, QStringLiteral("exp"));
        Cluster c;
        c.workspaceId = ws->id;
        c.name = QStringLiteral("c");
        c.kind = ClusterKind::Ssh;
        c.targetNodeCount = 2;
        c.sshKeyFile = QStringLiteral("/keys/id");
        c.sshSecret = QStringLiteral("v1:sealed");
        Node a, b;
        a.name = QStringLiteral("a");
        b.name = QStringLiteral("b");
        const auto created = store.createCluster(c, {a, b});
        QVERIFY(created);
        QCOMPARE(created->sshKeyFile, c.sshKeyFile);
        QCOMPARE(created->sshSecret, c.sshSecret);
        const Node nodeB = store.nodes(created->id).at(1);
        QVERIFY(store.setNodeParked(nodeB.id, true, NodeState::Idle));
        QCOMPARE(store.nodes(created->id).size(), 1);
        QCOMPARE(store.allNodes(created->id).size(), 2);
        QVERIFY(store.setNodeFacts(nodeB.id, 8, QStringLiteral("{\"cores\":8}")));
        QCOMPARE(store.allNodes(created->id).at(1).slotCount, 8);
        QVERIFY(store.setClusterTarget(created->id, 1));
        QCOMPARE(store.clusterById(created->id)->targetNodeCount, 1);
        Job job;
        job.experimentId = exp->id;
        job.clusterId = created->id;
        job.name = QStringLiteral("j");
        job.spec = "{}";
        job.state = JobState::Running;
        auto stored = store.createJob(job);
        QVERIFY(stored);
        const auto refused = store.deleteCluster(created->id);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("running")), qPrintable(refused.error()));
        stored->state = JobState::Succeeded;
        QVERIFY(store.updateJob(*stored));
        QVERIFY(store.deleteCluster(created->id));
        QVERIFY(!store.clusterById(created->id));
        QVERIFY(store.allNodes(created->id).isEmpty());
        QVERIFY(!store.jobById(stored->id));  // finished jobs go with their cluster
    }

    void migratesAVersionOneDatabase()
    {
        const QString path = m_home.filePath(QStringLiteral("v1.db"));
        {
            // A database as TrainDesk 0.1 left it (schema version 1), with a cluster.
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            for (const char *sql : {
                     "CREATE TABLE workspaces (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created TEXT NOT NULL)",
                     // Every table of version 1: the store refuses a database that lacks one.
                     "CREATE TABLE experiments (id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL, name TEXT NOT NULL, "
                     "created TEXT NOT NULL, UNIQUE(workspace_id, name))",
                     "CREATE TABLE job_metrics (id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, record TEXT NOT NULL)",
                     "CREATE TABLE clusters (id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL, name TEXT NOT NULL, "
                     "kind TEXT NOT NULL, target_node_count INTEGER NOT NULL, mount_root TEXT NOT NULL, "
                     "setup_task TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, UNIQUE(workspace_id, name))",
                     "CREATE TABLE nodes (id INTEGER PRIMARY KEY, cluster_id INTEGER NOT NULL, idx INTEGER NOT NULL, "
                     "name TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL, user TEXT NOT NULL, slots INTEGER "
                     "NOT NULL, state TEXT NOT NULL, state_reason TEXT NOT NULL DEFAULT '', last_seen TEXT, "
                     "UNIQUE(cluster_id, name))",
                     "CREATE TABLE jobs (id INTEGER PRIMARY KEY, experiment_id INTEGER NOT NULL, cluster_id INTEGER NOT NULL, "
                     "name TEXT NOT NULL, spec BLOB NOT NULL, state TEXT NOT NULL, priority INTEGER NOT NULL, "
                     "created TEXT NOT NULL, started TEXT, ended TEXT, exit_code INTEGER, errors TEXT NOT NULL DEFAULT '[]', "
                     "nodes TEXT NOT NULL DEFAULT '[]', uuid TEXT NOT NULL, job_dir TEXT NOT NULL DEFAULT '', "
                     "pid INTEGER NOT NULL DEFAULT 0, UNIQUE(experiment_id, name))",
                     "CREATE TABLE shares (id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL, name TEXT NOT NULL, "
                     "kind TEXT NOT NULL, path TEXT NOT NULL, created TEXT NOT NULL, UNIQUE(workspace_id, name))",
                     "CREATE TABLE job_file_offsets (job_id INTEGER NOT NULL, file TEXT NOT NULL, offset INTEGER NOT NULL, "
                     "PRIMARY KEY(job_id, file))",
                     "INSERT INTO workspaces VALUES(1, 'ws', '2024-01-01T00:00:00Z')",
                     "INSERT INTO shares VALUES(1, 1, 'myshare', 'local', '/data/myshare', '2024-01-01T00:00:00Z')",
                     "INSERT INTO clusters VALUES(1, 1, 'old', 'ssh', 1, '/mnt', '', '2024-01-01T00:00:00Z')",
                     "INSERT INTO nodes VALUES(1, 1, 0, 'n', 'h', 22, 'u', 4, 'idle', '', NULL)",
                     "PRAGMA user_version=1"})
                QVERIFY2(q.exec(QString::fromLatin1(sql)), sql);
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));
        Store store;
        const auto opened = store.open(path);
        QVERIFY2(opened, qPrintable(opened.error()));
        // The latest version, as a new database has it (no number: migrations are appended).
        Store fresh;
        QVERIFY(fresh.open(path + QStringLiteral(".fresh")));
        QCOMPARE(store.schemaVersion(), fresh.schemaVersion());
        const auto share = store.share(1, QStringLiteral("myshare"));
        QVERIFY(share);
        QCOMPARE(share->clusterId, qint64(0));  // shares made before version 4 are local
        const auto cluster = store.cluster(1, QStringLiteral("old"));
        QVERIFY(cluster);
        QVERIFY(cluster->sshKeyFile.isEmpty());
        QCOMPARE(store.nodes(cluster->id).size(), 1);
        QVERIFY(!store.nodes(cluster->id).first().parked);
    }
};

QTEST_GUILESS_MAIN(TestClusterParts)
#include "tst_clusterparts.moc"

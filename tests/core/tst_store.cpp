#include "defaults/EmbeddedDefaults.h"
#include "store/DatabaseCheck.h"
#include "metrics/MetricRows.h"
#include "session/RunSummaryReader.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QStandardPaths>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

class TestStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Cluster localCluster(qint64 workspaceId, const QString &name)
    {
        Cluster c;
        c.workspaceId = workspaceId;
        c.name = name;
        c.targetNodeCount = 1;
        c.mountRoot = m_dir.filePath("mnt");
        return c;
    }
    Node node(const QString &name)
    {
        Node n;
        n.name = name;
        n.host = name;
        n.slotCount = 2;
        return n;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void migratesFreshDatabase()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("fresh.db")).ok());
        // 2: SSH cluster credentials, parked nodes, probe facts; 3: rank nodes; 4: share clusters;
        // 5: Slurm; 6: reader state; 7: node lost grace; 8: system samples; 9: pending sweeps;
        // then hyperparameter sweeps, run notes, retries/hangs/burn-in and what else is appended
        // (no number asserted).
        const int latest = store.schemaVersion();
        QVERIFY(latest > 10);
        // Opening again keeps the data and the version.
        QVERIFY(store.createWorkspace("ws").ok());
        Store again;
        QVERIFY(again.open(m_dir.filePath("fresh.db")).ok());
        QCOMPARE(again.schemaVersion(), latest);
        QVERIFY(again.workspace("ws").ok());
    }

    void migratesAVersionTwoDatabase()
    {
        const QString path = m_dir.filePath("v2.db");
        qint64 jobId = 0;
        {
            // A version 2 database with a job: today's schema less the rank_nodes and cluster_id columns.
            Store store;
            QVERIFY(store.open(path).ok());
            const auto ws = store.createWorkspace("ws");
            const auto exp = store.createExperiment(ws->id, "exp");
            const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
            Job job;
            job.experimentId = exp->id;
            job.clusterId = cluster->id;
            job.name = "old";
            job.spec = "{}";
            job.uuid = "u";
            auto created = store.createJob(job);
            QVERIFY(created.ok());
            created->nodes = {"n0"};
            QVERIFY(store.updateJob(*created).ok());
            jobId = created->id;
        }
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "v2");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY2(q.exec("ALTER TABLE jobs DROP COLUMN rank_nodes"), qPrintable(q.lastError().text()));
            QVERIFY2(q.exec("ALTER TABLE shares DROP COLUMN cluster_id"), qPrintable(q.lastError().text()));
            for (const char *drop : {"ALTER TABLE clusters DROP COLUMN scheduler", "ALTER TABLE jobs DROP COLUMN scheduler_id",
                                     "ALTER TABLE jobs DROP COLUMN scheduler_state", "ALTER TABLE job_file_offsets DROP COLUMN reader_state",
                                     "ALTER TABLE clusters DROP COLUMN node_lost_grace", "DROP TABLE job_system_samples",
                                     "DROP TABLE pending_sweeps", "DROP TABLE sweep_trials", "DROP TABLE sweeps",
                                     "DROP TABLE run_notes", "DROP TABLE job_attempts", "DROP TABLE job_silence",
                                     "DROP TABLE cluster_burn_in", "ALTER TABLE nodes DROP COLUMN gpus",
                                     "ALTER TABLE jobs DROP COLUMN placement", "DROP TABLE imported_files",
                                     "DROP TABLE imported_runs", "DROP TABLE run_summaries"})
                QVERIFY2(q.exec(drop), qPrintable(q.lastError().text()));
            QVERIFY(q.exec("PRAGMA user_version=2"));
            db.close();
        }
        QSqlDatabase::removeDatabase("v2");
        Store store;
        const auto opened = store.open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error()));
        Store fresh;
        QVERIFY(fresh.open(m_dir.filePath("fresh-for-v2.db")).ok());
        QCOMPARE(store.schemaVersion(), fresh.schemaVersion());
        auto job = store.jobById(jobId);
        QVERIFY(job.ok());
        QCOMPARE(job->nodes, QStringList{"n0"});
        QVERIFY(job->rankNodes.isEmpty());  // ran before ranks were recorded
        job->rankNodes = {"n0"};
        QVERIFY(store.updateJob(*job).ok());
        QCOMPARE(store.jobById(jobId)->rankNodes, QStringList{"n0"});
    }

    void refusesNewerSchema()
    {
        const QString path = m_dir.filePath("newer.db");
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "newer");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery(db).exec("PRAGMA user_version=99");
            db.close();
        }
        QSqlDatabase::removeDatabase("newer");
        Store store;
        const auto opened = store.open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains("newer"), qPrintable(opened.error()));
    }

    // Issue #28: a database with a flipped byte said "cannot create workspace 'default':
    // Parameter count mismatch". Checked on open: named with its path and the way back.
    void aDamagedDatabaseIsNamed()
    {
        const QString path = m_dir.filePath("damaged.db");
        {
            Store store;
            QVERIFY(store.open(path).ok());
            QVERIFY(store.createWorkspace("ws").ok());
        }
        QVERIFY(DatabaseCheck::problemsOfFile(path, Store::tableNames()).isEmpty());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek(4096));  // the first byte of page 2 (the workspaces table): its page type
        QVERIFY(file.write("\x42", 1) == 1);
        file.close();
        Store store;
        const auto opened = store.open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().startsWith(QStringLiteral("the database %1 is damaged (").arg(path)), qPrintable(opened.error()));
        QVERIFY2(opened.error().contains("no last good copy"), qPrintable(opened.error()));
        QVERIFY2(!opened.error().contains("Parameter count"), qPrintable(opened.error()));
        QVERIFY(!DatabaseCheck::problemsOfFile(path, Store::tableNames()).isEmpty());
    }

    // A file found whole is not read whole again by the next Store of the process while it
    // is unchanged (the GUI opens one per worker: 12 s each for a 3.4 GB store); a change
    // (a write, a flipped byte) makes the next open check it again.
    void aWholeFileIsCheckedOncePerProcess()
    {
        const QString path = m_dir.filePath("checked-once.db");
        {
            Store store;
            QVERIFY(store.open(path).ok());  // made and migrated: changed since its check
        }
        auto stamp = DatabaseCheck::stampOf(path);
        QVERIFY(stamp);
        QVERIFY(!DatabaseCheck::foundWhole(path, *stamp));
        {
            Store store;
            QVERIFY(store.open(path).ok());
        }
        stamp = DatabaseCheck::stampOf(path);
        QVERIFY(DatabaseCheck::foundWhole(path, *stamp));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek(4096));
        QVERIFY(file.write("\x42", 1) == 1);
        file.close();
        QVERIFY(!DatabaseCheck::foundWhole(path, *DatabaseCheck::stampOf(path)));
        Store store;
        const auto opened = store.open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().startsWith(QStringLiteral("the database %1 is damaged (").arg(path)), qPrintable(opened.error()));
    }

    // A large store (played here by a small file with the limit at 0) is not read whole at
    // open: its time series are checked by the agent's whole check (Store::backup), whose
    // damage every later open names, and the Store that found it writes no more. Damage in
    // its other tables is still found at open.
    void aLargeStoresTimeSeriesAreCheckedByTheWholeCheck()
    {
        const QString path = m_dir.filePath("large.db");
        qint64 jobId = 0;
        {
            Store store;
            QVERIFY(store.open(path).ok());
            const auto ws = store.createWorkspace("ws");
            const auto exp = store.createExperiment(ws->id, "exp");
            const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
            Job job;
            job.experimentId = exp->id;
            job.clusterId = cluster->id;
            job.name = "j";
            job.spec = "{}";
            job.uuid = "u";
            jobId = store.createJob(job)->id;
            QList<QByteArray> rows;
            for (int i = 0; i < 2000; ++i)
                rows << QByteArray("{\"kind\":\"train\",\"step\":") + QByteArray::number(i) + ",\"loss\":0.5}";
            QVERIFY(store.appendJobOutput(jobId, "metrics.jsonl", 0, 100000, rows).ok());
        }  // (the last connection closed: the log is in the file)
        // The first byte of a leaf page of job_metrics (its last page): its page type.
        qint64 pageSize = 0, leafPage = 0;
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "large");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec("PRAGMA page_size") && q.next());
            pageSize = q.value(0).toLongLong();
            QVERIFY2(q.exec("SELECT max(pageno) FROM dbstat WHERE name = 'job_metrics' AND pagetype = 'leaf'") && q.next(),
                     qPrintable(q.lastError().text()));
            leafPage = q.value(0).toLongLong();
            db.close();
        }
        QSqlDatabase::removeDatabase("large");
        QVERIFY(leafPage > 1);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek((leafPage - 1) * pageSize));
        QVERIFY(file.write("\x42", 1) == 1);
        file.close();
        QVERIFY(!DatabaseCheck::problemsOfFile(path, Store::tableNames()).isEmpty());
        DatabaseCheck::setWholeCheckAtOpenBytes(0);
        const auto restoreLimit = qScopeGuard([] { DatabaseCheck::setWholeCheckAtOpenBytes(32 * 1024 * 1024); });
        {
            Store store;
            const auto opened = store.open(path);
            QVERIFY2(opened.ok(), qPrintable(opened.error()));  // the time series are not read at open
            const auto checked = store.backup();
            QVERIFY(!checked);
            QVERIFY2(checked.error().startsWith(QStringLiteral("the database %1 is damaged (").arg(path)),
                     qPrintable(checked.error()));
            QVERIFY(!QFileInfo::exists(DatabaseCheck::backupPath(path)));
            QVERIFY(!store.createWorkspace("after"));  // writes no more
        }
        {
            Store store;
            const auto opened = store.open(path);
            QVERIFY(!opened);
            QVERIFY2(opened.error().startsWith(QStringLiteral("the database %1 is damaged (").arg(path)),
                     qPrintable(opened.error()));
        }
        // A fresh file put in its place is not concerned by the note.
        QVERIFY(QFile::rename(path, path + ".aside"));
        {
            Store store;
            QVERIFY(store.open(path).ok());
        }
        // The other tables are still checked at open: a damaged workspaces page is named.
        QFile fresh(path);
        QVERIFY(fresh.open(QIODevice::ReadWrite));
        QVERIFY(fresh.seek(4096));
        QVERIFY(fresh.write("\x42", 1) == 1);
        fresh.close();
        {
            Store store;
            const auto opened = store.open(path);
            QVERIFY(!opened);
            QVERIFY2(opened.error().startsWith(QStringLiteral("the database %1 is damaged (").arg(path)),
                     qPrintable(opened.error()));
        }
    }

    // A dropped table gave an empty `job list`; now the open says which table is missing.
    void aDroppedTableIsNamed()
    {
        const QString path = m_dir.filePath("dropped.db");
        {
            Store store;
            QVERIFY(store.open(path).ok());
        }
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "dropped");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec("DROP TABLE jobs"));
            db.close();
        }
        QSqlDatabase::removeDatabase("dropped");
        Store store;
        const auto opened = store.open(path);
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains(QStringLiteral("the database %1 is damaged (table jobs missing)").arg(path)),
                 qPrintable(opened.error()));
    }

    // The last good copy: made from a whole database, refused from a damaged one, restored
    // in place of a damaged one with the damaged file kept.
    void lastGoodCopyIsRestored()
    {
        const QString path = m_dir.filePath("kept.db");
        {
            Store store;
            QVERIFY(store.open(path).ok());
            QVERIFY(store.createWorkspace("before").ok());
            const auto made = store.backup();
            QVERIFY2(made.ok(), qPrintable(made.error()));
            QVERIFY(store.createWorkspace("after").ok());
        }
        const QString backup = DatabaseCheck::backupPath(path);
        QVERIFY(QFileInfo(backup).isFile());
        QVERIFY(DatabaseCheck::backupTime(path).isValid());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek(4096));
        QVERIFY(file.write("\x42", 1) == 1);
        file.close();
        {
            Store store;
            const auto opened = store.open(path);
            QVERIFY(!opened);
            QVERIFY2(opened.error().contains("traindesk doctor --restore") && opened.error().contains(backup),
                     qPrintable(opened.error()));
        }
        const auto kept = DatabaseCheck::restoreBackup(path, Store::tableNames());
        QVERIFY2(kept.ok(), qPrintable(kept.error()));
        QVERIFY(QFileInfo(*kept).isFile());
        Store store;
        QVERIFY(store.open(path).ok());
        QVERIFY(store.workspace("before").ok());
        QVERIFY(!store.workspace("after").ok());  // made after the copy
    }

    // Issue #28: two creates of one name at once leaked "UNIQUE constraint failed ...
    // Unable to fetch row". The other process's insert is played by a trigger, between the
    // check and the insert.
    void aLostRaceIsAlreadyExists()
    {
        const QString path = m_dir.filePath("race.db");
        Store store;
        QVERIFY(store.open(path).ok());
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "race");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY2(q.exec("CREATE TRIGGER other_process BEFORE INSERT ON workspaces WHEN NEW.name = 'race' "
                            "AND NOT EXISTS (SELECT 1 FROM workspaces WHERE name = 'race') BEGIN "
                            "INSERT INTO workspaces(name, created) VALUES('race', '2026-01-01T00:00:00Z'); END"),
                     qPrintable(q.lastError().text()));
            db.close();
        }
        QSqlDatabase::removeDatabase("race");
        const auto created = store.createWorkspace("race");
        QVERIFY(!created);
        QCOMPARE(created.error(), QStringLiteral("workspace 'race' already exists"));
    }

    // The control-plane rule (issue: `job show` waited 20 s behind the agent while a node was
    // unreachable): a client that only reads opens the store and reads it while another
    // process holds the write lock, without waiting for it. The writer holds its transaction
    // for the whole of the reader's work, so a reader that needed the lock would fail (after
    // the busy timeout) rather than pass by luck of timing.
    void aReaderDoesNotWaitForAnOpenWriteTransaction()
    {
        const QString path = m_dir.filePath("held.db");
        {
            Store setup;
            QVERIFY(setup.open(path).ok());
            QVERIFY(EmbeddedDefaults::ensure(setup).ok());  // the CLI's first run made these
            QVERIFY(setup.createWorkspace("ws").ok());
        }
        // (Removed after the connection below is gone, whichever way the case ends.)
        const auto removeWriter = qScopeGuard([] { QSqlDatabase::removeDatabase("agent-writer"); });
        auto writer = QSqlDatabase::addDatabase("QSQLITE", "agent-writer");
        writer.setDatabaseName(path);
        writer.setConnectOptions("QSQLITE_BUSY_TIMEOUT=0");
        QVERIFY(writer.open());
        {
            QSqlQuery q(writer);
            QVERIFY2(q.exec("BEGIN IMMEDIATE"), qPrintable(q.lastError().text()));
            QVERIFY2(q.exec("INSERT INTO workspaces(name, created) VALUES('pending', '2026-01-01T00:00:00Z')"),
                     qPrintable(q.lastError().text()));
        }
        {
            // What `traindesk job show` does: open (migration check included), then read.
            Store reader;
            const auto opened = reader.open(path);
            QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error()));
            const auto defaults = EmbeddedDefaults::ensure(reader);  // every CLI command's next step
            QVERIFY2(defaults.ok(), qPrintable(defaults.ok() ? QString() : defaults.error()));
            const auto ws = reader.workspace("ws");
            QVERIFY(ws.ok());
            QVERIFY(reader.experiments(ws->id).isEmpty());
            QVERIFY(!reader.workspace("pending"));  // the writer's rows are not committed yet
            // The writer held its lock all along: another writer is still refused at once.
            auto probe = QSqlDatabase::addDatabase("QSQLITE", "probe-writer");
            probe.setDatabaseName(path);
            probe.setConnectOptions("QSQLITE_BUSY_TIMEOUT=0");
            QVERIFY(probe.open());
            QVERIFY(!QSqlQuery(probe).exec("BEGIN IMMEDIATE"));
            probe.close();
            probe = QSqlDatabase();
            QSqlDatabase::removeDatabase("probe-writer");
        }
        QVERIFY(QSqlQuery(writer).exec("COMMIT"));
        writer.close();
        writer = QSqlDatabase();
    }

    // The agent empties a large log at its tick (Store::truncateLogOver). A reader's open
    // snapshot (the GUI reading a chart, a CLI listing) must not make it wait: TRUNCATE's
    // busy wait holds off every writer until the reader ends.
    void aLogCheckpointDoesNotWaitForAReader()
    {
        const QString path = m_dir.filePath("checkpoint.db");
        Store store;
        QVERIFY(store.open(path).ok());
        QVERIFY(EmbeddedDefaults::ensure(store).ok());
        const auto removeReader = qScopeGuard([] { QSqlDatabase::removeDatabase("chart-reader"); });
        auto reader = QSqlDatabase::addDatabase("QSQLITE", "chart-reader");
        reader.setDatabaseName(path);
        QVERIFY(reader.open());
        QSqlQuery read(reader);
        QVERIFY(read.exec("BEGIN"));
        QVERIFY(read.exec("SELECT COUNT(*) FROM workspaces") && read.next());  // its snapshot
        QVERIFY(store.createWorkspace("after-the-snapshot").ok());
        const qint64 logBefore = QFileInfo(path + "-wal").size();
        QVERIFY(logBefore > 0);
        // The store's own connection waits up to 2 minutes for a lock (10 s in TrainDesk).
        for (const QString &name : QSqlDatabase::connectionNames()) {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            if (name != "chart-reader" && db.databaseName() == path)
                QVERIFY(QSqlQuery(db).exec("PRAGMA busy_timeout=120000"));
        }
        QElapsedTimer took;
        took.start();
        store.truncateLogOver(0);
        QVERIFY2(took.elapsed() < 60000, qPrintable(QStringLiteral("waited %1 ms for the reader").arg(took.elapsed())));
        // The reader kept its snapshot; the next call, after it, empties the log.
        QVERIFY(read.exec("SELECT COUNT(*) FROM workspaces WHERE name = 'after-the-snapshot'") && read.next());
        QCOMPARE(read.value(0).toInt(), 0);
        QVERIFY(read.exec("COMMIT"));
        store.truncateLogOver(0);
        QCOMPARE(QFileInfo(path + "-wal").size(), 0);
        read = QSqlQuery();
        reader.close();
        reader = QSqlDatabase();
    }

    void metricsAreReadOneAtATime()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("stream.db")).ok());
        const auto ws = store.createWorkspace("ws");
        const auto exp = store.createExperiment(ws->id, "exp");
        const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = "j";
        job.spec = "{}";
        job.uuid = "u";
        const auto created = store.createJob(job);
        QVERIFY(store.appendJobOutput(created->id, "metrics.jsonl", 0, 30, {"{\"a\":1}", "{\"a\":2}", "{\"a\":3}"}).ok());
        QList<QByteArray> seen;
        QVERIFY(store.forEachJobMetric(created->id, [&](qint64, const QByteArray &r) {
            seen << r;
            return true;
        }).ok());
        QCOMPARE(seen, (QList<QByteArray>{"{\"a\":1}", "{\"a\":2}", "{\"a\":3}"}));
        seen.clear();
        QVERIFY(store.forEachJobMetric(created->id, [&](qint64, const QByteArray &r) {
            seen << r;
            return seen.size() < 2;
        }).ok());
        QCOMPARE(seen.size(), 2);
    }

    void validatesNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("simple") << "my-ws_1" << true;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("space") << "my ws" << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("64 chars") << QString(64, 'a') << true;
        QTest::newRow("65 chars") << QString(65, 'a') << false;
        QTest::newRow("quote") << "a'b" << false;
    }

    void validatesNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        Store store;
        QVERIFY(store.open(m_dir.filePath("names.db")).ok());
        const auto ws = store.createWorkspace(name);
        QCOMPARE(ws.ok(), valid);
        if (!valid)
            QVERIFY2(ws.error().contains("workspace name"), qPrintable(ws.error()));
    }

    void workspacesExperimentsClustersShares()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("crud.db")).ok());
        const auto ws = store.createWorkspace("ws");
        QVERIFY(ws.ok());
        QVERIFY(!store.createWorkspace("ws"));  // duplicate
        QVERIFY(store.createExperiment(ws->id, "exp").ok());
        QVERIFY(!store.createExperiment(ws->id, "exp"));
        QCOMPARE(store.experiments(ws->id).size(), 1);

        const auto cluster = store.createCluster(localCluster(ws->id, "c1"), {node("n0"), node("n1")});
        QVERIFY2(cluster.ok(), qPrintable(cluster.error()));
        const QList<Node> nodes = store.nodes(cluster->id);
        QCOMPARE(nodes.size(), 2);
        QCOMPARE(nodes.at(0).index, 0);
        QCOMPARE(nodes.at(1).name, QStringLiteral("n1"));
        QVERIFY(store.setNodeState(nodes.at(1).id, NodeState::Unusable, "ssh refused").ok());
        QCOMPARE(store.nodes(cluster->id).at(1).stateReason, QStringLiteral("ssh refused"));
        // A cluster without nodes is refused and leaves nothing behind.
        QVERIFY(!store.createCluster(localCluster(ws->id, "empty"), {}));
        QVERIFY(!store.cluster(ws->id, "empty"));
        // Duplicate node names roll the whole cluster back.
        QVERIFY(!store.createCluster(localCluster(ws->id, "dup"), {node("a"), node("a")}));
        QVERIFY(!store.cluster(ws->id, "dup"));

        Share share;
        share.workspaceId = ws->id;
        share.name = "myshare";
        share.path = m_dir.filePath("share");
        QVERIFY(store.createShare(share).ok());
        QCOMPARE(store.shares(ws->id).size(), 1);
        QCOMPARE(toString(store.shares(ws->id).first().kind), toString(ShareKind::Local));
        QCOMPARE(store.shares(ws->id).first().clusterId, qint64(0));
        // A cluster share keeps its cluster; deleting a share removes the record alone.
        Share onCluster;
        onCluster.workspaceId = ws->id;
        onCluster.name = "nfs";
        onCluster.kind = ShareKind::ClusterPath;
        onCluster.path = "/srv/nfs/share";
        onCluster.clusterId = 42;
        const auto stored = store.createShare(onCluster);
        QVERIFY(stored.ok());
        QCOMPARE(toString(stored->kind), toString(ShareKind::ClusterPath));
        QCOMPARE(stored->path, QString("/srv/nfs/share"));
        QCOMPARE(stored->clusterId, qint64(42));
        QVERIFY(store.deleteShare(stored->id).ok());
        QVERIFY(!store.share(ws->id, "nfs").ok());
        QVERIFY(!store.deleteShare(stored->id).ok());
    }

    void pendingCleanupsOutliveTheConnection()
    {
        const QString path = m_dir.filePath("cleanups.db");
        {
            Store store;
            QVERIFY(store.open(path).ok());
            QVERIFY(store.addPendingCleanup({3, "node2", "u1"}).ok());
            QVERIFY(store.addPendingCleanup({3, "node2", "u1"}).ok());  // the same clean-up once
            QVERIFY(store.addPendingCleanup({3, "node1", "u2"}).ok());
        }
        Store again;  // a new agent's connection
        QVERIFY(again.open(path).ok());
        QList<PendingCleanup> pending = again.pendingCleanups();
        QCOMPARE(pending.size(), 2);
        QCOMPARE(pending.first().clusterId, qint64(3));
        QCOMPARE(pending.first().node, QStringLiteral("node2"));
        QCOMPARE(pending.first().jobUuid, QStringLiteral("u1"));
        QVERIFY(again.removePendingCleanup(pending.first()).ok());
        pending = again.pendingCleanups();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.first().jobUuid, QStringLiteral("u2"));
    }

    // The runs table's summaries are kept in the store with the last row they counted: a new
    // session reads no row it counted before (here: the rows are gone, the summary is not),
    // goes on with the rows after it, and starts again when retries remove rows.
    void runSummariesAreKept()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("summaries.db")).ok());
        const auto ws = store.createWorkspace("ws");
        const auto exp = store.createExperiment(ws->id, "exp");
        const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = "j";
        job.spec = "{}";
        job.uuid = "u";
        const auto created = store.createJob(job);
        QVERIFY(created.ok());
        const qint64 id = created->id;
        QVERIFY(*store.appendJobOutput(id, "metrics.jsonl", 0, 2, {R"({"kind":"train","epoch":1,"loss":0.9,"acc":0.5})",
                                                                   R"({"kind":"train","epoch":1,"loss":0.7,"acc":0.6})"}));
        QCOMPARE(RunSummaryReader(store).read({id}).value(id).metrics.value("loss").best, 0.7);
        // The counted rows changed behind its back: a new session does not read them again.
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "summaries");
            db.setDatabaseName(m_dir.filePath("summaries.db"));
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(R"(UPDATE job_metrics SET record = '{"kind":"train","epoch":1,"loss":5,"acc":0}')"));
            db.close();
        }
        QSqlDatabase::removeDatabase("summaries");
        QVERIFY(*store.appendJobOutput(id, "metrics.jsonl", 2, 3, {R"({"kind":"train","epoch":2,"loss":0.8,"acc":0.7})"}));
        RunSummaryReader later(store);
        const RunSummary summary = later.read({id}).value(id);
        QCOMPARE(summary.metrics.value("loss").best, 0.7);  // 0.8 had the rows been read again
        QCOMPARE(summary.metrics.value("loss").last, 0.8);
        QCOMPARE(summary.metrics.value("acc").best, 0.7);
        QCOMPARE(store.runSummary(id)->first, store.lastMetricId(id));
        // The store drops a summary whose rows went (removeRepeatedMetrics): the reader that
        // kept it builds it again from the rows left (5, 5, 0.8 here).
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "summaries2");
            db.setDatabaseName(m_dir.filePath("summaries.db"));
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec("DELETE FROM run_summaries"));
            db.close();
        }
        QSqlDatabase::removeDatabase("summaries2");
        QCOMPARE(later.read({id}).value(id).metrics.value("loss").best, 0.8);
        // A job deleted takes its summary along.
        QVERIFY(store.deleteJob(id).ok());
        QVERIFY(!store.runSummary(id));
    }

    // The summaries of many jobs are read with a handful of queries: only the jobs with rows
    // after the last one counted are read (here the counted rows of the others are changed
    // behind the reader's back: reading them again would show), and each summary equals the
    // one built from all its rows.
    void runSummariesOfManyJobsReadOnlyNewRows()
    {
        const QString path = m_dir.filePath("many-summaries.db");
        Store store;
        QVERIFY(store.open(path).ok());
        const auto ws = store.createWorkspace("ws");
        const auto exp = store.createExperiment(ws->id, "exp");
        const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
        QList<qint64> ids;
        for (int i = 0; i < 4; ++i) {
            Job job;
            job.experimentId = exp->id;
            job.clusterId = cluster->id;
            job.name = QStringLiteral("j%1").arg(i);
            job.spec = "{}";
            job.uuid = QStringLiteral("u%1").arg(i);
            ids << store.createJob(job)->id;
            QList<QByteArray> rows;
            for (int step = 1; step <= 3; ++step)
                rows << QStringLiteral(R"({"kind":"train","step":%1,"loss":%2})").arg(step).arg(1.0 / (step + i)).toUtf8();
            if (i < 3)  // the last job has no rows yet
                QVERIFY(*store.appendJobOutput(ids.last(), "metrics.jsonl", 0, 3, rows));
        }
        const auto fromAllRows = [&](qint64 id) {
            RunSummary summary;
            [[maybe_unused]] const auto read = MetricRows::forEachRecord(store, id, [&](const MetricRecord &r) {
                summary.add(r);
                return true;
            });
            return summary;
        };
        const auto same = [](const RunSummary &a, const RunSummary &b) {
            if (a.info != b.info || a.metrics.keys() != b.metrics.keys())
                return false;
            for (auto it = a.metrics.cbegin(); it != a.metrics.cend(); ++it) {
                if (it->last != b.metrics.value(it.key()).last || it->best != b.metrics.value(it.key()).best)
                    return false;
            }
            return true;
        };
        RunSummaryReader reader(store);
        RunSummaries first = reader.read(ids);
        QCOMPARE(first.size(), 4);
        for (qint64 id : ids)
            QVERIFY2(same(first.value(id), fromAllRows(id)), qPrintable(QString::number(id)));
        // The counted rows of every job made different behind its back; new rows for jobs 1 and 3.
        {
            auto db = QSqlDatabase::addDatabase("QSQLITE", "many");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(R"(UPDATE job_metrics SET record = '{"kind":"train","step":1,"loss":99}')"));
            db.close();
        }
        QSqlDatabase::removeDatabase("many");
        QVERIFY(*store.appendJobOutput(ids[1], "metrics.jsonl", 3, 4, {R"({"kind":"train","step":4,"loss":0.01})"}));
        QVERIFY(*store.appendJobOutput(ids[3], "metrics.jsonl", 0, 1, {R"({"kind":"train","step":1,"loss":0.02})"}));
        // The reader that read them before, and a fresh one (a GUI started again).
        RunSummaryReader fresh(store);
        for (RunSummaryReader *r : {&reader, &fresh}) {
            const RunSummaries again = r->read(ids);
            QVERIFY(same(again.value(ids[0]), first.value(ids[0])));  // not read again (99 had it been)
            QVERIFY(same(again.value(ids[2]), first.value(ids[2])));
            QCOMPARE(again.value(ids[1]).metrics.value("loss").last, 0.01);
            QCOMPARE(again.value(ids[1]).metrics.value("loss").best, 0.01);
            QCOMPARE(again.value(ids[1]).metrics.value("acc").last, 0.0);  // no such metric: nothing made up
            QCOMPARE(again.value(ids[3]).metrics.value("loss").last, 0.02);
        }
    }

    // A job's lists read back as written, whether read the short way (none, one plain name)
    // or parsed (several, quotes, backslashes, non-ASCII).
    void jobListsReadBackAsWritten()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("lists.db")).ok());
        const auto ws = store.createWorkspace("ws");
        const auto exp = store.createExperiment(ws->id, "exp");
        const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
        const QList<QStringList> lists{{}, {"n0"}, {"n0", "n1"}, {"q\"x"}, {"back\\slash"}, {"größe"}, {"[\"]"}};
        for (int i = 0; i < lists.size(); ++i) {
            Job job;
            job.experimentId = exp->id;
            job.clusterId = cluster->id;
            job.name = QStringLiteral("l%1").arg(i);
            job.spec = "{}";
            job.uuid = QStringLiteral("u%1").arg(i);
            job = *store.createJob(job);
            job.nodes = lists[i];
            job.rankNodes = lists[i];
            QVERIFY(store.updateJob(job).ok());
            const auto read = store.jobById(job.id);
            QCOMPARE(read->nodes, lists[i]);
            QCOMPARE(read->rankNodes, lists[i]);
            QVERIFY(read->errors.isEmpty());
        }
    }

    void jobsAndOutputOffsets()
    {
        Store store;
        QVERIFY(store.open(m_dir.filePath("jobs.db")).ok());
        const auto ws = store.createWorkspace("ws");
        const auto exp = store.createExperiment(ws->id, "exp");
        const auto cluster = store.createCluster(localCluster(ws->id, "c"), {node("n0")});
        Job job;
        job.experimentId = exp->id;
        job.clusterId = cluster->id;
        job.name = "j1";
        job.spec = "{}";
        job.uuid = "u";
        auto created = store.createJob(job);
        QVERIFY2(created.ok(), qPrintable(created.error()));
        QCOMPARE(toString(created->state), toString(JobState::Queued));

        created->state = JobState::Failed;
        created->exitCode = 3;
        created->errors = {{"JobFailed", "exit 3", {"see stderr"}}};
        created->nodes = {"n0"};
        created->rankNodes = {"n0", "n0", "n1"};
        QVERIFY(store.updateJob(*created).ok());
        const auto reread = store.jobById(created->id);
        QCOMPARE(toString(reread->state), toString(JobState::Failed));
        QCOMPARE(reread->exitCode.value_or(-1), 3);
        QCOMPARE(reread->errors.size(), 1);
        QCOMPARE(reread->errors.first().details, QStringList{"see stderr"});
        QCOMPARE(reread->nodes, QStringList{"n0"});
        QCOMPARE(reread->rankNodes, (QStringList{"n0", "n0", "n1"}));
        QCOMPARE(store.jobs(exp->id).first().rankNodes, (QStringList{"n0", "n0", "n1"}));

        // Output is stored once: a second reader starting from a stale offset is refused.
        QCOMPARE(store.jobFileOffset(created->id, "metrics.jsonl"), 0);
        auto first = store.appendJobOutput(created->id, "metrics.jsonl", 0, 10, {"{\"a\":1}", "{\"a\":2}"});
        QVERIFY(first.ok() && *first);
        auto stale = store.appendJobOutput(created->id, "metrics.jsonl", 0, 10, {"{\"a\":1}"});
        QVERIFY(stale.ok() && !*stale);
        QCOMPARE(store.jobFileOffset(created->id, "metrics.jsonl"), 10);
        const auto rows = store.jobMetrics(created->id);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(store.jobMetrics(created->id, rows.first().first).size(), 1);

        QVERIFY(store.deleteJob(created->id).ok());
        QVERIFY(!store.jobById(created->id));
        QVERIFY(store.jobMetrics(created->id).isEmpty());  // cascaded
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"

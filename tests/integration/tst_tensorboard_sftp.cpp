// Issue #44: a TensorBoard folder on a cluster's node opens as a local one does, read in place
// over SFTP (`traindesk runs import --cluster C --node N DIR`, `--share S PATH`). A real sshd on
// loopback (its own host key) serves a folder of event files written by the test's own writer
// (tests/data/tensorboard/tb_writer.py, from TensorBoard's formats, not TrainDesk's reader),
// and the CLI must give back exactly its points (runs export, compared here number by number);
// growth is read from where the last import stopped, and the server's own log of the SFTP
// session says only the new bytes crossed; a torn record waits for its other half; a damaged
// one is named with the node, the remote path and its offset; a folder that goes is named;
// nothing in the folder changes; and a server whose host key changed is refused.
#include "IntegrationTest.h"

#include "cluster/ClusterService.h"
#include "session/Backend.h"
#include "transport/KnownHosts.h"
#include "store/Store.h"

#include <QCryptographicHash>

#include <signal.h>
#include <QDirIterator>
#include <QRegularExpression>

using namespace TrainDesk;

namespace {

const QString writer = QStringLiteral(TRAINDESK_SOURCE_DIR "/tests/data/tensorboard/tb_writer.py");

struct Point
{
    QString run, series;
    qint64 step = 0;
    double time = 0, value = 0;
    QString file;
    bool operator<(const Point &o) const
    {
        return std::tie(run, series, step, time, value, file) < std::tie(o.run, o.series, o.step, o.time, o.value, o.file);
    }
    bool operator==(const Point &o) const
    {
        return run == o.run && series == o.series && step == o.step && time == o.time && value == o.value && file == o.file;
    }
    QString text() const { return QStringLiteral("%1 %2 %3 %4 %5 %6").arg(run, series).arg(step).arg(time, 0, 'r', 17).arg(value, 0, 'r', 17).arg(file); }
};

} // namespace

class TestTensorBoardSftp : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    TestAccount m_user;
    SshServer m_node;
    Store m_store;
    QString m_logs;          // the folder on the node (the node is this machine)
    QString m_expected;      // the writer's points, one a line

    ProgramRun cli(const QStringList &arguments)
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.dataDir());
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        return runProgram(QStringLiteral(TRAINDESK_CLI), arguments, env);
    }

    QString python(const QStringList &arguments)
    {
        QProcess p;
        p.start(QStringLiteral("python3"), QStringList{writer} + arguments);
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            qFatal("tb_writer.py %s: %s", qPrintable(arguments.join(' ')), p.readAllStandardError().constData());
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }
    void write(const QString &file, const QString &run, int step0, int count)
    {
        QDir().mkpath(QFileInfo(file).absolutePath());
        python({QStringLiteral("write"), file, run, QString::number(step0), QString::number(count), m_expected});
    }

    QList<Point> expected(const QString &leaveOut = {}) const
    {
        QList<Point> points;
        QFile f(m_expected);
        if (!f.open(QIODevice::ReadOnly))
            return points;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> c = line.split('\t');
            if (c.size() != 6 || QString::fromUtf8(c[0]) == leaveOut)
                continue;
            points.append({QString::fromUtf8(c[0]), QString::fromUtf8(c[1]), c[2].toLongLong(), c[3].toDouble(), c[4].toDouble(),
                           QString::fromUtf8(c[5])});
        }
        std::sort(points.begin(), points.end());
        return points;
    }
    QList<Point> exported(const QString &experiment)
    {
        const ProgramRun run = cli({QStringLiteral("runs"), QStringLiteral("export"), QStringLiteral("-w"), QStringLiteral("ws"),
                                    QStringLiteral("-e"), experiment, QStringLiteral("--csv-raw")});
        if (run.exitCode != 0)
            qWarning("runs export: %s", qPrintable(run.describe()));
        QList<Point> points;
        const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString &line : lines.mid(1)) {
            const QStringList c = line.split(QLatin1Char(','));
            if (c.size() == 6)
                points.append({c[0], c[1], c[2].toLongLong(), c[3].toDouble(), c[4].toDouble(), c[5]});
        }
        std::sort(points.begin(), points.end());
        return points;
    }
    static QString firstDifference(const QList<Point> &got, const QList<Point> &want)
    {
        for (qsizetype i = 0; i < std::min(got.size(), want.size()); ++i) {
            if (!(got[i] == want[i]))
                return QStringLiteral("at %1: got %2, want %3").arg(i).arg(got[i].text(), want[i].text());
        }
        return QStringLiteral("got %1 points, want %2").arg(got.size()).arg(want.size());
    }

    // Every file's name, size, time and bytes: the folder as it is.
    QByteArray fingerprint() const
    {
        QStringList lines;
        QDirIterator it(m_logs, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            QByteArray digest;
            if (info.isFile()) {
                QFile f(info.filePath());
                if (f.open(QIODevice::ReadOnly))
                    digest = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
            }
            lines << QStringLiteral("%1 %2 %3 %4").arg(info.filePath()).arg(info.size())
                         .arg(info.lastModified().toMSecsSinceEpoch()).arg(QString::fromLatin1(digest));
        }
        lines.sort();
        return lines.join(QLatin1Char('\n')).toUtf8();
    }

    // `runs import` of the node's folder, checking that it leaves the folder as it was.
    ProgramRun import(const QStringList &more = {})
    {
        const QByteArray before = fingerprint();
        const ProgramRun run = cli(QStringList{QStringLiteral("runs"), QStringLiteral("import"), QStringLiteral("-w"),
                                               QStringLiteral("ws"), QStringLiteral("--cluster"), QStringLiteral("c1"),
                                               QStringLiteral("--node"), QStringLiteral("n1"), QStringLiteral("-o"),
                                               QStringLiteral("json")} + more);
        if (fingerprint() != before)
            qWarning("runs import %s changed the folder on the node", qPrintable(more.join(' ')));
        return run;
    }
    static QJsonObject json(const ProgramRun &run) { return QJsonDocument::fromJson(run.out.toUtf8()).object(); }

    QString sftpLog() const { return m_home.filePath(QStringLiteral("node/sftp-server.log")); }
    // What the node's SFTP server says it read of `file` in all (its log of each close).
    qint64 bytesServed(const QString &file) const
    {
        static const QRegularExpression close(QStringLiteral("close \"([^\"]+)\" bytes read (\\d+)"));
        qint64 total = 0;
        QFile log(sftpLog());
        if (!log.open(QIODevice::ReadOnly))
            return -1;
        auto matches = close.globalMatch(QString::fromUtf8(log.readAll()));
        while (matches.hasNext()) {
            const auto m = matches.next();
            if (m.captured(1) == file)
                total += m.captured(2).toLongLong();
        }
        return total;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_user.create(m_home.path()), qPrintable(m_user.error()));
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("node"))));
        QVERIFY(QFile::setPermissions(m_home.filePath(QStringLiteral("node")), QFileDevice::Permissions(0x7777)));
        SshServer::Options options;
        options.passwordAuthentication = true;
        options.address = QStringLiteral("127.0.0.2");
        // OpenSSH's own SFTP server, which logs each file handle's bytes read when it closes it
        // (run by the user's shell, so its log goes to a file of the test's).
        options.sftpSubsystem = QStringLiteral("/usr/lib/openssh/sftp-server -e -l INFO 2>>%1").arg(sftpLog());
        m_user.configure(options);
        QVERIFY2(m_node.start(m_home.filePath(QStringLiteral("sshd")), options), qPrintable(m_node.error()));
        QVERIFY(m_store.open(m_home.dataDir() + QStringLiteral("/traindesk.db")));
        QVERIFY(m_store.createWorkspace(QStringLiteral("ws")));
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = QStringLiteral("c1");
        r.nodes << QStringLiteral("n1=%1@%2:%3").arg(m_user.name(), m_node.address()).arg(m_node.port());
        r.password = m_user.password();
        r.keyFile = m_user.keyFile();
        r.generateSshKeys = true;
        r.acceptNewHostKeys = true;
        r.connectTimeoutMs = 5000;
        const auto cluster = ClusterService(m_store).create(r);
        QVERIFY2(cluster, qPrintable(cluster.error()));

        m_logs = m_home.filePath(QStringLiteral("node/logs"));
        m_expected = m_home.filePath(QStringLiteral("expected.tsv"));
        write(m_logs + QStringLiteral("/lr_0.1/seed1/events.out.tfevents.1700000000.host.1.0"), QStringLiteral("lr_0.1/seed1"), 0, 50);
        write(m_logs + QStringLiteral("/lr_0.1/seed1/events.out.tfevents.1700000100.host.1.1.v2"), QStringLiteral("lr_0.1/seed1"), 50, 25);
        write(m_logs + QStringLiteral("/lr_0.01/events.out.tfevents.1700000000.host.2.0"), QStringLiteral("lr_0.01"), 0, 40);
        write(m_logs + QStringLiteral("/events.out.tfevents.1700000000.root"), QStringLiteral("."), 0, 5);
        QFile notes(m_logs + QStringLiteral("/lr_0.01/notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly) && notes.write("not an event file\n") > 0);
        notes.close();
        // The test user reads what root wrote.
        QCOMPARE(QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("a+rX"), m_home.filePath(QStringLiteral("node"))}), 0);
    }

    // Every run, named as TensorBoard names it; exactly the files' points.
    void importsEveryPointOverSftp()
    {
        const ProgramRun run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QJsonObject o = json(run);
        QCOMPARE(o.value("runs").toInt(), 3);
        QCOMPARE(o.value("added").toInt(), 3);
        QCOMPARE(o.value("node").toString(), QStringLiteral("n1"));
        QCOMPARE(o.value("experiment").toString(), QStringLiteral("logs"));
        QCOMPARE(o.value("problems").toArray().size(), 0);
        const QList<Point> want = expected();
        QCOMPARE(qint64(o.value("points").toDouble()), qint64(want.size()));
        const QList<Point> got = exported(QStringLiteral("logs"));
        QVERIFY2(got == want, qPrintable(firstDifference(got, want)));
        // The runs are jobs of the node's cluster, on that node.
        const ProgramRun list = cli({QStringLiteral("job"), QStringLiteral("file"), QStringLiteral("list"), QStringLiteral("-w"),
                                     QStringLiteral("ws"), QStringLiteral("-e"), QStringLiteral("logs"), QStringLiteral("-j"),
                                     QStringLiteral("lr_0.01")});
        QVERIFY2(list.exitCode == 0 && list.out.contains(QStringLiteral("events.out.tfevents.1700000000.host.2.0")),
                 qPrintable(list.describe()));
    }

    // A file that grows: only its new bytes are asked for, by the server's own count.
    void growthReadsOnlyNewBytes()
    {
        const QString file = m_logs + QStringLiteral("/lr_0.01/events.out.tfevents.1700000000.host.2.0");
        const qint64 before = QFileInfo(file).size();
        const qint64 servedBefore = bytesServed(file);
        QVERIFY2(servedBefore >= before, qPrintable(QStringLiteral("the server logged %1 bytes read of %2 (%3 bytes): %4")
                                                        .arg(servedBefore).arg(file).arg(before).arg(m_node.log().right(1000))));
        write(file, QStringLiteral("lr_0.01"), 40, 30);
        const qint64 grown = QFileInfo(file).size() - before;
        const ProgramRun run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(qint64(json(run).value("bytes").toDouble()), grown);
        QCOMPARE(json(run).value("points").toInt(), 60);
        QCOMPARE(bytesServed(file) - servedBefore, grown);
        const QList<Point> want = expected();
        const QList<Point> got = exported(QStringLiteral("logs"));
        QVERIFY2(got == want, qPrintable(firstDifference(got, want)));
    }

    // A record half written waits for its other half; then it is read.
    void tornRecordWaits()
    {
        const QString file = m_logs + QStringLiteral("/lr_0.1/seed1/events.out.tfevents.1700000100.host.1.1.v2");
        const QString rest = m_home.filePath(QStringLiteral("rest.bin"));
        python({QStringLiteral("torn"), file, rest});
        ProgramRun run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(json(run).value("points").toInt(), 0);
        QCOMPARE(json(run).value("problems").toArray().size(), 0);
        QFile tail(rest);
        QVERIFY(tail.open(QIODevice::ReadOnly));
        QFile f(file);
        QVERIFY(f.open(QIODevice::Append));
        QVERIFY(f.write(tail.readAll()) > 0);
        f.close();
        run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QCOMPARE(json(run).value("points").toInt(), 1);
        QFile exp(m_expected);
        QVERIFY(exp.open(QIODevice::Append));
        exp.write("lr_0.1/seed1\tloss\t9999\t1700009999.0\t0.5\tevents.out.tfevents.1700000100.host.1.1.v2\n");
        exp.close();
        const QList<Point> want = expected();
        const QList<Point> got = exported(QStringLiteral("logs"));
        QVERIFY2(got == want, qPrintable(firstDifference(got, want)));
    }

    // `--watch` follows the node's folder: what a file grows by, read and said, nothing twice.
    void watchFollowsTheNode()
    {
        const QString file = m_logs + QStringLiteral("/lr_0.1/seed1/events.out.tfevents.1700000100.host.1.1.v2");
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.dataDir());
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        QProcess watch;
        watch.setProcessEnvironment(env);
        watch.start(QStringLiteral(TRAINDESK_CLI), {QStringLiteral("runs"), QStringLiteral("import"), QStringLiteral("-w"),
                                                   QStringLiteral("ws"), QStringLiteral("--cluster"), QStringLiteral("c1"),
                                                   QStringLiteral("--node"), QStringLiteral("n1"), m_logs, QStringLiteral("--watch")});
        QString out;
        const auto said = [&](const QString &text) {
            out += QString::fromUtf8(watch.readAllStandardOutput());
            return out.contains(text);
        };
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("3 runs in node n1 of cluster 'c1': %1 (0 new)").arg(m_logs)), 60000);
        const qint64 before = QFileInfo(file).size();
        write(file, QStringLiteral("lr_0.1/seed1"), 75, 7);
        const qint64 grown = QFileInfo(file).size() - before;
        // What each tick read (a write seen half done is read in two ticks): in all, the growth.
        const auto readSoFar = [&] {
            said({});
            static const QRegularExpression tick(QStringLiteral("new, (\\d+) points? read \\((\\d+) bytes\\)"));
            std::pair<qint64, qint64> total{0, 0};
            for (auto m = tick.globalMatch(out); m.hasNext();) {
                const auto one = m.next();
                total.first += one.captured(1).toLongLong();
                total.second += one.captured(2).toLongLong();
            }
            return total;
        };
        QTRY_COMPARE_WITH_TIMEOUT(readSoFar(), (std::pair<qint64, qint64>{14, grown}), 60000);
        ::kill(pid_t(watch.processId()), SIGINT);
        QVERIFY(watch.waitForFinished(30000));
        QCOMPARE(watch.exitCode(), 0);
        QCOMPARE(readSoFar(), (std::pair<qint64, qint64>{14, grown}));
        const QList<Point> want = expected();
        const QList<Point> got = exported(QStringLiteral("logs"));
        QVERIFY2(got == want, qPrintable(firstDifference(got, want)));
    }

    // A damaged record is named with the node, the remote file and its offset.
    void damagedRecordNamed()
    {
        const QString file = m_logs + QStringLiteral("/events.out.tfevents.1700000000.root");
        const QString offset = python({QStringLiteral("damage"), file});
        const ProgramRun run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString problems = json(run).value("problems").toVariant().toStringList().join(QLatin1Char('\n'));
        const QString want = QStringLiteral("run .: node n1 of cluster 'c1': %1: the record at offset %2 fails its CRC").arg(file, offset);
        QVERIFY2(problems.contains(want), qPrintable(problems + QStringLiteral("\nwant: ") + want));
    }

    // A run folder that goes, then the whole folder: named, nothing hangs.
    void vanishedFoldersNamed()
    {
        QVERIFY(QDir(m_logs + QStringLiteral("/lr_0.01")).removeRecursively());
        ProgramRun run = import({m_logs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString problems = json(run).value("problems").toVariant().toStringList().join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("run lr_0.01: its folder node n1 of cluster 'c1': %1/lr_0.01 is gone").arg(m_logs)),
                 qPrintable(problems));
        // What was read of it is kept; reading it now names the node and file it is gone from.
        const QList<Point> got = exported(QStringLiteral("logs"));
        QVERIFY2(got == expected(QStringLiteral("lr_0.01")), qPrintable(firstDifference(got, expected(QStringLiteral("lr_0.01")))));
        run = import({m_home.filePath(QStringLiteral("node/nothing-here"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("cannot open folder node n1 of cluster 'c1': %1").arg(m_home.filePath(QStringLiteral("node/nothing-here")))),
                 qPrintable(run.describe()));
        run = import({QStringLiteral("relative/logs")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("give the folder on the node as an absolute path")), qPrintable(run.describe()));
        run = cli({QStringLiteral("runs"), QStringLiteral("import"), QStringLiteral("-w"), QStringLiteral("ws"),
                   QStringLiteral("--cluster"), QStringLiteral("c1"), QStringLiteral("--node"), QStringLiteral("n9"), m_logs});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("cluster 'c1' has no node 'n9' (its nodes: n1)")), qPrintable(run.describe()));
    }

    // The GUI's path (Backend, File > Open TensorBoard folder on a cluster… with a share): the
    // share's folder is read on its node in the worker, a watched run's records come from the
    // node, Follow brings only what a file grew by; when the node goes, the next read names
    // it (root folder, node, cluster) and Follow pauses instead of waiting at every tick.
    void guiFollowsAShareAndNamesANodeThatGoes()
    {
        Share share;
        share.workspaceId = m_store.workspace(QStringLiteral("ws"))->id;
        share.name = QStringLiteral("runs");
        share.kind = ShareKind::ClusterPath;
        share.path = m_home.filePath(QStringLiteral("node/share"));
        share.clusterId = m_store.cluster(share.workspaceId, QStringLiteral("c1"))->id;
        QVERIFY(m_store.createShare(share));
        const QString file = share.path + QStringLiteral("/resnet/run-a/events.out.tfevents.1700000000.host");
        write(file, QStringLiteral("run-a"), 0, 10);
        QCOMPARE(QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("a+rX"), share.path}), 0);

        Backend backend(m_home.dataDir() + QStringLiteral("/traindesk.db"), 100);
        QTRY_VERIFY_WITH_TIMEOUT(!backend.snapshot().workspaces.isEmpty(), 10000);
        QSignalSpy finished(&backend, &Backend::requestFinished);
        QSignalSpy read(&backend, &Backend::tensorBoardFolderRead);
        backend.openTensorBoardFolder(QStringLiteral("ws"), QStringLiteral("resnet"), true, {}, {}, QStringLiteral("runs"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        QCOMPARE(read.at(0).at(0).toString(), QStringLiteral("node n1 of cluster 'c1': %1/resnet").arg(share.path));
        const qint64 experimentId = finished.at(0).at(1).toLongLong();
        qint64 runId = 0;
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
            const auto *exp = backend.snapshot().findExperiment(experimentId);
            for (const Job &j : exp ? exp->jobs : QList<Job>{})
                runId = j.name == QLatin1String("run-a") ? j.id : runId;
            return runId != 0;
        }()), 10000);

        QList<MetricRecord> records;
        connect(&backend, &Backend::metricsArrived, this, [&](qint64 jobId, const QList<MetricRecord> &arrived, bool reset) {
            if (jobId != runId)
                return;
            if (reset)
                records.clear();
            records += arrived;
        });
        backend.watchJob(runId);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), 20, 20000);
        write(file, QStringLiteral("run-a"), 10, 5);
        QTRY_COMPARE_WITH_TIMEOUT(records.size(), 30, 20000);
        QList<qint64> steps;
        for (const MetricRecord &r : std::as_const(records)) {
            if (r.name == QLatin1String("loss"))
                steps << r.step;
        }
        QCOMPARE(steps, (QList<qint64>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
        backend.unwatchJob(runId);

        // The node goes away.
        read.clear();
        m_node.stop();
        // Its connections go with it (their processes may outlive the listener here; a node
        // that reboots drops them): the next read logs in again, and is refused.
        m_node.dropConnections();
        SshConnectionPool::instance().closeIdle();
        QTRY_VERIFY_WITH_TIMEOUT(!read.isEmpty(), 60000);
        QCOMPARE(read.at(0).at(1).toString(), QStringLiteral("Following paused for 30 s"));
        const QString problem = read.at(0).at(2).toStringList().join(QLatin1Char('\n'));
        QVERIFY2(problem.startsWith(QStringLiteral("cannot read folder node n1 of cluster 'c1': %1/resnet: ").arg(share.path)),
                 qPrintable(problem));
        backend.stopFollowingTensorBoardFolders();
        QVERIFY2(m_node.restart(), qPrintable(m_node.error()));
    }

    // A node whose host key changed is refused before anything is read.
    void changedHostKeyRefused()
    {
        QVERIFY(m_node.regenerateHostKey());
        QVERIFY2(m_node.restart(), qPrintable(m_node.error()));
        ProgramRun run = import({m_logs});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("host key of %1 has CHANGED").arg(KnownHosts::hostPattern(m_node.address(), m_node.port()))),
                 qPrintable(run.describe()));
        // Charts and exports of the runs read before are refused the same way, naming the file.
        run = cli({QStringLiteral("runs"), QStringLiteral("export"), QStringLiteral("-w"), QStringLiteral("ws"),
                   QStringLiteral("-e"), QStringLiteral("logs"), QStringLiteral("--csv-raw")});
        QVERIFY2(!run.out.contains(QStringLiteral(",loss,")), qPrintable(run.describe()));
    }
};

QTEST_GUILESS_MAIN(TestTensorBoardSftp)
#include "tst_tensorboard_sftp.moc"

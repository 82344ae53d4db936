// SshTransport against a real sshd on loopback: exec (streaming, exit status, cancel and
// timeout ending the remote process group), pooling and reconnection, and SFTP (stat,
// list, mkdir -p, remove, read at an offset, atomic writes, streamed uploads and
// downloads with progress, resume, permissions).
#include "IntegrationTest.h"

#include "transport/SftpClient.h"
#include "transport/SshTransport.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>

#include <csignal>

using namespace TrainDesk;

class TestSshTransport : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    SshServer m_server;
    QString m_key;

    SshTransport transport() const { return SshTransport(loginParameters(m_server, m_key)); }
    QString remote(const QString &name) const { return m_home.filePath(QStringLiteral("remote/") + name); }

    static QByteArray sha256Of(const QString &path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        return h.result().toHex();
    }
    static void writeRandomFile(const QString &path, qint64 size)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QByteArray block(1 << 20, Qt::Uninitialized);
        for (qint64 written = 0; written < size; written += block.size()) {
            QRandomGenerator::global()->generate(reinterpret_cast<quint32 *>(block.data()),
                                                 reinterpret_cast<quint32 *>(block.data() + block.size()));
            f.write(block.constData(), qMin<qint64>(block.size(), size - written));
        }
    }
    static bool processAlive(qint64 pid)
    {
        // A zombie still answers kill -0; ps tells them apart.
        const QString state = runTool(QStringLiteral("ps"), {QStringLiteral("-o"), QStringLiteral("stat="),
                                                             QStringLiteral("-p"), QString::number(pid)});
        return !state.trimmed().isEmpty() && !state.trimmed().startsWith(QLatin1Char('Z'));
    }
    static qint64 residentKiB()
    {
        QFile f(QStringLiteral("/proc/self/status"));
        f.open(QIODevice::ReadOnly);
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.startsWith("VmRSS:"))
                return line.mid(6).trimmed().split(' ').first().toLongLong();
        }
        return 0;
    }

private slots:
    void initTestCase()
    {
        // No root needed: the server runs as the user running the test and lets that user in.
        m_key = m_home.makeClientKey(QStringLiteral("client_key"));
        const QString keys = m_home.authorizedKeysFor(m_key);
        QVERIFY(!keys.isEmpty());
        SshServer::Options options;
        options.authorizedKeysFile = keys;
        QVERIFY2(m_server.start(m_home.filePath(QStringLiteral("sshd")), options), qPrintable(m_server.error()));
        QDir().mkpath(m_home.filePath(QStringLiteral("remote")));
    }

    void execReturnsOutputAndExitStatus()
    {
        auto t = transport();
        const auto r = t.exec(QStringLiteral("echo out; echo err >&2; exit 7"));
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->exitCode, 7);
        QCOMPARE(r->stdOut, QByteArray("out\n"));
        QCOMPARE(r->stdErr, QByteArray("err\n"));
        // Killed by a signal: 128 + the signal, as shells report it.
        const auto killed = t.exec(QStringLiteral("kill -9 $$"));
        QVERIFY2(killed, qPrintable(killed.error()));
        QCOMPARE(killed->exitCode, 128 + 9);
        // A command that starts with a dash is a command, not an option of sh.
        const auto dash = t.exec(QStringLiteral("-definitely-not-a-command"));
        QVERIFY2(dash, qPrintable(dash.error()));
        QCOMPARE(dash->exitCode, 127);
    }

    void execStreamsOutputAsItArrives()
    {
        auto t = transport();
        QElapsedTimer timer;
        timer.start();
        qint64 firstOut = -1, firstErr = -1;
        QByteArray out, err;
        ExecHandlers handlers;
        handlers.onStdOut = [&](const QByteArray &d) {
            if (firstOut < 0)
                firstOut = timer.elapsed();
            out += d;
        };
        handlers.onStdErr = [&](const QByteArray &d) {
            if (firstErr < 0)
                firstErr = timer.elapsed();
            err += d;
        };
        const auto status = t.exec(QStringLiteral("echo first; echo warn >&2; sleep 2; echo second"), handlers);
        QVERIFY2(status, qPrintable(status.error()));
        QCOMPARE(*status, 0);
        QCOMPARE(out, QByteArray("first\nsecond\n"));
        QCOMPARE(err, QByteArray("warn\n"));
        QVERIFY(timer.elapsed() >= 2000);
        // Both streams were delivered before the command ended.
        QVERIFY2(firstOut >= 0 && firstOut < timer.elapsed() - 1000, qPrintable(QString::number(firstOut)));
        QVERIFY2(firstErr >= 0 && firstErr < timer.elapsed() - 1000, qPrintable(QString::number(firstErr)));
    }

    void cancelEndsTheRemoteProcessGroup()
    {
        auto t = transport();
        const QString pidFile = remote(QStringLiteral("cancel.pids"));
        CancelFlag cancel;
        ExecHandlers handlers;
        handlers.onStdOut = [&](const QByteArray &d) {
            if (d.contains("started"))
                cancel.cancel();
        };
        QElapsedTimer timer;
        timer.start();
        // A child and a grandchild in the background: the whole group must go.
        const auto status = t.exec(QStringLiteral("sleep 300 & a=$!; sh -c 'sleep 301 & echo $! > %1.g; wait' & "
                                                  "echo $a > %1; sleep 0.5; echo started; wait")
                                       .arg(pidFile),
                                   handlers, &cancel);
        QVERIFY(!status);
        QVERIFY2(status.error().contains(QLatin1String("cancelled")), qPrintable(status.error()));
        QVERIFY2(timer.elapsed() < 10000, "cancel took too long");
        QFile a(pidFile), g(pidFile + QStringLiteral(".g"));
        QVERIFY(a.open(QIODevice::ReadOnly) && g.open(QIODevice::ReadOnly));
        const qint64 child = a.readAll().trimmed().toLongLong(), grandchild = g.readAll().trimmed().toLongLong();
        QVERIFY(child > 0 && grandchild > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(child) && !processAlive(grandchild), 5000);
    }

    void timeoutEndsTheCommand()
    {
        auto t = transport();
        QElapsedTimer timer;
        timer.start();
        const auto r = t.exec(QStringLiteral("echo $$ > %1; exec sleep 120").arg(remote(QStringLiteral("timeout.pid"))), 1000);
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QLatin1String("timed out")) && r.error().contains(m_server.address()), qPrintable(r.error()));
        QVERIFY2(timer.elapsed() < 8000, "the timeout did not bound the call");
        QFile f(remote(QStringLiteral("timeout.pid")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qint64 pid = f.readAll().trimmed().toLongLong();
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 5000);
    }

    void startDetachedOutlivesTheCall()
    {
        auto t = transport();
        const auto pid = t.startDetached(QStringLiteral("sleep 60"));
        QVERIFY2(pid, qPrintable(pid.error()));
        QVERIFY(processAlive(*pid));
        // It leads its own process group, which is what terminate signals.
        const auto group = t.exec(QStringLiteral("ps -o pgid= -p %1").arg(*pid));
        QCOMPARE(group->stdOut.trimmed().toLongLong(), *pid);
        ::kill(pid_t(*pid), SIGKILL);
    }

    void connectionsArePooled()
    {
        auto t = transport();
        QVERIFY(t.exec(QStringLiteral("true")));
        const qint64 opened = SshConnectionPool::instance().connectionsOpened();
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20; ++i) {
            const auto r = t.exec(QStringLiteral("true"));
            QVERIFY2(r && r->exitCode == 0, qPrintable(r.error()));
        }
        qInfo("exec round trip on a pooled connection: %.1f ms", timer.elapsed() / 20.0);
        QCOMPARE(SshConnectionPool::instance().connectionsOpened(), opened);
    }

    void reconnectsAfterTheServerRestarts()
    {
        auto t = transport();
        QVERIFY(t.exec(QStringLiteral("true")));
        QVERIFY(SshConnectionPool::instance().idleCount() > 0);
        const qint64 opened = SshConnectionPool::instance().connectionsOpened();
        m_server.dropConnections();
        QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
        const auto r = t.exec(QStringLiteral("echo back"));
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->stdOut, QByteArray("back\n"));
        QVERIFY(SshConnectionPool::instance().connectionsOpened() > opened);
        // File operations too: stat on a connection that died under it.
        m_server.dropConnections();
        QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
        QVERIFY2(t.stat(m_home.path()), "stat after restart");
    }

    void idleConnectionsAnswerServerKeepalives()
    {
        // A server that drops a client it has not heard from for about 4 s (ClientAlive*):
        // the pool's keepalives hold an idle connection open (without them it is dropped
        // and the next command has to log in again).
        SshServer strict;
        SshServer::Options options;
        options.authorizedKeysFile = m_home.filePath(QStringLiteral("authorized_keys"));
        options.extraConfig = {QStringLiteral("ClientAliveInterval 1"), QStringLiteral("ClientAliveCountMax 3")};
        QVERIFY2(strict.start(m_home.filePath(QStringLiteral("sshd-strict")), options), qPrintable(strict.error()));
        SshParameters p = loginParameters(strict, m_key);
        p.keepaliveIntervalMs = 1000;
        SshTransport t(p);
        QVERIFY(t.exec(QStringLiteral("true")));
        const qint64 opened = SshConnectionPool::instance().connectionsOpened();
        QTest::qWait(9000);
        const auto r = t.exec(QStringLiteral("echo still"));
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(SshConnectionPool::instance().connectionsOpened(), opened);
    }

    void fileOperations()
    {
        auto t = transport();
        const QString dir = remote(QStringLiteral("a/b/c"));
        QVERIFY2(t.makeDirectories(dir), "mkdir -p");
        QVERIFY2(t.makeDirectories(dir), "mkdir -p on what exists");
        QVERIFY(QFileInfo(dir).isDir());
        QVERIFY(t.writeFile(dir + QStringLiteral("/f.txt"), "0123456789", QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QCOMPARE(QFileInfo(dir + QStringLiteral("/f.txt")).permissions() & 0x0777,
                 QFileDevice::ReadUser | QFileDevice::WriteUser);
        const auto info = t.stat(dir + QStringLiteral("/f.txt"));
        QVERIFY(info);
        QCOMPARE(info->size, 10);
        QVERIFY(!info->isDirectory);
        QVERIFY(qAbs(info->modified.secsTo(QDateTime::currentDateTimeUtc())) < 60);
        QCOMPARE(*t.readAt(dir + QStringLiteral("/f.txt"), 3, 4), QByteArray("3456"));
        QCOMPARE(*t.readAt(dir + QStringLiteral("/f.txt"), 8, 100), QByteArray("89"));
        QCOMPARE(*t.readAt(dir + QStringLiteral("/f.txt"), 10, 100), QByteArray());
        const auto missing = t.readAt(dir + QStringLiteral("/none"), 0, 10);
        QVERIFY(!missing);
        QVERIFY2(missing.error().contains(QLatin1String("does not exist")) && missing.error().contains(QLatin1String("/none")),
                 qPrintable(missing.error()));
        QVERIFY(t.makeDirectories(dir + QStringLiteral("/d")));
        const auto entries = t.list(dir);
        QVERIFY(entries);
        QCOMPARE(entries->size(), 2);
        QCOMPARE(entries->at(0).name, QStringLiteral("d"));
        QVERIFY(entries->at(0).isDirectory);
        QCOMPARE(entries->at(1).name, QStringLiteral("f.txt"));
        // Atomic replacement: no partial file is left beside the target.
        QVERIFY(t.writeFile(dir + QStringLiteral("/f.txt"), "new", QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QCOMPARE(*t.readAt(dir + QStringLiteral("/f.txt"), 0, 100), QByteArray("new"));
        QCOMPARE(t.list(dir)->size(), 2);
        QVERIFY(!t.remove(remote(QStringLiteral("a")), false));  // not empty
        QVERIFY2(t.remove(remote(QStringLiteral("a")), true), "recursive remove");
        QVERIFY(!QFileInfo::exists(remote(QStringLiteral("a"))));
        QVERIFY(!t.stat(remote(QStringLiteral("a"))));
    }

    void uploadAndDownloadStreamWithProgress()
    {
        auto t = transport();
        const QString source = m_home.filePath(QStringLiteral("big.bin"));
        const qint64 size = 48 * 1024 * 1024 + 12345;
        writeRandomFile(source, size);
        QFile::setPermissions(source, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadGroup | QFileDevice::ExeGroup);
        QList<qint64> progress;
        TransferOptions options;
        options.progress = [&](qint64 done, qint64 total) {
            QCOMPARE(total, size);
            progress << done;
        };
        const qint64 rssBefore = residentKiB();
        const auto up = t.upload(source, remote(QStringLiteral("big.bin")), options);
        QVERIFY2(up, qPrintable(up.error()));
        // Streamed: memory does not grow with the file.
        QVERIFY2(residentKiB() - rssBefore < 24 * 1024, qPrintable(QString::number(residentKiB() - rssBefore)));
        QVERIFY(progress.size() > 10);
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.last(), size);
        QCOMPARE(sha256Of(remote(QStringLiteral("big.bin"))), sha256Of(source));
        // The permissions came along (rwxr-x---).
        QCOMPARE(QFileInfo(remote(QStringLiteral("big.bin"))).permissions() & 0x0777,
                 QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser | QFileDevice::ReadGroup
                     | QFileDevice::ExeGroup);
        progress.clear();
        const QString copy = m_home.filePath(QStringLiteral("down/big.bin"));
        const auto down = t.download(remote(QStringLiteral("big.bin")), copy, options);
        QVERIFY2(down, qPrintable(down.error()));
        QCOMPARE(progress.last(), size);
        QCOMPARE(sha256Of(copy), sha256Of(source));
        QCOMPARE(QFileInfo(copy).permissions() & 0x0777, QFileInfo(source).permissions() & 0x0777);
        QVERIFY(!QFile::exists(SftpClient::localPartPath(copy)));
    }

    void interruptedUploadLeavesTheTargetAndResumes()
    {
        auto t = transport();
        const QString source = m_home.filePath(QStringLiteral("resume.bin"));
        const qint64 size = 32 * 1024 * 1024;
        writeRandomFile(source, size);
        const QString target = remote(QStringLiteral("resume.bin"));
        QVERIFY(t.writeFile(target, "OLD", QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        CancelFlag cancel;
        TransferOptions options;
        options.cancel = &cancel;
        options.progress = [&](qint64 done, qint64) {
            if (done > 8 * 1024 * 1024)
                cancel.cancel();
        };
        const auto first = t.upload(source, target, options);
        QVERIFY(!first);
        QVERIFY2(first.error().contains(QLatin1String("cancelled")), qPrintable(first.error()));
        // Readers still see the old file; the part holds a gap-free prefix.
        QCOMPARE(*t.readAt(target, 0, 100), QByteArray("OLD"));
        const QString part = SftpClient::remotePartPath(target);
        const qint64 partial = QFileInfo(part).size();
        QVERIFY2(partial > 8 * 1024 * 1024 && partial < size, qPrintable(QString::number(partial)));
        cancel.reset();
        qint64 resumedFrom = -1;
        options.progress = [&](qint64 done, qint64) {
            if (resumedFrom < 0)
                resumedFrom = done;
        };
        const auto second = t.upload(source, target, options);
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(resumedFrom, partial);
        QCOMPARE(sha256Of(target), sha256Of(source));
        QVERIFY(!QFile::exists(part));

        // A part that no longer matches the source is not resumed.
        QFile stale(part);
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.write(QByteArray(1024 * 1024, 'x'));
        stale.close();
        resumedFrom = -1;
        QVERIFY(t.upload(source, target, options));
        QCOMPARE(resumedFrom, 0);
        QCOMPARE(sha256Of(target), sha256Of(source));
    }

    void interruptedDownloadResumes()
    {
        auto t = transport();
        const QString source = remote(QStringLiteral("dl.bin"));
        writeRandomFile(source, 24 * 1024 * 1024);
        const QString copy = m_home.filePath(QStringLiteral("dl.bin"));
        QFile old(copy);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("OLD");
        old.close();
        CancelFlag cancel;
        TransferOptions options;
        options.cancel = &cancel;
        options.progress = [&](qint64 done, qint64) {
            if (done > 4 * 1024 * 1024)
                cancel.cancel();
        };
        QVERIFY(!t.download(source, copy, options));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("OLD"));
        old.close();
        const qint64 partial = QFileInfo(SftpClient::localPartPath(copy)).size();
        QVERIFY(partial > 0);
        cancel.reset();
        qint64 resumedFrom = -1;
        options.progress = [&](qint64 done, qint64) {
            if (resumedFrom < 0)
                resumedFrom = done;
        };
        const auto second = t.download(source, copy, options);
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(resumedFrom, partial);
        QCOMPARE(sha256Of(copy), sha256Of(source));
    }

    void cleanupTestCase() { m_server.stop(); }
};

QTEST_GUILESS_MAIN(TestSshTransport)
#include "tst_sshtransport.moc"

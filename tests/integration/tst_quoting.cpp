// Every string that reaches a remote shell goes through shellQuote. A corpus of names and
// paths with spaces, quotes, $(), backticks, ';', newlines, non-ASCII text and leading
// dashes travels over real SSH (commands, SFTP paths, the cluster's mount root, shares,
// setup task, probe and key deployment), comes back byte for byte, and nothing injected
// ever runs: each injection would create a canary file, and none may exist at the end.
#include "IntegrationTest.h"

#include "cluster/ClusterService.h"
#include "cluster/SshKeys.h"
#include "common/ShellQuote.h"
#include "store/Store.h"
#include "transport/SshTransport.h"

#include <QFileInfo>

using namespace TrainDesk;

class TestQuoting : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    SshServer m_server;
    QString m_key;
    QString m_canary;

    QStringList corpus() const
    {
        const QString touch = QStringLiteral("touch %1").arg(m_canary);
        return {
            QStringLiteral("plain"),
            QStringLiteral("with space"),
            QStringLiteral("  leading and trailing  "),
            QStringLiteral("tab\there"),
            QStringLiteral("single'quote"),
            QStringLiteral("double\"quote"),
            QStringLiteral("'"),
            QStringLiteral("''"),
            QStringLiteral("back\\slash\\"),
            QStringLiteral("$(%1)").arg(touch),
            QStringLiteral("`%1`").arg(touch),
            QStringLiteral("; %1").arg(touch),
            QStringLiteral("&& %1").arg(touch),
            QStringLiteral("| %1").arg(touch),
            QStringLiteral("'; %1; '").arg(touch),
            QStringLiteral("\"; %1; \"").arg(touch),
            QStringLiteral("\"$(%1)\"").arg(touch),
            QStringLiteral("x'$(%1)'y").arg(touch),
            QStringLiteral("line\nbreak; %1").arg(touch),
            QStringLiteral("\n%1\n").arg(touch),
            QStringLiteral("-rf"),
            QStringLiteral("--help"),
            QStringLiteral("-n"),
            QStringLiteral("-e \\x41"),
            QStringLiteral("$HOME"),
            QStringLiteral("${HOME}"),
            QStringLiteral("$((1+1))"),
            QStringLiteral("~"),
            QStringLiteral("~root"),
            QStringLiteral("*"),
            QStringLiteral("?"),
            QStringLiteral("[a-z]"),
            QStringLiteral("{a,b}"),
            QStringLiteral("!"),
            QStringLiteral("#not a comment"),
            QStringLiteral("a=b"),
            QStringLiteral(">out"),
            QStringLiteral("<in"),
            QStringLiteral("%s%n%d"),
            QStringLiteral("über-ñame-日本語-кириллица"),
            QStringLiteral("emoji-🚀"),
            QStringLiteral("\x01\x1b[31mcontrol"),
        };
    }

    SshTransport transport() const { return SshTransport(loginParameters(m_server, m_key)); }

private slots:
    void initTestCase()
    {
        // No root needed: the server runs as the user running the test and lets that user in.
        m_canary = m_home.filePath(QStringLiteral("canary"));
        m_key = m_home.makeClientKey(QStringLiteral("client_key"));
        const QString keys = m_home.authorizedKeysFor(m_key);
        QVERIFY(!keys.isEmpty());
        SshServer::Options options;
        options.authorizedKeysFile = keys;
        QVERIFY2(m_server.start(m_home.filePath(QStringLiteral("sshd")), options), qPrintable(m_server.error()));
    }

    void wordsComeBackUnchanged()
    {
        auto t = transport();
        const QStringList words = corpus();
        // Each word alone, and all of them in one command line: each stays one word.
        for (const QString &word : words.mid(0, 12)) {
            const auto r = t.exec(QStringLiteral("printf '%s' ") + shellQuote(word), 15000);
            QVERIFY2(r && r->exitCode == 0, qPrintable(word));
            QCOMPARE(r->stdOut, word.toUtf8());
        }
        const auto r = t.exec(QStringLiteral("printf '%s\\0' ") + shellJoin(words), 15000);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->exitCode, 0);
        QList<QByteArray> back = r->stdOut.split('\0');
        QCOMPARE(back.takeLast(), QByteArray());
        QCOMPARE(back.size(), words.size());
        for (int i = 0; i < words.size(); ++i)
            QCOMPARE(back.at(i), words.at(i).toUtf8());
    }

    void pathsWorkOverSftpAndTheShell()
    {
        auto t = transport();
        const QString base = m_home.filePath(QStringLiteral("paths"));
        // '/' separates path components: in names it becomes '_', which turns the canary
        // into a relative path; commands run in an empty folder where it would land.
        const QString canaries = m_home.filePath(QStringLiteral("canaries"));
        QDir().mkpath(canaries);
        int index = 0;
        QStringList files;
        for (QString word : corpus()) {
            word.replace(QLatin1Char('/'), QLatin1Char('_'));
            const QString dir = QStringLiteral("%1/%2-%3").arg(base).arg(index++).arg(word);
            QVERIFY2(t.makeDirectories(dir), qPrintable(dir));
            const QString file = dir + QLatin1Char('/') + word;
            QVERIFY2(t.writeFile(file, word.toUtf8(), QFileDevice::ReadOwner | QFileDevice::WriteOwner), qPrintable(file));
            QVERIFY(QFileInfo(file).isFile());
            files << file;
            const auto listed = t.list(dir);
            QVERIFY(listed);
            QCOMPARE(listed->size(), 1);
            QCOMPARE(listed->first().name, word);
        }
        // The shell reads every path back (one command, each file then a NUL).
        QString command = QStringLiteral("cd %1").arg(shellQuote(canaries));
        for (const QString &file : files)
            command += QStringLiteral(" && cat -- %1 && printf '\\0'").arg(shellQuote(file));
        const auto cat = t.exec(command, 30000);
        QVERIFY2(cat && cat->exitCode == 0, cat ? cat->stdErr.constData() : qPrintable(cat.error()));
        const QList<QByteArray> contents = cat->stdOut.split('\0');
        for (int i = 0; i < files.size(); ++i)
            QCOMPARE(contents.at(i), QFileInfo(files.at(i)).fileName().toUtf8());
        for (const QString &file : files) {
            QVERIFY(t.rename(file, file + QStringLiteral(".moved")));
            QCOMPARE(*t.readAt(file + QStringLiteral(".moved"), 0, 1000), QFileInfo(file).fileName().toUtf8());
            QVERIFY(t.remove(QFileInfo(file).path(), true));
        }
    }

    void clusterSettingsReachTheNodeLiterally()
    {
        Store store;
        QVERIFY(store.open(m_home.filePath(QStringLiteral("data/traindesk.db"))));
        const auto ws = store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        const QString touch = QStringLiteral("touch %1").arg(m_canary);
        // A replicated share (made on the node) and a mount root with hostile names.
        Share share;
        share.workspaceId = ws->id;
        share.name = QStringLiteral("data");
        share.kind = ShareKind::Replicated;
        share.path = m_home.filePath(QStringLiteral("share $(%1) `%1` ';%1;'").arg(touch));
        QVERIFY(store.createShare(share));
        const QString mountRoot = m_home.filePath(QStringLiteral("mount root \"$(%1)\" '; %1").arg(touch));
        const QString seen = m_home.filePath(QStringLiteral("seen mount root"));
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = QStringLiteral("quoted");
        r.nodes = {QStringLiteral("%1@%2:%3").arg(SshServer::loginUser(), m_server.address()).arg(m_server.port())};
        r.keyFile = m_key;
        r.acceptNewHostKeys = true;
        r.mountRoot = mountRoot;
        r.setupTask = QStringLiteral("printf '%s' \"$AZ_BATCHAI_MOUNT_ROOT\" > ") + shellQuote(seen);
        ClusterService service(store);
        const auto cluster = service.create(r);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        QFile seenFile(seen);
        QVERIFY(seenFile.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(seenFile.readAll()), mountRoot);
        // The setup task linked the share under the mount root.
        QCOMPARE(QFileInfo(mountRoot + QStringLiteral("/data")).symLinkTarget(), share.path);
        // The probe makes (and checks) the replicated shares of this cluster only: one with
        // a hostile path of its own.
        share.name = QStringLiteral("data2");
        share.clusterId = cluster->id;
        share.path = m_home.filePath(QStringLiteral("share2 $(%1) `%1` ';%1;'").arg(touch));
        QVERIFY(store.createShare(share));
        const auto probed = service.probe(QStringLiteral("ws"), QStringLiteral("quoted"), {});
        QVERIFY2(probed, qPrintable(probed.error()));
        for (const ProbeCheck &c : probed->first().checks) {
            if (c.id == QLatin1String("mountRoot") || c.id == QLatin1String("shares"))
                QVERIFY2(c.passed, qPrintable(c.toText()));
        }
        QVERIFY(QFileInfo(share.path).isDir());
    }

    void keyDeploymentKeepsTheLineIntact()
    {
        const QString home = m_home.filePath(QStringLiteral("deploy home"));
        QDir().mkpath(home);
        const QString line = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHostileComment x'; touch %1; '$(touch %1)")
                                 .arg(m_canary);
        auto t = transport();
        // As ssh-copy-id: into $HOME/.ssh/authorized_keys, once however often it runs.
        for (int i = 0; i < 2; ++i) {
            const auto r = t.exec(QStringLiteral("HOME=%1; export HOME; ").arg(shellQuote(home)) + SshKeys::deployCommand(line));
            QVERIFY2(r && r->exitCode == 0, r ? r->stdErr.constData() : qPrintable(r.error()));
        }
        QFile keys(home + QStringLiteral("/.ssh/authorized_keys"));
        QVERIFY(keys.open(QIODevice::ReadOnly));
        QCOMPARE(keys.readAll(), line.toUtf8() + '\n');
        QCOMPARE(keys.permissions() & 0x0777, QFileDevice::ReadUser | QFileDevice::WriteUser);
    }

    void nothingInjectedRan()
    {
        QVERIFY2(!QFile::exists(m_canary), "an injected command ran");
        QVERIFY2(QDir(m_home.filePath(QStringLiteral("canaries"))).isEmpty(), "an injected command ran");
    }

    void cleanupTestCase() { m_server.stop(); }
};

QTEST_GUILESS_MAIN(TestQuoting)
#include "tst_quoting.moc"

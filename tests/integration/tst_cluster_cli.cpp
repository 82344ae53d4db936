// The cluster commands of the CLI, run as a user runs them, against two real sshd
// servers: create (key generation and deployment, host keys), show, list, node list,
// node exec (exit code, Ctrl-C ending the remote command), resize (to 0 and back),
// probe (streamed PASS/FAIL lines with hints), setup logs, the setup task on demand
// (every node, one node, a failing task's exit code), --query, and delete: the cluster's key
// leaves every node's authorized_keys and the head node, and nothing else does.
#include "IntegrationTest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <csignal>

class TestClusterCli : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    TestAccount m_user;
    SshServer m_node1;
    SshServer m_node2;

    ProgramRun cli(const QStringList &arguments, const QString &home = {}, int timeoutMs = 120000)
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), home.isEmpty() ? m_home.dataDir() : home);
        env.insert(QStringLiteral("TRAINDESK_SSH_PASSWORD"), m_user.password());
        // The nodes are this machine: point the trainer lookup at an empty folder, so that
        // "trainer not installed" holds whether or not this build made the trainer.
        env.insert(QStringLiteral("TRAINDESK_TRAINER_DIR"), m_home.dataDir() + QStringLiteral("/no-trainer"));
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        QStringList args = arguments;
        // An ordinary user's account has a key and no password: creates log in with it.
        if (!m_user.keyFile().isEmpty() && args.mid(0, 2) == QStringList{"cluster", "create"})
            args << QStringLiteral("--ssh-key") << m_user.keyFile();
        return runProgram(QStringLiteral(TRAINDESK_CLI), args, env, timeoutMs);
    }
    QString nodes() const
    {
        return QStringLiteral("%1@127.0.0.2:%2,%1@127.0.0.3:%3").arg(m_user.name()).arg(m_node1.port()).arg(m_node2.port());
    }
    static QStringList summaryRow(const ProgramRun &r)
    {
        // Name, State, Idle, Running, Preparing, Leaving, Unusable
        return r.out.split(QLatin1Char('\n')).value(2).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase()
    {
        // As an ordinary user the servers run as that user and let it in with its key only.
        QVERIFY2(m_user.create(m_home.path()), qPrintable(m_user.error()));
        SshServer::Options options;
        options.passwordAuthentication = true;
        m_user.configure(options);
        options.address = QStringLiteral("127.0.0.2");
        QVERIFY2(m_node1.start(m_home.filePath(QStringLiteral("sshd1")), options), qPrintable(m_node1.error()));
        options.address = QStringLiteral("127.0.0.3");
        QVERIFY2(m_node2.start(m_home.filePath(QStringLiteral("sshd2")), options), qPrintable(m_node2.error()));
    }

    void unknownHostKeysNeedTheFlag()
    {
        const ProgramRun r = cli({"cluster", "create", "-n", "refused", "--nodes", nodes(), "--generate-ssh-keys"},
                          m_home.filePath(QStringLiteral("other-data")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("not known yet")) && r.err.contains(m_node1.hostKeyFingerprint())
                     && r.err.contains(QLatin1String("--accept-new-host-keys")),
                 qPrintable(r.describe()));
    }

    void createShowAndList()
    {
        const ProgramRun created = cli({"cluster", "create", "-n", "c", "--nodes", nodes(), "--generate-ssh-keys",
                                 "--accept-new-host-keys", "--setup-task", "echo ready on $AZ_BATCHAI_NODE_NAME"});
        QVERIFY2(created.exitCode == 0, qPrintable(created.describe()));
        QVERIFY2(created.err.contains(QLatin1String("key deployed")), qPrintable(created.err));
        // New host keys are shown as OpenSSH shows them.
        QVERIFY2(created.err.contains(QStringLiteral("trusting the new host key of [127.0.0.2]:%1: ssh-ed25519 %2")
                                          .arg(m_node1.port()).arg(m_node1.hostKeyFingerprint())),
                 qPrintable(created.err));
        QCOMPARE(summaryRow(created), QStringList({"c", "steady", "2", "0", "0", "0", "0"}));
        QVERIFY2(m_user.password().isEmpty() || (!created.out.contains(m_user.password()) && !created.err.contains(m_user.password())),
                 "password printed");

        const ProgramRun shown = cli({"cluster", "show", "-n", "c", "-o", "json"});
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.describe()));
        const QJsonObject json = QJsonDocument::fromJson(shown.out.toUtf8()).object();
        QCOMPARE(json.value("allocationState").toString(), QStringLiteral("steady"));
        QCOMPARE(json.value("nodeStateCounts").toObject().value("idleNodeCount").toInt(), 2);
        // The tutorial's `az batchai cluster show -n C --query nodeStateCounts`, and -c for -n.
        for (const char *nameFlag : {"-n", "-c"}) {
            const ProgramRun counts = cli({"cluster", "show", nameFlag, "c", "--query", "nodeStateCounts"});
            QVERIFY2(counts.exitCode == 0, qPrintable(counts.describe()));
            QCOMPARE(QJsonDocument::fromJson(counts.out.toUtf8()).object(), json.value("nodeStateCounts").toObject());
        }
        const ProgramRun idle = cli({"cluster", "show", "-n", "c", "--query", "nodeStateCounts.idleNodeCount"});
        QCOMPARE(idle.out, QStringLiteral("2\n"));
        const ProgramRun hosts = cli({"cluster", "node", "list", "-c", "c", "--query", "[*].host", "-o", "json"});
        QCOMPARE(QJsonDocument::fromJson(hosts.out.toUtf8()).array(), QJsonArray({"127.0.0.2", "127.0.0.3"}));
        // az's projections: an object of the named paths for each element.
        const ProgramRun picked = cli({"cluster", "node", "list", "-c", "c", "--query", "[].{host:host, first:name, no:missing}"});
        QVERIFY2(picked.exitCode == 0, qPrintable(picked.describe()));
        const QJsonArray pickedArray = QJsonDocument::fromJson(picked.out.toUtf8()).array();
        QCOMPARE(pickedArray.size(), 2);
        const QString secondName = cli({"cluster", "node", "list", "-c", "c", "--query", "[1].name"}).out.trimmed();
        QCOMPARE(pickedArray.at(1).toObject(),
                 (QJsonObject{{"host", "127.0.0.3"}, {"first", secondName}, {"no", QJsonValue::Null}}));
        const ProgramRun unclosed = cli({"cluster", "node", "list", "-c", "c", "--query", "[].{host:host"});
        QVERIFY(unclosed.exitCode != 0 && unclosed.err.contains("'{' without '}'"));

        const ProgramRun list = cli({"cluster", "list"});
        QVERIFY(list.out.contains(QRegularExpression(QStringLiteral("\\nc\\s+steady\\s+2"))));
        const ProgramRun nodeList = cli({"cluster", "node", "list", "-c", "c", "-o", "json"});
        const QJsonArray array = QJsonDocument::fromJson(nodeList.out.toUtf8()).array();
        QCOMPARE(array.size(), 2);
        QCOMPARE(array.at(0).toObject().value("host").toString(), QStringLiteral("127.0.0.2"));
        QCOMPARE(array.at(1).toObject().value("state").toString(), QStringLiteral("idle"));

        const ProgramRun logs = cli({"cluster", "node", "setup-logs", "-c", "c"});
        QVERIFY2(logs.exitCode == 0, qPrintable(logs.describe()));
        QCOMPARE(logs.out.count(QLatin1String("-stdout.txt")), 2);
    }

    void setupRunsAgain()
    {
        ProgramRun r = cli({"cluster", "setup", "-n", "c"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        // Each step as it happens on stderr, the runs on stdout.
        for (const char *step : {"node 127.0.0.2: running the setup task", "node 127.0.0.3: setup task succeeded"})
            QVERIFY2(r.err.contains(QLatin1String(step)), qPrintable(r.describe()));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n127\\.0\\.0\\.2\\s+0\\s+\\S+-stdout\\.txt"))),
                 qPrintable(r.describe()));
        QCOMPARE(r.out.count(QLatin1String("-stdout.txt")), 2);

        r = cli({"cluster", "setup", "-n", "c", "--node", "127.0.0.3", "-o", "json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QJsonArray runs = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(runs.size(), 1);
        const QJsonObject run = runs.first().toObject();
        QCOMPARE(run.value("node").toString(), QStringLiteral("127.0.0.3"));
        QCOMPARE(run.value("exitCode").toInt(-1), 0);
        QFile out(run.value("stdout").toString());
        QVERIFY(out.open(QIODevice::ReadOnly));
        QCOMPARE(out.readAll(), QByteArray("ready on 127.0.0.3\n"));

        r = cli({"cluster", "setup", "-n", "c", "--node", "nope"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("cluster 'c' has no node 'nope'")), qPrintable(r.describe()));

        // A task that fails: its exit code in the table, the command fails naming the node.
        const QString node1 = nodes().section(QLatin1Char(','), 0, 0);
        r = cli({"cluster", "create", "-n", "failing", "--nodes", node1, "--generate-ssh-keys", "--setup-task",
                 "echo no >&2; exit 4"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        r = cli({"cluster", "setup", "-n", "failing"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\n127\\.0\\.0\\.2\\s+4\\s"))), qPrintable(r.describe()));
        QVERIFY2(r.err.contains(QLatin1String("error: node 127.0.0.2: setup task failed with exit code 4")),
                 qPrintable(r.describe()));
        QVERIFY(cli({"cluster", "delete", "-n", "failing"}).exitCode == 0);
    }

    void nodeExec()
    {
        const ProgramRun r = cli({"cluster", "node", "exec", "-c", "c", "-n", "127.0.0.3", "--exec", "echo out; echo err >&2; exit 3"});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.out, QStringLiteral("out\n"));
        QCOMPARE(r.err, QStringLiteral("err\n"));
    }

    void interruptEndsTheRemoteCommand()
    {
        const QString pidFile = m_user.home() + QStringLiteral("/exec.pid");  // written by the node's user
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.dataDir());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TRAINDESK_CLI), {"cluster", "node", "exec", "-c", "c", "-n", "127.0.0.2", "--exec",
                                                QStringLiteral("sleep 300 & echo $! > %1; wait").arg(pidFile)});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile(pidFile).size() > 0, 20000);
        QFile f(pidFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qint64 sleeper = f.readAll().trimmed().toLongLong();
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QLatin1String("cancelled")));
        QTRY_VERIFY_WITH_TIMEOUT(::kill(pid_t(sleeper), 0) != 0, 5000);
    }

    void resizeToZeroAndBack()
    {
        ProgramRun r = cli({"cluster", "resize", "-n", "c", "-t", "1"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(summaryRow(r), QStringList({"c", "steady", "1", "0", "0", "0", "0"}));
        r = cli({"cluster", "resize", "-n", "c", "-t", "0"});
        QCOMPARE(summaryRow(r), QStringList({"c", "steady", "0", "0", "0", "0", "0"}));
        r = cli({"cluster", "show", "-n", "c"});
        QCOMPARE(summaryRow(r), QStringList({"c", "steady", "0", "0", "0", "0", "0"}));
        r = cli({"cluster", "resize", "-n", "c", "-t", "2"});
        QCOMPARE(summaryRow(r), QStringList({"c", "steady", "2", "0", "0", "0", "0"}));
        r = cli({"cluster", "resize", "-n", "c", "-t", "5"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("from 0 to 2")), qPrintable(r.err));
    }

    void probePrintsEachCheck()
    {
        const ProgramRun r = cli({"cluster", "probe", "-n", "c"});
        for (const char *line : {"PASS 127.0.0.2  Reachable", "PASS 127.0.0.3  Authenticated", "PASS 127.0.0.3  SSH from the head node",
                                 "PASS 127.0.0.2  Open MPI", "PASS Network the nodes share"})
            QVERIFY2(r.out.contains(QLatin1String(line)), qPrintable(r.describe()));
        // The bundled trainer is not installed on these nodes: a FAIL with a hint, exit 1.
        QVERIFY2(r.out.contains(QLatin1String("FAIL 127.0.0.2  Trainer")) && r.out.contains(QLatin1String("hint: ")),
                 qPrintable(r.out));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("checks failed")), qPrintable(r.err));
    }

    // The cluster's own key pair here (<data>/ssh/clusters/<installation id>-<cluster id>-<name>/id_ed25519).
    QString clusterKeyPath(const QString &cluster) const
    {
        const QDir dir(m_home.dataDir() + QStringLiteral("/ssh/clusters"));
        const QStringList found = dir.entryList({QStringLiteral("*-") + cluster}, QDir::Dirs);
        return found.size() == 1 ? dir.filePath(found.first() + QStringLiteral("/id_ed25519")) : QString();
    }
    static QString publicKeyLine(const QString &privateKeyPath)
    {
        return QString::fromUtf8(IntegrationHome::publicKeyOf(privateKeyPath)).trimmed();
    }
    QStringList authorizedKeys() const
    {
        QFile f(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                           : QStringList();
    }
    void appendAuthorizedKey(const QString &line) const
    {
        QFile f(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));
        QVERIFY(f.open(QIODevice::Append));
        f.write(line.toUtf8() + '\n');
    }

    void deleteCluster()
    {
        const QString key = clusterKeyPath(QStringLiteral("c"));
        QVERIFY2(!key.isEmpty() && QFile::exists(key), qPrintable(m_home.dataDir()));
        const QString keyLine = publicKeyLine(key);
        QVERIFY(keyLine.endsWith(QLatin1String(" traindesk-cluster-c")));
        // Both nodes are this machine's one test user: one authorized_keys, one home.
        QCOMPARE(authorizedKeys().count(keyLine), 1);
        const QString headFolder = m_user.home() + QStringLiteral("/.traindesk/clusters/") + QFileInfo(QFileInfo(key).path()).fileName();
        for (const char *file : {"id_ed25519", "id_ed25519.pub", "known_hosts", "ssh_config"})
            QVERIFY2(QFile::exists(headFolder + QLatin1Char('/') + QLatin1String(file)), file);
        // Lines that are not exactly TrainDesk's are the user's: the same key with options, another key.
        const QString withOptions = QStringLiteral("from=\"10.0.0.1\" ") + keyLine;
        const QString usersKey = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeUsersOwnKeyForThisTest me@laptop");
        appendAuthorizedKey(withOptions);
        appendAuthorizedKey(usersKey);
        QStringList expected = authorizedKeys();
        expected.removeAll(keyLine);
        const QFileInfo before(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));

        ProgramRun r = cli({"cluster", "delete", "-n", "c"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        // One of the two nodes removes the line (they share the file), the other finds none.
        QCOMPARE(r.out.count(QLatin1String("removed the cluster key from ~/.ssh/authorized_keys")), 1);
        QCOMPARE(r.out.count(QLatin1String("holds no cluster key")), 1);
        for (const QString &line : {QStringLiteral("  node 127.0.0.2: removed the cluster's key pair, known_hosts and "
                                                   "ssh_config from ~/.traindesk/clusters/"),
                                    QStringLiteral("  removed the cluster's key pair from this computer")})
            QVERIFY2(r.out.contains(line), qPrintable(r.describe()));
        QVERIFY2(!r.err.contains(QLatin1String("warning")), qPrintable(r.describe()));
        QCOMPARE(authorizedKeys(), expected);
        QVERIFY(authorizedKeys().contains(withOptions) && authorizedKeys().contains(usersKey));
        const QFileInfo after(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));
        QCOMPARE(after.ownerId(), before.ownerId());
        QCOMPARE(after.permissions(), before.permissions());
        QVERIFY2(!QFileInfo::exists(headFolder), qPrintable(headFolder));
        QVERIFY(!QFile::exists(key) && !QFile::exists(key + QStringLiteral(".pub")));

        r = cli({"cluster", "show", "-n", "c"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("not found")));
    }

    void deleteWithANodeDown()
    {
        ProgramRun r = cli({"cluster", "create", "-n", "down", "--nodes", nodes(), "--generate-ssh-keys"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QString key = clusterKeyPath(QStringLiteral("down"));
        const QString keyLine = publicKeyLine(key);
        QCOMPARE(authorizedKeys().count(keyLine), 1);
        m_node2.stop();
        r = cli({"cluster", "delete", "-c", "down"});
        QVERIFY(m_node2.restart());
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        // The node that did not answer is named, with the line it still holds.
        QVERIFY2(r.err.contains(QStringLiteral("warning: node 127.0.0.3 ")) && r.err.contains(keyLine),
                 qPrintable(r.describe()));
        QVERIFY2(r.out.contains(QLatin1String("  node 127.0.0.2: removed the cluster key")), qPrintable(r.describe()));
        QCOMPARE(authorizedKeys().count(keyLine), 0);  // the head node's home is the same one
        r = cli({"cluster", "show", "-n", "down"});
        QCOMPARE(r.exitCode, 1);

        // --keep-keys leaves everything where it is.
        r = cli({"cluster", "create", "-n", "kept", "--nodes", nodes(), "--generate-ssh-keys"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QString keptKey = clusterKeyPath(QStringLiteral("kept"));
        r = cli({"cluster", "delete", "-n", "kept", "--keep-keys"});
        QVERIFY2(r.exitCode == 0 && !r.out.contains(QLatin1String("removed")), qPrintable(r.describe()));
        QCOMPARE(authorizedKeys().count(publicKeyLine(keptKey)), 1);
        QVERIFY(QFile::exists(keptKey));
    }

    void keyOnlyNodeTakesTheDefaultIdentity()
    {
        // Issue #28: no password, no -k, the user's key in ~/.ssh: TrainDesk logs in with it,
        // as ssh would, and deploys its own key over that login.
        const QString home = m_home.filePath(QStringLiteral("key-only-home"));
        QVERIFY(QDir().mkpath(home + QStringLiteral("/.ssh")));
        const QString identity = home + QStringLiteral("/.ssh/id_ed25519");
        if (m_user.keyFile().isEmpty()) {
            const QString made = m_home.makeClientKey(QStringLiteral("users_default_key"));
            QVERIFY(QFile::copy(made, identity));
            appendAuthorizedKey(publicKeyLine(made));
        } else {
            QVERIFY(QFile::copy(m_user.keyFile(), identity));
        }
        QVERIFY(QFile::setPermissions(identity, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.filePath(QStringLiteral("key-only-data")));
        env.insert(QStringLiteral("HOME"), home);
        env.remove(QStringLiteral("TRAINDESK_SSH_PASSWORD"));
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        const QString node1 = QStringLiteral("%1@127.0.0.2:%2").arg(m_user.name()).arg(m_node1.port());
        const ProgramRun r = runProgram(QStringLiteral(TRAINDESK_CLI),
                                        {"cluster", "create", "-n", "keyonly", "--nodes", node1, "--generate-ssh-keys",
                                         "--accept-new-host-keys"},
                                        env, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    }

    void cleanupTestCase()
    {
        m_node1.stop();
        m_node2.stop();
    }
};

QTEST_GUILESS_MAIN(TestClusterCli)
#include "tst_cluster_cli.moc"

// Shares on SSH clusters, on two real sshd servers (127.0.0.2 = n1, the head node, and
// 127.0.0.3 = n2). Both are this machine, so every path is "shared", except one folder:
// n2 runs in a mount namespace of its own with an empty tmpfs over node2-disk/, a disk of
// its own that n1 does not see (and the test sees what n1 sees). That makes the two
// things a single machine cannot otherwise show: a path only one node sees (a cluster share
// there is refused) and a replicated upload that lands on each node's own disk (n2's copy is
// read through n2). Cluster shares round trip (directory, upload with progress, list,
// download byte-equal), a cancelled upload leaves nothing, bad inputs are refused with exact
// messages and nothing left behind, a job on both nodes reads the uploaded files through
// $AZ_BATCHAI_JOB_MOUNT_ROOT/<share>, and the CLI's share commands run end to end.
#include "IntegrationTest.h"
#include "../core/NameSwapper.h"

#include "cluster/ClusterService.h"
#include "common/ShellQuote.h"
#include "datasets/DataSetPresenceCheck.h"
#include "datasets/DataSetShareFetch.h"
#include "datasets/FileDigest.h"
#include "jobs/JobSubmission.h"
#include "session/Backend.h"
#include "shares/ShareService.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QThread>
#include <QElapsedTimer>

#include <signal.h>

using namespace TrainDesk;

class TestShares : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    TestAccount m_user;
    SshServer m_node1;
    SshServer m_node2;
    Store m_store;
    qint64 m_clusterId = 0;

    QString shared(const QString &name) const { return m_home.filePath(QStringLiteral("shared/") + name); }
    QString nodeDisk(const QString &name) const { return m_home.filePath(QStringLiteral("node2-disk/") + name); }

    static bool writeFile(const QString &path, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
    }
    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
    }
    static QByteArray randomBytes(int size)
    {
        QByteArray data(size, Qt::Uninitialized);
        QRandomGenerator generator(42);
        for (char &c : data)
            c = char(generator.generate() & 0xff);
        return data;
    }

    Share createShare(const QString &name, ShareKind kind, const QString &path)
    {
        const auto share = ShareService(m_store).create({QStringLiteral("ws"), name, kind, path, QStringLiteral("c1")});
        if (!share)
            qFatal("cannot create share %s: %s", qPrintable(name), qPrintable(share.error()));
        return *share;
    }

    // What node n2 sees at `path`.
    QByteArray readOnNode2(const QString &path)
    {
        const auto cluster = m_store.clusterById(m_clusterId);
        const auto transport = openTransport(*cluster, m_store.nodes(m_clusterId).at(1));
        const auto read = (*transport)->exec(QStringLiteral("cat ") + shellQuote(path));
        return read && read->exitCode == 0 ? read->stdOut : QByteArray("<missing on n2>");
    }

    // What n2 has in `folder`, hidden entries too, one name a line.
    QString listOnNode2(const QString &folder)
    {
        const auto cluster = m_store.clusterById(m_clusterId);
        const auto transport = openTransport(*cluster, m_store.nodes(m_clusterId).at(1));
        const auto listed = (*transport)->exec(QStringLiteral("ls -A ") + shellQuote(folder));
        return listed && listed->exitCode == 0 ? QString::fromUtf8(listed->stdOut) : QStringLiteral("<no folder on n2>");
    }
    bool execOnNode2(const QString &command)
    {
        const auto cluster = m_store.clusterById(m_clusterId);
        const auto transport = openTransport(*cluster, m_store.nodes(m_clusterId).at(1));
        const auto run = (*transport)->exec(command);
        return run && run->exitCode == 0;
    }
    // Where uploads to the nodes are staged (n1 and n2 share the test user's home).
    QString staging() const { return m_user.home() + QStringLiteral("/.traindesk/staging"); }
    static QString listHere(const QString &folder)
    {
        QString names;
        for (const QString &name : QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name))
            names += name + QLatin1Char('\n');
        return names;
    }

    QProcess *startCli(const QStringList &arguments)
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.dataDir());
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        auto *p = new QProcess(this);
        p->setProcessEnvironment(env);
        p->start(QStringLiteral(TRAINDESK_CLI), arguments);
        return p;
    }

    ProgramRun cli(const QStringList &arguments)
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRAINDESK_HOME"), m_home.dataDir());
        env.remove(QStringLiteral("SSH_AUTH_SOCK"));
        return runProgram(QStringLiteral(TRAINDESK_CLI), arguments, env);
    }

private slots:
    void initTestCase()
    {
        // As an ordinary user the servers run as that user and let it in with its key only.
        QVERIFY2(m_user.create(m_home.path()), qPrintable(m_user.error()));
        // Folders the test user may write into (n1's view of node2-disk among them).
        for (const char *name : {"shared", "node2-disk", "tmp-n1", "tmp-n2"}) {
            QVERIFY(QDir().mkpath(m_home.filePath(QLatin1String(name))));
            QVERIFY(QFile::setPermissions(m_home.filePath(QLatin1String(name)), QFileDevice::Permissions(0x7777)));
        }
        SshServer::Options options;
        options.passwordAuthentication = true;
        options.address = QStringLiteral("127.0.0.2");
        // Each node has a temporary folder of its own, as separate machines do (mpirun).
        options.extraConfig = {QStringLiteral("SetEnv TMPDIR=%1").arg(m_home.filePath(QStringLiteral("tmp-n1")))};
        m_user.configure(options);
        QVERIFY2(m_node1.start(m_home.filePath(QStringLiteral("sshd1")), options), qPrintable(m_node1.error()));
        options.address = QStringLiteral("127.0.0.3");
        options.extraConfig = {QStringLiteral("SetEnv TMPDIR=%1").arg(m_home.filePath(QStringLiteral("tmp-n2")))};
        m_user.configure(options);
        options.privateFolder = m_home.filePath(QStringLiteral("node2-disk"));
        QVERIFY2(m_node2.start(m_home.filePath(QStringLiteral("sshd2")), options), qPrintable(m_node2.error()));

        QVERIFY(m_store.open(m_home.dataDir() + QStringLiteral("/traindesk.db")));
        const auto ws = m_store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        QVERIFY(m_store.createExperiment(ws->id, QStringLiteral("exp")));
        CreateClusterRequest r;
        r.workspace = QStringLiteral("ws");
        r.name = QStringLiteral("c1");
        for (const auto &[name, server] : {std::pair{"n1", &m_node1}, std::pair{"n2", &m_node2}}) {
            r.nodes << QStringLiteral("%1=%2@%3:%4").arg(QLatin1String(name), m_user.name(), server->address())
                           .arg(server->port());
        }
        r.password = m_user.password();
        r.keyFile = m_user.keyFile();
        r.generateSshKeys = true;
        r.acceptNewHostKeys = true;
        r.connectTimeoutMs = 5000;
        const auto cluster = ClusterService(m_store).create(r);
        QVERIFY2(cluster, qPrintable(cluster.error()));
        m_clusterId = cluster->id;
        // The premise of the tests below: n2 does not see n1's node2-disk.
        QVERIFY(writeFile(nodeDisk(QStringLiteral("only-n1")), "n1"));
        QCOMPARE(readOnNode2(nodeDisk(QStringLiteral("only-n1"))), QByteArray("<missing on n2>"));
        QFile::remove(nodeDisk(QStringLiteral("only-n1")));
    }

    void clusterShareRoundTrip()
    {
        ShareService service(m_store);
        const Share share = createShare(QStringLiteral("nfs"), ShareKind::ClusterPath, shared(QStringLiteral("nfs")));
        QCOMPARE(toString(share.kind), QStringLiteral("cluster"));
        QCOMPARE(share.clusterId, m_clusterId);
        QCOMPARE(share.path, shared(QStringLiteral("nfs")));
        QVERIFY(QFileInfo(share.path).isDir());
        QCOMPARE(QDir(share.path).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());

        const auto made = service.createDirectory(share, QStringLiteral("cifar"));
        QVERIFY2(made, qPrintable(made.error()));
        QCOMPARE(*made, share.path + QStringLiteral("/cifar"));
        QVERIFY(QFileInfo(*made).isDir());

        const QByteArray big = randomBytes(3 * 1024 * 1024 + 17);
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("src/data.bin")), big));
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("src/script.txt")), "print('hello from the share')\n"));
        const qint64 total = big.size() + 30;
        qint64 last = -1;
        bool monotonic = true;
        QStringList filesSeen;
        const auto outcome = service.upload(share, QStringLiteral("cifar"),
                                            {m_home.filePath(QStringLiteral("src/data.bin")),
                                             m_home.filePath(QStringLiteral("src/script.txt"))},
                                            nullptr, [&](qint64 done, qint64 all, const QString &file) {
                                                monotonic = monotonic && done >= last && all == total;
                                                last = done;
                                                if (!file.isEmpty() && !filesSeen.contains(file))
                                                    filesSeen << file;
                                            });
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.copied, 2);
        QVERIFY(monotonic);
        QCOMPARE(last, total);
        QCOMPARE(filesSeen, QStringList({QStringLiteral("data.bin"), QStringLiteral("script.txt")}));
        QCOMPARE(readFile(*made + QStringLiteral("/data.bin")), big);

        const auto entries = service.listFiles(share, QStringLiteral("cifar"));
        QVERIFY2(entries, qPrintable(entries.error()));
        QCOMPARE(entries->size(), 2);
        QCOMPARE(entries->at(0).name, QStringLiteral("data.bin"));
        QCOMPARE(entries->at(0).size, qint64(big.size()));
        QVERIFY(!entries->at(0).isDirectory);
        QCOMPARE(*service.folders(share), QStringList{QStringLiteral("cifar")});

        qint64 downloaded = 0;
        TransferOptions options;
        options.progress = [&](qint64 done, qint64) { downloaded = done; };
        const auto local = service.download(share, QStringLiteral("cifar/data.bin"), m_home.filePath(QStringLiteral("down")),
                                            options);
        QVERIFY2(local, qPrintable(local.error()));
        QCOMPARE(local->localPath, m_home.filePath(QStringLiteral("down/data.bin")));
        QVERIFY(!local->unchanged);
        QCOMPARE(readFile(local->localPath), big);
        QCOMPARE(downloaded, qint64(big.size()));
        QVERIFY(!service.download(share, QStringLiteral("cifar/none.bin"), m_home.filePath(QStringLiteral("down"))));
        // Issue #28: a second download never replaces a changed local file silently.
        const auto again = service.download(share, QStringLiteral("cifar/data.bin"), m_home.filePath(QStringLiteral("down")));
        QVERIFY2(again && again->unchanged, qPrintable(again ? QStringLiteral("replaced") : again.error()));
        QFile edited(local->localPath);
        QVERIFY(edited.open(QIODevice::WriteOnly));
        edited.write("my edits");
        edited.close();
        const auto refused = service.download(share, QStringLiteral("cifar/data.bin"), m_home.filePath(QStringLiteral("down")));
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains("exists and differs from cifar/data.bin of share"), qPrintable(refused.error()));
        QCOMPARE(readFile(local->localPath), QByteArray("my edits"));
        QVERIFY(QDir(m_home.filePath(QStringLiteral("down"))).entryList(QDir::Files | QDir::Hidden) == QStringList{"data.bin"});
        QVERIFY(service.download(share, QStringLiteral("cifar/data.bin"), m_home.filePath(QStringLiteral("down")), {}, true));
        QCOMPARE(readFile(local->localPath), big);
    }

    void clusterShareOnAPathOneNodeSeesIsRefused()
    {
        const QString path = nodeDisk(QStringLiteral("not-shared/share"));
        const auto share = ShareService(m_store).create({QStringLiteral("ws"), QStringLiteral("lonely"),
                                                         ShareKind::ClusterPath, path, QStringLiteral("c1")});
        QVERIFY(!share);
        QCOMPARE(share.error(), QStringLiteral("share 'lonely': path %1 is not shared: node n2 does not see the file node "
                                               "n1 wrote there (a cluster share needs a path that is the same on every "
                                               "node, such as an NFS mount; make a replicated share otherwise)")
                                    .arg(path));
        // Nothing left behind: no record, and the folders the head node made are gone.
        QVERIFY(!m_store.share(m_store.workspace(QStringLiteral("ws"))->id, QStringLiteral("lonely")));
        QVERIFY(!QFileInfo::exists(nodeDisk(QStringLiteral("not-shared"))));
    }

    void clusterShareWhereTheHeadCannotWriteIsRefused()
    {
        // A folder that no one but root may write into (read-only to its owner too, so that
        // it holds whether the nodes' user is a throwaway one or the user running the test).
        const QString locked = m_home.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(locked));
        QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions(0x5555)));
        const auto share = ShareService(m_store).create({QStringLiteral("ws"), QStringLiteral("locked"),
                                                         ShareKind::ClusterPath, locked + QStringLiteral("/share"),
                                                         QStringLiteral("c1")});
        QVERIFY(!share);
        QVERIFY2(share.error().startsWith(QStringLiteral("share 'locked': node n1: ")), qPrintable(share.error()));
        QVERIFY2(share.error().contains(locked + QStringLiteral("/share")), qPrintable(share.error()));
        QVERIFY(!QFileInfo::exists(locked + QStringLiteral("/share")));
    }

    void replicatedUploadLandsOnEveryNode()
    {
        ShareService service(m_store);
        const QString path = nodeDisk(QStringLiteral("rep"));
        const Share share = createShare(QStringLiteral("rep"), ShareKind::Replicated, path);
        QCOMPARE(toString(share.kind), QStringLiteral("replicated"));
        QVERIFY(QFileInfo(path).isDir());  // n1's
        QVERIFY(service.createDirectory(share, QStringLiteral("cifar")));
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("src/train.txt")), "replicated bytes\n"));
        qint64 last = 0, total = 0;
        const auto outcome = service.upload(share, QStringLiteral("cifar"), {m_home.filePath(QStringLiteral("src/train.txt"))},
                                            nullptr, [&](qint64 done, qint64 all, const QString &) {
                                                last = done;
                                                total = all;
                                            });
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(total, qint64(2 * 17));  // the bytes for both nodes
        QCOMPARE(last, total);
        QCOMPARE(readFile(path + QStringLiteral("/cifar/train.txt")), QByteArray("replicated bytes\n"));
        QCOMPARE(readOnNode2(path + QStringLiteral("/cifar/train.txt")), QByteArray("replicated bytes\n"));
        // Reads come from the head node.
        const auto entries = service.listFiles(share, QStringLiteral("cifar"));
        QVERIFY2(entries, qPrintable(entries.error()));
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().name, QStringLiteral("train.txt"));
    }

    void deletedFromEveryNode()
    {
        // A folder and a file of their own on the cluster share and the replicated one.
        ShareService service(m_store);
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("src/gone.txt")), "to be deleted\n"));
        for (const QString &name : {QStringLiteral("nfs"), QStringLiteral("rep")}) {
            const auto share = service.find(QStringLiteral("ws"), name);
            QVERIFY2(share, qPrintable(share.error()));
            const auto outcome = service.upload(*share, QStringLiteral("trash/inner"), {m_home.filePath(QStringLiteral("src/gone.txt"))});
            QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
            QCOMPARE(readOnNode2(share->path + QStringLiteral("/trash/inner/gone.txt")), QByteArray("to be deleted\n"));
            QVERIFY2(service.deletePath(*share, QStringLiteral("trash/inner/gone.txt")), qPrintable(name));
            QCOMPARE(readOnNode2(share->path + QStringLiteral("/trash/inner/gone.txt")), QByteArray("<missing on n2>"));
            QVERIFY(!QFileInfo::exists(share->path + QStringLiteral("/trash/inner/gone.txt")));
            QVERIFY(QFileInfo(share->path + QStringLiteral("/trash/inner")).isDir());
            // A folder goes with what it holds, on every node.
            QVERIFY(service.upload(*share, QStringLiteral("trash/inner"), {m_home.filePath(QStringLiteral("src/gone.txt"))}).error.isEmpty());
            const auto removed = service.deletePath(*share, QStringLiteral("trash"));
            QVERIFY2(removed, qPrintable(removed.error()));
            QVERIFY(!QFileInfo::exists(share->path + QStringLiteral("/trash")));
            QCOMPARE(readOnNode2(share->path + QStringLiteral("/trash/inner/gone.txt")), QByteArray("<missing on n2>"));
            QCOMPARE(service.deletePath(*share, QStringLiteral("trash/..")).error(),
                     QStringLiteral("share '%1': name a file or folder to delete, not the share itself").arg(name));
            QCOMPARE(service.deletePath(*share, QStringLiteral("../../etc/passwd")).error(),
                     QStringLiteral("folder '../../etc/passwd' is outside share '%1'").arg(name));
        }
    }

    void dataSetReachesEveryNodeOfAReplicatedShare()
    {
        // A data set given by hand (--from): fetched into this machine's cache, verified, then
        // uploaded to each node with its manifest. Its only address refuses connections, so
        // the second fetch passes only if it neither downloads nor uploads.
        const QByteArray bytes = randomBytes(300000);
        const QString given = m_home.filePath(QStringLiteral("src/my-download.tgz"));
        QVERIFY(writeFile(given, bytes));
        const auto md5 = FileDigest::md5(given);
        QVERIFY2(md5, qPrintable(md5.error()));
        const DataSet set{QStringLiteral("tiny"), QStringLiteral("Tiny"), {}, {QStringLiteral("http://127.0.0.1:9/")},
                          {{QStringLiteral("tiny.tar.gz"), *md5}}, QStringLiteral("cifar10")};
        const QString path = nodeDisk(QStringLiteral("data"));
        const Share share = createShare(QStringLiteral("data"), ShareKind::Replicated, path);
        ShareService service(m_store);
        // What the GUI shows of it, read on the head node over SSH.
        const auto stateOnNodes = [&] {
            const auto presence = presenceInShare(service, share, QStringLiteral("tiny"), set);
            return presence ? toString(presence->state) : presence.error();
        };
        QCOMPARE(stateOnNodes(), QStringLiteral("absent"));
        FetchOptions options;
        options.from = {given};
        const auto first = fetchIntoShare(service, share, QStringLiteral("tiny"), set, options);
        QVERIFY2(first, qPrintable(first.error()));
        QCOMPARE(first->uploaded, 2);  // the file and the manifest
        QCOMPARE(first->folder, path + QStringLiteral("/tiny"));
        QCOMPARE(readFile(path + QStringLiteral("/tiny/tiny.tar.gz")), bytes);
        QCOMPARE(readOnNode2(path + QStringLiteral("/tiny/tiny.tar.gz")), bytes);
        QVERIFY(readOnNode2(path + QStringLiteral("/tiny/traindesk-dataset.json")).contains(md5->toLatin1()));
        QCOMPARE(stateOnNodes(), QStringLiteral("fetched"));
        QCOMPARE(presenceInShare(service, share, QStringLiteral("tiny"), set)->bytes, qint64(bytes.size()));

        const auto second = fetchIntoShare(service, share, QStringLiteral("tiny"), set, FetchOptions{});
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(second->uploaded, 0);
        QVERIFY(!second->fetched.changed);

        // A share whose copy is gone gets it again from the cache, still without a download.
        QVERIFY(QFile::remove(path + QStringLiteral("/tiny/tiny.tar.gz")));
        QCOMPARE(stateOnNodes(), QStringLiteral("absent"));
        const auto third = fetchIntoShare(service, share, QStringLiteral("tiny"), set, FetchOptions{});
        QVERIFY2(third, qPrintable(third.error()));
        QCOMPARE(third->uploaded, 2);
        QCOMPARE(readFile(path + QStringLiteral("/tiny/tiny.tar.gz")), bytes);
        QCOMPARE(stateOnNodes(), QStringLiteral("fetched"));
        QVERIFY(service.remove(QStringLiteral("ws"), QStringLiteral("data")));  // the CLI test lists the others
    }

    void cancelledUploadLeavesNothing()
    {
        ShareService service(m_store);
        const auto share = service.find(QStringLiteral("ws"), QStringLiteral("nfs"));
        QVERIFY(share);
        const QString source = m_home.filePath(QStringLiteral("src/huge.bin"));
        QVERIFY(writeFile(source, QByteArray(64 * 1024 * 1024, 'h')));
        CancelFlag cancel;
        const auto outcome = service.upload(*share, QStringLiteral("big"), {source}, &cancel,
                                            [&](qint64 done, qint64, const QString &) {
                                                if (done > 0)
                                                    cancel.cancel();
                                            });
        QCOMPARE(outcome.error, QStringLiteral("upload cancelled after 0 of 1 files"));
        QCOMPARE(outcome.copied, 0);
        const QDir big(share->path + QStringLiteral("/big"));
        QCOMPARE(big.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        QFile::remove(source);
    }

    void badInputsAreRefused()
    {
        ShareService service(m_store);
        const auto create = [&](const QString &name, ShareKind kind, const QString &path, const QString &cluster) {
            return service.create({QStringLiteral("ws"), name, kind, path, cluster}).error();
        };
        QCOMPARE(create("rel", ShareKind::ClusterPath, "relative/dir", "c1"),
                 QStringLiteral("path 'relative/dir' of share 'rel' must be an absolute path"));
        QCOMPARE(create("nocl", ShareKind::Replicated, shared("x"), "nope"),
                 QStringLiteral("share 'nocl': cluster 'nope' not found in workspace 'ws'"));
        QCOMPARE(create("nocl", ShareKind::Replicated, shared("x"), QString()),
                 QStringLiteral("share 'nocl' of kind replicated needs a cluster"));
        QCOMPARE(create("nopath", ShareKind::ClusterPath, QString(), "c1"),
                 QStringLiteral("share 'nopath' needs a path on the nodes"));
        QCOMPARE(create("nfs", ShareKind::ClusterPath, shared("other"), "c1"), QStringLiteral("share 'nfs' already exists"));
        QCOMPARE(create("bad name", ShareKind::ClusterPath, shared("other"), "c1"),
                 QStringLiteral("share name 'bad name' may contain only letters, digits, '-' and '_'"));
        QVERIFY(!QFileInfo::exists(shared("x")) && !QFileInfo::exists(shared("other")));

        const auto share = service.find(QStringLiteral("ws"), QStringLiteral("nfs"));
        QCOMPARE(service.createDirectory(*share, QStringLiteral("../escape")).error(),
                 QStringLiteral("folder '../escape' is outside share 'nfs'"));
        QCOMPARE(service.createDirectory(*share, QStringLiteral("/etc")).error(),
                 QStringLiteral("folder '/etc' must be relative to share 'nfs'"));
        QCOMPARE(service.upload(*share, QStringLiteral("a/../../b"), {m_home.filePath(QStringLiteral("src/script.txt"))}).error,
                 QStringLiteral("folder 'a/../../b' is outside share 'nfs'"));
        QCOMPARE(service.download(*share, QStringLiteral("../../etc/passwd"), m_home.filePath(QStringLiteral("down"))).error(),
                 QStringLiteral("folder '../../etc/passwd' is outside share 'nfs'"));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("escape"))));
    }

    void jobOnBothNodesReadsTheShares()
    {
        // Both nodes read the cluster share's script and their own copy of the replicated file
        // through the job's mount root, as the tutorial's job reads cifar/ on its share.
        const QByteArray read = "cat $AZ_BATCHAI_JOB_MOUNT_ROOT/nfs/cifar/script.txt "
                                "$AZ_BATCHAI_JOB_MOUNT_ROOT/rep/cifar/train.txt";
        const QJsonObject properties{{"nodeCount", 2},
                                     {"jobPreparation", QJsonObject{{"commandLine", QString::fromLatin1(read)}}},
                                     {"customToolkitSettings", QJsonObject{{"commandLine", QString::fromLatin1(read)}}},
                                     {"stdOutErrPathPrefix", "$AZ_BATCHAI_MOUNT_ROOT/logs"}};
        const QByteArray spec = QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
        const auto job = JobSubmission(m_store).submit({QStringLiteral("ws"), QStringLiteral("exp"), QStringLiteral("reads"),
                                                    QStringLiteral("c1"), spec});
        QVERIFY2(job, qPrintable(job.error()));
        const Job done = waitForJobEnd(m_store, job->id);
        const auto log = [&](const QString &name) { return readFile(done.jobDir + QStringLiteral("/stdouterr/") + name); };
        QVERIFY2(done.state == JobState::Succeeded,
                 qPrintable(toString(done.state) + QLatin1Char(' ')
                            + (done.errors.isEmpty() ? QString() : done.errors.first().message) + QLatin1Char(' ')
                            + QString::fromUtf8(log(QStringLiteral("stderr.txt")))));
        const QByteArray expected = "print('hello from the share')\nreplicated bytes\n";
        QCOMPARE(log(QStringLiteral("stdout-job_prep-n1.txt")), expected);
        QCOMPARE(log(QStringLiteral("stdout-job_prep-n2.txt")), expected);
        QCOMPARE(log(QStringLiteral("stdout.txt")), expected);
    }

    void guiWorkerCreatesAndUploads()
    {
        // The GUI's path: Backend -> JobMonitor's pool -> ShareService, with the folders of
        // the new share cached for the tree (not listed on every poll).
        Backend backend(m_home.dataDir() + QStringLiteral("/traindesk.db"), 100);
        QTRY_VERIFY_WITH_TIMEOUT(!backend.snapshot().workspaces.isEmpty(), 10000);
        QSignalSpy finished(&backend, &Backend::requestFinished);
        backend.createShare(CreateShareRequest{QStringLiteral("ws"), QStringLiteral("gui"), ShareKind::ClusterPath,
                                               shared(QStringLiteral("gui")), QStringLiteral("c1")});
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        const qint64 shareId = finished.at(0).at(1).toLongLong();
        QVERIFY(backend.snapshot().findShare(shareId));

        QSignalSpy progress(&backend, &Backend::uploadProgress);
        QSignalSpy uploaded(&backend, &Backend::uploadFinished);
        backend.uploadToShare(shareId, QStringLiteral("cifar"), {m_home.filePath(QStringLiteral("src/script.txt"))});
        QTRY_COMPARE_WITH_TIMEOUT(uploaded.count(), 1, 30000);
        QCOMPARE(uploaded.at(0).at(2).toString(), QString());  // request id, files copied, error
        QCOMPARE(uploaded.at(0).at(1).toInt(), 1);
        QVERIFY(progress.count() >= 1);
        QCOMPARE(progress.last().at(1).toLongLong(), progress.last().at(2).toLongLong());
        QCOMPARE(readFile(shared(QStringLiteral("gui/cifar/script.txt"))), QByteArray("print('hello from the share')\n"));
        QCOMPARE(backend.snapshot().shareFolders.value(shareId), QStringList{QStringLiteral("cifar")});

        // A folder made behind the app's back shows after Refresh, not by the poll.
        QVERIFY(QDir().mkpath(shared(QStringLiteral("gui/data"))));
        backend.pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(backend.snapshot().shareFolders.value(shareId),
                                  QStringList({QStringLiteral("cifar"), QStringLiteral("data")}), 30000);
    }

    void cliShareCommands()
    {
        ProgramRun r = cli({"share", "create", "-w", "ws", "-n", "clinfs", "--kind", "cluster", "--path", shared("clinfs"),
                     "-c", "c1"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\\nclinfs\\s+cluster\\s+c1\\s+") + shared("clinfs"))),
                 qPrintable(r.out));
        r = cli({"share", "directory", "create", "-w", "ws", "--share", "clinfs", "-n", "cifar"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY(QFileInfo(shared("clinfs/cifar")).isDir());

        const QByteArray data = randomBytes(1024 * 1024);
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("cli-src/model.bin")), data));
        r = cli({"share", "file", "upload", "-w", "ws", "--share", "clinfs", "--path", "cifar", "--source",
                 m_home.filePath(QStringLiteral("cli-src/model.bin")), "--source", m_home.filePath(QStringLiteral("src/script.txt"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(QLatin1String("upload: model.bin 0%")) && r.err.contains(QLatin1String("upload: script.txt 100%")),
                 qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("Uploaded 2 files to share 'clinfs'\n"));

        r = cli({"share", "file", "list", "-w", "ws", "--share", "clinfs", "--path", "cifar", "-o", "json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QJsonArray files = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(files.size(), 2);
        QCOMPARE(files.at(0).toObject().value("name").toString(), QStringLiteral("model.bin"));
        QCOMPARE(files.at(0).toObject().value("size").toInteger(), qint64(data.size()));

        r = cli({"share", "file", "download", "-w", "ws", "--share", "clinfs", "--path", "cifar/model.bin", "--dest",
                 m_home.filePath(QStringLiteral("cli-down"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY2(r.err.contains(QLatin1String("download: cifar/model.bin 100%")), qPrintable(r.err));
        QCOMPARE(readFile(m_home.filePath(QStringLiteral("cli-down/model.bin"))), data);

        r = cli({"share", "list", "-w", "ws", "-o", "json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QStringList names;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out.toUtf8()).array())
            names << v.toObject().value("name").toString() + QLatin1Char(':') + v.toObject().value("kind").toString();
        QCOMPARE(names, QStringList({"clinfs:cluster", "gui:cluster", "nfs:cluster", "rep:replicated"}));
        r = cli({"share", "show", "-w", "ws", "-n", "rep", "-o", "json"});
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value("cluster").toString(), QStringLiteral("c1"));

        // A local share without a path lives under the data directory.
        r = cli({"share", "create", "-w", "ws", "-n", "mine", "--kind", "local"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY(QFileInfo(m_home.dataDir() + QStringLiteral("/shares/ws/mine")).isDir());

        // Bad input: exit 1 with one line.
        r = cli({"share", "create", "-w", "ws", "-n", "odd", "--kind", "nfs", "--path", "/x"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QStringLiteral("error: --kind: expected local, cluster or replicated, found 'nfs'\n"));
        r = cli({"share", "create", "-w", "ws", "-n", "odd", "--kind", "cluster", "--path", "rel", "-c", "c1"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QStringLiteral("error: path 'rel' of share 'odd' must be an absolute path\n"));
        r = cli({"share", "file", "upload", "-w", "ws", "--share", "clinfs", "--path", "../up", "--source",
                 m_home.filePath(QStringLiteral("src/script.txt"))});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QStringLiteral("error: folder '../up' is outside share 'clinfs'\n"));

        r = cli({"share", "delete", "-w", "ws", "-n", "clinfs"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(r.out, QStringLiteral("Deleted share 'clinfs' (its files stay in %1)\n").arg(shared("clinfs")));
        QVERIFY(QFileInfo(shared("clinfs/cifar/model.bin")).isFile());
        r = cli({"share", "show", "-w", "ws", "-n", "clinfs"});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, QStringLiteral("error: share 'clinfs' not found\n"));
    }
    void concurrentUploadsOfOneNameAgreeOnEveryNode()
    {
        // 20 uploads of data.bin at once into a replicated share: every node ends with one whole
        // file, the same on both, equal to one of the sources, and nothing else in the folder.
        const QString path = nodeDisk(QStringLiteral("rep"));
        QList<QByteArray> sources;
        QList<QProcess *> runs;
        for (int i = 0; i < 20; ++i) {
            QByteArray data(2 * 1024 * 1024, Qt::Uninitialized);
            QRandomGenerator generator(1000 + i);
            for (char &c : data)
                c = char(generator.generate() & 0xff);
            const QString source = m_home.filePath(QStringLiteral("race-src/%1/data.bin").arg(i));
            QVERIFY(writeFile(source, data));
            sources << data;
        }
        for (int i = 0; i < 20; ++i) {
            runs << startCli({"share", "file", "upload", "-w", "ws", "--share", "rep", "--path", "race", "--source",
                              m_home.filePath(QStringLiteral("race-src/%1/data.bin").arg(i))});
        }
        int succeeded = 0;
        for (QProcess *p : std::as_const(runs)) {
            QVERIFY(p->waitForFinished(180000));
            if (p->exitCode() == 0)
                ++succeeded;
            else
                qWarning("an upload failed: %s", p->readAllStandardError().constData());
            delete p;
        }
        QCOMPARE(succeeded, 20);
        const QByteArray onN1 = readFile(path + QStringLiteral("/race/data.bin"));
        const qsizetype winner = sources.indexOf(onN1);
        QVERIFY2(winner >= 0, "the file on n1 equals none of the sources");
        QVERIFY2(readOnNode2(path + QStringLiteral("/race/data.bin")) == onN1, "n2 has another file than n1");
        QCOMPARE(listHere(path + QStringLiteral("/race")), QStringLiteral("data.bin\n"));
        QCOMPARE(listOnNode2(path + QStringLiteral("/race")), QStringLiteral("data.bin\n"));
    }

    void killedUploadsLeaveNothingThatListingsShow()
    {
        // 20 uploads killed (SIGKILL) at random moments: on each node the file is whole or absent,
        // listings show nothing else, and the next upload sweeps the killed ones' part files.
        const QString path = nodeDisk(QStringLiteral("rep"));
        const QString source = m_home.filePath(QStringLiteral("src/killed.bin"));
        QVERIFY(writeFile(source, randomBytes(24 * 1024 * 1024)));
        const QByteArray bytes = readFile(source);
        for (int i = 0; i < 20; ++i) {
            QProcess *p = startCli({"share", "file", "upload", "-w", "ws", "--share", "rep", "--path", "killed", "--source", source});
            QVERIFY(p->waitForStarted());
            if (i % 2 == 1) {
                // Half of them in the middle of the copy: once its staged copy is on n1 (in the
                // node user's staging folder, whence it is moved into the share when whole).
                QElapsedTimer waited;
                waited.start();
                const QString own = QStringLiteral("-%1-").arg(p->processId());
                while (!listHere(staging()).contains(own) && waited.elapsed() < 20000)
                    QThread::msleep(5);
            } else {
                QThread::msleep(QRandomGenerator::global()->bounded(1000));
            }
            ::kill(pid_t(p->processId()), SIGKILL);
            p->waitForFinished();
            delete p;
            for (const QByteArray &got : {readFile(path + QStringLiteral("/killed/killed.bin")),
                                          readOnNode2(path + QStringLiteral("/killed/killed.bin"))}) {
                QVERIFY2(got == bytes || got.startsWith("<missing"), "a killed upload left a partial file");
            }
        }
        ProgramRun r = cli({"share", "file", "list", "-w", "ws", "--share", "rep", "--path", "killed", "-o", "json"});
        if (r.exitCode == 0) {
            for (const QJsonValue &v : QJsonDocument::fromJson(r.out.toUtf8()).array())
                QCOMPARE(v.toObject().value("name").toString(), QStringLiteral("killed.bin"));
        }
        // The last one was killed mid-copy: its staged copy is there, outside the share.
        QVERIFY2(listHere(staging()).contains(QLatin1String("traindesk-part")), qPrintable(listHere(staging())));
        r = cli({"share", "file", "upload", "-w", "ws", "--share", "rep", "--path", "killed", "--source", source});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY2(!listHere(staging()).contains(QLatin1String("traindesk-part")), qPrintable(listHere(staging())));
        QCOMPARE(listHere(path + QStringLiteral("/killed")), QStringLiteral("killed.bin\n"));
        QCOMPARE(listOnNode2(path + QStringLiteral("/killed")), QStringLiteral("killed.bin\n"));
        QCOMPARE(readOnNode2(path + QStringLiteral("/killed/killed.bin")), bytes);
        QFile::remove(source);
    }

    void replicatedUploadNamesEveryNodeThatFailed()
    {
        ShareService service(m_store);
        const auto share = service.find(QStringLiteral("ws"), QStringLiteral("rep"));
        QVERIFY(share);
        const QString folder = share->path + QStringLiteral("/frozen");
        QVERIFY(service.createDirectory(*share, QStringLiteral("frozen")));
        const QString source = m_home.filePath(QStringLiteral("src/train.txt"));
        // n1 (the first node) cannot write: n2 still gets the file, and n1 is named.
        QVERIFY(QFile::setPermissions(folder, QFileDevice::Permissions(0x5555)));
        auto outcome = service.upload(*share, QStringLiteral("frozen"), {source});
        QVERIFY2(outcome.error.startsWith(QStringLiteral("share 'rep': the upload failed on 1 of 2 nodes: node n1: ")),
                 qPrintable(outcome.error));
        QVERIFY2(outcome.error.endsWith(QStringLiteral("; the files reached node n2")), qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(folder), qPrintable(outcome.error));
        QCOMPARE(readOnNode2(folder + QStringLiteral("/train.txt")), QByteArray("replicated bytes\n"));
        QCOMPARE(listHere(folder), QString());
        // Neither can write: both are named, each with its reason.
        QVERIFY(execOnNode2(QStringLiteral("rm -f %1/train.txt && chmod 555 %1").arg(shellQuote(folder))));
        outcome = service.upload(*share, QStringLiteral("frozen"), {source});
        QVERIFY2(outcome.error.startsWith(QStringLiteral("share 'rep': node n1: ")), qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(QStringLiteral("; node n2: ")), qPrintable(outcome.error));
        QCOMPARE(outcome.copied, 0);
        QCOMPARE(listOnNode2(folder), QString());
        QVERIFY(execOnNode2(QStringLiteral("chmod 755 %1").arg(shellQuote(folder))));
        QVERIFY(QFile::setPermissions(folder, QFileDevice::Permissions(0x7755)));
    }

    void swappedNamesNeverLeadOutOverSsh()
    {
        // Another user of the node swaps a folder of the share for a link out of it while
        // uploads and downloads through that name run over SSH: 200 of each, none reaches out.
        ShareService service(m_store);
        const auto nfs = service.find(QStringLiteral("ws"), QStringLiteral("nfs"));
        QVERIFY(nfs);
        const QString outside = m_home.filePath(QStringLiteral("outside-race"));
        QVERIFY(writeFile(outside + QStringLiteral("/f.txt"), "OUTSIDE\n"));
        QVERIFY(QFile::setPermissions(outside, QFileDevice::Permissions(0x7777)));
        QVERIFY(writeFile(nfs->path + QStringLiteral("/race/f.txt"), "inside\n"));
        QVERIFY(QFile::setPermissions(nfs->path + QStringLiteral("/race"), QFileDevice::Permissions(0x7777)));
        QVERIFY(QFile::link(outside, nfs->path + QStringLiteral("/race-link")));
        const QString source = m_home.filePath(QStringLiteral("src/script.txt"));
        int uploaded = 0, downloaded = 0, readOutside = 0;
        {
            Testing::NameSwapper swap(nfs->path + QStringLiteral("/race"), nfs->path + QStringLiteral("/race-link"));
            for (int round = 0; round < 200; ++round) {
                uploaded += service.upload(*nfs, QStringLiteral("race"), {source}).error.isEmpty();
                const QString target = m_home.filePath(QStringLiteral("race-down/f-%1.txt").arg(round));
                if (service.downloadAs(*nfs, QStringLiteral("race/f.txt"), target)) {
                    ++downloaded;
                    readOutside += readFile(target) != "inside\n";
                }
            }
        }
        QCOMPARE(readOutside, 0);
        QCOMPARE(QDir(outside).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{QStringLiteral("f.txt")});
        qInfo("over SSH: %d of 200 uploads and %d of 200 downloads went through, none outside", uploaded, downloaded);
        for (const QString &name : {QStringLiteral("/race"), QStringLiteral("/race-link")}) {
            if (QFileInfo(nfs->path + name).isSymLink())
                QFile::remove(nfs->path + name);  // the link itself, never what it points to
            else
                QDir(nfs->path + name).removeRecursively();
        }
    }

    void linksDoNotLeadOutOfSshShares()
    {
        ShareService service(m_store);
        const auto nfs = service.find(QStringLiteral("ws"), QStringLiteral("nfs"));
        QVERIFY(nfs);
        const QString outside = m_home.filePath(QStringLiteral("outside"));
        QVERIFY(writeFile(outside + QStringLiteral("/secret.txt"), "secret\n"));
        QVERIFY(QFile::setPermissions(outside, QFileDevice::Permissions(0x7777)));
        QVERIFY(QFile::link(outside, nfs->path + QStringLiteral("/evil")));
        QVERIFY(QFile::link(outside + QStringLiteral("/secret.txt"), nfs->path + QStringLiteral("/leak")));
        const QString escape = QStringLiteral("'%1' is outside share 'nfs' at %2 on node n1 (it leads to %3)");
        QCOMPARE(service.listFiles(*nfs, QStringLiteral("evil")).error(),
                 escape.arg(nfs->path + QStringLiteral("/evil"), nfs->path, outside));
        QCOMPARE(service.download(*nfs, QStringLiteral("leak"), m_home.filePath(QStringLiteral("down-leak"))).error(),
                 escape.arg(nfs->path + QStringLiteral("/leak"), nfs->path, outside + QStringLiteral("/secret.txt")));
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("down-leak/leak"))));
        QCOMPARE(service.upload(*nfs, QStringLiteral("evil"), {m_home.filePath(QStringLiteral("src/script.txt"))}).error,
                 escape.arg(nfs->path + QStringLiteral("/evil"), nfs->path, outside));
        QVERIFY(!QFileInfo::exists(outside + QStringLiteral("/script.txt")));
        // A link that only n2 has: the check runs on each node, and n2's refuses the upload.
        const auto rep = service.find(QStringLiteral("ws"), QStringLiteral("rep"));
        QVERIFY(execOnNode2(QStringLiteral("ln -s %1 %2").arg(shellQuote(outside), shellQuote(rep->path + QStringLiteral("/n2evil")))));
        QCOMPARE(service.upload(*rep, QStringLiteral("n2evil"), {m_home.filePath(QStringLiteral("src/script.txt"))}).error,
                 QStringLiteral("'%1' is outside share 'rep' at %2 on node n2 (it leads to %3)")
                     .arg(rep->path + QStringLiteral("/n2evil"), rep->path, outside));
        QVERIFY(!QFileInfo::exists(outside + QStringLiteral("/script.txt")));
        QVERIFY(!QFileInfo::exists(rep->path + QStringLiteral("/n2evil")));  // nor did n1 get a folder of that name
        QFile::remove(nfs->path + QStringLiteral("/evil"));
        QFile::remove(nfs->path + QStringLiteral("/leak"));
        QVERIFY(execOnNode2(QStringLiteral("rm %1").arg(shellQuote(rep->path + QStringLiteral("/n2evil")))));
    }
};

QTEST_GUILESS_MAIN(TestShares)
#include "tst_shares.moc"

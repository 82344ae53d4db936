// The data directory is refused unless it is this user's and no one else may write it or
// the folders above it (OpenSSH's StrictModes): a 0777 one, another user's, one under a
// writable folder, and its files (agent.log, the database) as links or another user's; the
// agent refuses it as the CLI and the GUI do (e2e.cli_data_directory, ui.tst_datadirectorygui).
#include "agent/Agent.h"
#include "cluster/ClusterMesh.h"
#include "common/DataDirectoryCheck.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace TrainDesk;

class TestDataDirectory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_count = 0;

    QString fresh()
    {
        const QString dir = m_dir.filePath(QStringLiteral("data-%1").arg(++m_count));
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFileDevice::Permissions(0x7700));
        return dir;
    }
    static uid_t nobody()
    {
        const passwd *pw = ::getpwnam("nobody");
        return pw ? pw->pw_uid : 65534;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void ownPrivateDirectoryIsAccepted()
    {
        QVERIFY2(DataDirectoryCheck::verify(fresh()), "a 0700 data directory of one's own");
        // A missing one is made, for this user only.
        const QString made = m_dir.filePath(QStringLiteral("made/here"));
        const auto ok = DataDirectoryCheck::verify(made);
        QVERIFY2(ok, qPrintable(ok.error()));
        QCOMPARE(QFileInfo(made).permissions() & 0x0077, QFileDevice::Permissions());
    }

    void writableByOthersIsRefused()
    {
        const QString dir = fresh();
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0777), 0);
        const auto refused = DataDirectoryCheck::verify(dir);
        QVERIFY(!refused);
        QCOMPARE(refused.error(), QStringLiteral("the data directory %1 is refused: others may write it (mode 0777) "
                                                 "(fix: 'chmod 700 %1')").arg(dir));
    }

    void underAFolderOthersMayWriteIsRefused()
    {
        const QString open = m_dir.filePath(QStringLiteral("open"));
        QDir().mkpath(open + QStringLiteral("/data"));
        QCOMPARE(::chmod(QFile::encodeName(open).constData(), 0777), 0);  // not sticky: others may swap "data"
        const auto refused = DataDirectoryCheck::verify(open + QStringLiteral("/data"));
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QStringLiteral("the folder %1 above the data directory may be written by others "
                                                         "(mode 0777)").arg(open)),
                 qPrintable(refused.error()));
        QVERIFY2(refused.error().contains(QStringLiteral("chmod go-w %1").arg(open)), qPrintable(refused.error()));
        // A sticky folder of root's (/tmp) is fine: others cannot rename what is ours in it.
        QCOMPARE(::chmod(QFile::encodeName(open).constData(), 0700), 0);
    }

    void filesThatAreLinksOrOthersAreRefused()
    {
        const QString dir = fresh();
        QVERIFY(QFile::link(m_dir.filePath(QStringLiteral("elsewhere.log")), dir + QStringLiteral("/agent.log")));
        auto refused = DataDirectoryCheck::verify(dir);
        QVERIFY(!refused);
        QCOMPARE(refused.error(), QStringLiteral("%1/agent.log in the data directory is refused: it is a link (fix: "
                                                 "remove it; TrainDesk makes its files itself)").arg(QFileInfo(dir).canonicalFilePath()));
        QFile::remove(dir + QStringLiteral("/agent.log"));
        QFile db(dir + QStringLiteral("/traindesk.db"));
        QVERIFY(db.open(QIODevice::WriteOnly));
        db.close();
        QCOMPARE(::chmod(QFile::encodeName(db.fileName()).constData(), 0666), 0);
        refused = DataDirectoryCheck::verify(dir);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QStringLiteral("traindesk.db in the data directory is refused: others may write "
                                                         "it (mode 0666) (fix: 'chmod go-w")),
                 qPrintable(refused.error()));
        QCOMPARE(::chmod(QFile::encodeName(db.fileName()).constData(), 0600), 0);
        QVERIFY(DataDirectoryCheck::verify(dir));
    }

    void anotherUsersDirectoryIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: giving a folder to another user");
        const QString dir = fresh();
        QCOMPARE(::chown(QFile::encodeName(dir).constData(), nobody(), gid_t(-1)), 0);
        const auto refused = DataDirectoryCheck::verify(dir);
        QVERIFY(!refused);
        QVERIFY2(refused.error().startsWith(QStringLiteral("the data directory %1 is refused: it belongs to user ").arg(dir)),
                 qPrintable(refused.error()));
        QVERIFY2(refused.error().contains(QStringLiteral("use a data directory of your own")), qPrintable(refused.error()));
        // Its database, another user's in a folder of one's own, too.
        const QString mine = fresh();
        QFile db(mine + QStringLiteral("/traindesk.db"));
        QVERIFY(db.open(QIODevice::WriteOnly));
        db.close();
        QCOMPARE(::chown(QFile::encodeName(db.fileName()).constData(), nobody(), gid_t(-1)), 0);
        QVERIFY2(DataDirectoryCheck::verify(mine).error().contains(QStringLiteral("traindesk.db in the data directory is refused: it belongs to user")),
                 qPrintable(DataDirectoryCheck::verify(mine).error()));
    }

    void clusterFoldersOfTwoDataDirectoriesDiffer()
    {
        // Two data directories each make cluster 1 "mesh" in workspace 1 for the same node:
        // their folders there (and their keys here) are their own.
        Cluster cluster;
        cluster.id = 1;
        cluster.workspaceId = 1;
        cluster.name = QStringLiteral("mesh");
        const QByteArray saved = qgetenv("TRAINDESK_HOME");
        qputenv("TRAINDESK_HOME", QFile::encodeName(fresh()));
        const QString first = ClusterMesh::directoryRelativePath(cluster);
        QCOMPARE(ClusterMesh::directoryRelativePath(cluster), first);  // the id is kept
        qputenv("TRAINDESK_HOME", QFile::encodeName(fresh()));
        const QString second = ClusterMesh::directoryRelativePath(cluster);
        qputenv("TRAINDESK_HOME", saved);
        QVERIFY2(first != second, qPrintable(first));
        QVERIFY2(first.startsWith(QStringLiteral(".traindesk/clusters/")) && first.endsWith(QStringLiteral("-1-mesh")),
                 qPrintable(first));
    }

    void theAgentRefusesIt()
    {
        const QString dir = fresh();
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0777), 0);
        AgentOptions options;
        options.dataDirectory = dir;
        Agent agent(options);
        const auto started = agent.start();
        QVERIFY(!started);
        QVERIFY2(started.error().contains(QStringLiteral("chmod 700 %1").arg(dir)), qPrintable(started.error()));
        // It touched nothing there: no database, no socket, no lock.
        QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestDataDirectory)
#include "tst_datadirectory.moc"

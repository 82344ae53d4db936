// The cluster wizard against a real sshd on loopback (key login of a throwaway user):
// page validation, the connection test streaming its checks, a new host key that waits
// for Accept (and is refused when the test stops), Finish creating the cluster in the
// Store, and an unreachable node failing with a hint in bounded time.
#include "../integration/IntegrationTest.h"
#include "Grab.h"
#include "WidgetLookup.h"

#include "common/DataPaths.h"
#include "session/ClusterWorker.h"
#include "store/Store.h"
#include "MainWindow.h"
#include "cluster/ClusterActions.h"
#include "cluster/ClusterSummary.h"
#include "editor/ClusterHealthIssues.h"
#include "cluster/SshKeys.h"
#include "session/Backend.h"
#include "wizards/cluster/ClusterWizard.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QtTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestClusterWizard : public QObject
{
    Q_OBJECT

    IntegrationHome m_home;
    TestUser m_user;  // made only as root
    QString userName() const { return SshServer::isRoot() ? m_user.name() : SshServer::loginUser(); }
    SshServer m_server;
    QString m_key;
    Store m_store;
    qint64 m_workspaceId = 0;

    // Pages 1 to 3 filled for one node; leaves the wizard on the connection test.
    void fillUpToTest(ClusterWizard &w, const QString &name, const QString &node, bool password)
    {
        w.show();
        QTest::keyClicks(childNamed<QLineEdit>(&w, "clusterName"), name);
        QVERIFY(w.currentPage()->isComplete());
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::NodesPage));
        childNamed<QPlainTextEdit>(&w, "nodesEdit")->setPlainText(node);
        QVERIFY2(w.currentPage()->isComplete(), qPrintable(childNamed<QLabel>(&w, "nodeErrors")->text()));
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::CredentialsPage));
        if (password) {
            childNamed<QRadioButton>(&w, "passwordMode")->setChecked(true);
            childNamed<QLineEdit>(&w, "passwordEdit")->setText(QStringLiteral("not-the-password"));
        } else {
            childNamed<QLineEdit>(&w, "keyFileEdit")->setText(m_key);
        }
        QVERIFY(w.currentPage()->isComplete());
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::TestPage));
    }

    QString nodeLine(const QString &name) const
    {
        return QStringLiteral("%1=%2@%3:%4").arg(name, userName(), m_server.address()).arg(m_server.port());
    }

    static QTreeWidgetItem *findCheck(QTreeWidget *list, const QString &id)
    {
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            if (list->topLevelItem(i)->data(2, Qt::UserRole).toString() == id)
                return list->topLevelItem(i);
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // As an ordinary user the servers run as that user and let it in with keys only.
        if (SshServer::isRoot())
            QVERIFY2(m_user.create(m_home.path()), qPrintable(m_user.error()));
        m_key = m_home.makeClientKey(QStringLiteral("client_key"));
        QFile keys(m_home.filePath(QStringLiteral("authorized_keys")));
        QVERIFY(keys.open(QIODevice::WriteOnly));
        keys.write(IntegrationHome::publicKeyOf(m_key));
        keys.close();
        keys.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        SshServer::Options options;
        options.authorizedKeysFile = keys.fileName();
        QVERIFY2(m_server.start(m_home.filePath(QStringLiteral("sshd")), options), qPrintable(m_server.error()));
        QVERIFY(m_store.open(DataPaths::databasePath()));
        const auto ws = m_store.createWorkspace(QStringLiteral("ws"));
        QVERIFY(ws);
        m_workspaceId = ws->id;
    }

    void pagesValidateTheirFields()
    {
        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.show();
        QVERIFY(!w.currentPage()->isComplete());  // no name yet
        QTest::keyClicks(childNamed<QLineEdit>(&w, "clusterName"), QStringLiteral("bad name"));
        QVERIFY(!w.currentPage()->isComplete());
        QVERIFY(!childNamed<QLabel>(&w, "nameError")->text().isEmpty());
        childNamed<QLineEdit>(&w, "clusterName")->setText(QStringLiteral("ok"));
        QVERIFY(w.currentPage()->isComplete());
        w.next();
        auto *nodes = childNamed<QPlainTextEdit>(&w, "nodesEdit");
        nodes->setPlainText(QStringLiteral("a=alice@host1\nnot an address\nbob@host2:99999"));
        QVERIFY(!w.currentPage()->isComplete());
        const QString errors = childNamed<QLabel>(&w, "nodeErrors")->text();
        QVERIFY2(errors.contains(QStringLiteral("Line 2")) && errors.contains(QStringLiteral("Line 3")), qPrintable(errors));
        QVERIFY2(!errors.contains(QStringLiteral("Line 1")), qPrintable(errors));
        nodes->setPlainText(QStringLiteral("a=alice@host1\nb=bob@host2:2222"));
        QVERIFY(w.currentPage()->isComplete());
        auto *head = childNamed<QComboBox>(&w, "headNodeCombo");
        QCOMPARE(head->count(), 2);
        head->setCurrentText(QStringLiteral("b"));
        w.next();
        QVERIFY(!w.currentPage()->isComplete());  // key file mode, no file
        childNamed<QLineEdit>(&w, "keyFileEdit")->setText(m_key);
        QVERIFY(w.currentPage()->isComplete());
        childNamed<QLineEdit>(&w, "mountRootEdit")->setText(QStringLiteral("relative/dir"));
        QVERIFY(!w.currentPage()->isComplete());
        childNamed<QLineEdit>(&w, "mountRootEdit")->setText(QStringLiteral("/srv/mounts"));
        childNamed<QRadioButton>(&w, "generateKeyMode")->setChecked(true);
        QVERIFY(!w.currentPage()->isComplete());  // deploying needs the password
        childNamed<QLineEdit>(&w, "passwordEdit")->setText(QStringLiteral("secret"));
        QVERIFY(w.currentPage()->isComplete());
        // The test logs in with the password; Finish generates and deploys the key.
        const CreateClusterRequest test = w.request(true);
        QCOMPARE(test.nodes.first(), QStringLiteral("b=bob@host2:2222"));  // the head node first
        QVERIFY(!test.generateSshKeys);
        QVERIFY(w.request(false).generateSshKeys);
        QCOMPARE(w.request(false).mountRoot, QStringLiteral("/srv/mounts"));
    }

    void stoppingTheTestRefusesAnOpenHostKeyQuestion()
    {
        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.setConnectTimeoutMs(5000);
        fillUpToTest(w, QStringLiteral("stopped"), nodeLine(QStringLiteral("n1")), false);
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QWidget *>(QStringLiteral("hostKeyRow")), 15000);
        QVERIFY(!w.currentPage()->isComplete());
        QTest::mouseClick(childNamed<QPushButton>(&w, "cancelTestButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 15000);
        QVERIFY(!childNamed<QPushButton>(&w, "acceptHostKey")->isEnabled());
        QVERIFY(!w.currentPage()->isComplete());
        QVERIFY(!QFile::exists(m_home.knownHosts())
                || !runTool(QStringLiteral("cat"), {m_home.knownHosts()}).contains(QString::number(m_server.port())));
    }

    // Three new sshd with their own host keys, a node on each. The non-head nodes' "SSH from
    // the head node" check logs in to the head node again: when it runs before the head
    // node's own question is answered, the same key is asked twice by the core, and the
    // page shows it once. Each fingerprint whole and visible at the wizard's own size.
    void hostKeysAskedOnceEachInFull()
    {
        SshServer servers[3];
        SshServer::Options options;
        options.authorizedKeysFile = m_home.filePath(QStringLiteral("authorized_keys"));
        QStringList nodes, expected;
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(servers[i].start(m_home.filePath(QStringLiteral("sshd-node%1").arg(i + 1)), options),
                     qPrintable(servers[i].error()));
            nodes << QStringLiteral("n%1=%2@%3:%4").arg(i + 1).arg(userName(), servers[i].address()).arg(servers[i].port());
            expected << servers[i].hostKeyFingerprint();
        }
        expected.sort();

        // A local share (a folder here, as the default workspace's `local`): SSH nodes never
        // see it, so their "Shares mounted" does not check it.
        Share here;
        here.workspaceId = m_workspaceId;
        here.name = QStringLiteral("here");
        here.path = m_home.filePath(QStringLiteral("here"));
        QVERIFY(QDir().mkpath(here.path));
        const auto localShare = m_store.createShare(here);
        QVERIFY2(localShare, qPrintable(localShare.error()));

        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.setConnectTimeoutMs(5000);
        QSignalSpy questions(w.worker(), &ClusterWorker::hostKeyQuestion);
        fillUpToTest(w, QStringLiteral("keys"), nodes.join(QLatin1Char('\n')), false);
        // The prompt waiting for an answer, if any.
        const auto openPrompt = [&w]() -> QWidget * {
            for (QWidget *row : w.findChildren<QWidget *>(QStringLiteral("hostKeyRow"))) {
                if (row->isVisible() && childNamed<QPushButton>(row, "acceptHostKey")->isEnabled())
                    return row;
            }
            return nullptr;
        };
        QStringList fingerprints;
        for (int asked = 0; asked < 3; ++asked) {
            QTRY_VERIFY_WITH_TIMEOUT(openPrompt(), 15000);
            QWidget *prompt = openPrompt();
            auto *fingerprint = childNamed<QLabel>(prompt, "hostKeyFingerprint");
            QVERIFY2(!fingerprints.contains(fingerprint->text()), qPrintable(fingerprint->text()));
            fingerprints << fingerprint->text();
            // Whole: not cut by its own width nor by what holds it, at the wizard's own size.
            QVERIFY2(fingerprint->width() >= fingerprint->sizeHint().width(),
                     qPrintable(QStringLiteral("%1 < %2").arg(fingerprint->width()).arg(fingerprint->sizeHint().width())));
            QVERIFY(fingerprint->height() >= fingerprint->sizeHint().height());
            QCOMPARE(fingerprint->visibleRegion().boundingRect(), fingerprint->rect());
            saveGrab(&w, QStringLiteral("hostkey-%1").arg(asked + 1));
            QTest::mouseClick(childNamed<QPushButton>(prompt, "acceptHostKey"), Qt::LeftButton);
        }
        fingerprints.sort();
        QCOMPARE(fingerprints, expected);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 90000);
        saveGrab(&w, QStringLiteral("hostkey-done"));
        qInfo("the core asked %d times about 3 keys", int(questions.count()));
        QVERIFY(!openPrompt());
        // Each answered key is a line of the check list: every node once, its whole fingerprint.
        auto *list = childNamed<QTreeWidget>(&w, "checkList");
        QStringList keyNodes;
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = list->topLevelItem(i);
            if (item->data(2, Qt::UserRole).toString() != QStringLiteral("hostKey"))
                continue;
            keyNodes << item->text(1);
            QCOMPARE(item->text(0), QStringLiteral("Accepted"));
            const int node = item->text(1).mid(1).toInt() - 1;
            QVERIFY(node >= 0 && node < 3);
            QVERIFY2(item->text(3).endsWith(servers[node].hostKeyFingerprint()), qPrintable(item->text(3)));
        }
        keyNodes.sort();
        QCOMPARE(keyNodes, (QStringList{QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3")}));
        auto *checks = childNamed<QTreeWidget>(&w, "checkList");
        for (const QString node : {QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3")}) {
            QStringList passed;
            for (int i = 0; i < checks->topLevelItemCount(); ++i) {
                const QTreeWidgetItem *item = checks->topLevelItem(i);
                if (item->text(1) == node && item->text(0) == QStringLiteral("Pass"))
                    passed << item->data(2, Qt::UserRole).toString();
            }
            QVERIFY2(passed.contains(QStringLiteral("authenticated")), qPrintable(node));
            QVERIFY2(passed.contains(QStringLiteral("shares")), qPrintable(node));
            // The workspace has a local share, which an SSH cluster does not use: the check
            // names it (it said "the workspace has no shares").
            for (int i = 0; i < checks->topLevelItemCount(); ++i) {
                const QTreeWidgetItem *item = checks->topLevelItem(i);
                if (item->text(1) == node && item->data(2, Qt::UserRole).toString() == QStringLiteral("shares")) {
                    QVERIFY2(!item->text(3).contains(QStringLiteral("has no shares")), qPrintable(item->text(3)));
                    QVERIFY2(item->text(3).contains(QStringLiteral("none of the workspace's shares is for this cluster (")),
                             qPrintable(item->text(3)));
                }
            }
        }

        // These sshd read a fixed authorized_keys file, so the cluster's own key that Finish
        // deploys for the head node is not accepted there: SSH from the head node fails for
        // real. Created anyway, the cluster is degraded with those nodes unusable, and a
        // 2-node job is warned about before Submit. Hints name the GUI's buttons.
        QTreeWidgetItem *headSsh = nullptr;
        for (int i = 0; i < checks->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = checks->topLevelItem(i);
            if (item->data(2, Qt::UserRole).toString() == QStringLiteral("headSsh") && item->text(0) == QStringLiteral("Fail"))
                headSsh = item;
        }
        QVERIFY(headSsh);
        QVERIFY2(headSsh->text(3).contains(QStringLiteral("Test connection")), qPrintable(headSsh->text(3)));
        QVERIFY(!headSsh->text(3).contains(QStringLiteral("--")));
        QVERIFY(!w.currentPage()->isComplete());
        childNamed<QCheckBox>(&w, "acceptFailures")->setChecked(true);
        w.next();
        w.button(QWizard::FinishButton)->click();
        auto *error = childNamed<QLabel>(&w, "createError");
        QTRY_VERIFY_WITH_TIMEOUT(w.result() == QDialog::Accepted || !error->text().isEmpty(), 90000);
        QVERIFY2(error->text().isEmpty(), qPrintable(error->text()));
        const auto cluster = m_store.cluster(m_workspaceId, QStringLiteral("keys"));
        QVERIFY2(cluster, qPrintable(cluster.error()));
        ResourceSnapshot::ClusterEntry entry{*cluster, m_store.nodes(cluster->id)};
        QCOMPARE(entry.nodes.size(), 3);
        for (const Node &n : entry.nodes) {
            if (n.index == 0) {
                QVERIFY2(n.state == NodeState::Idle, qPrintable(toString(n.state) + QStringLiteral(": ") + n.stateReason));
            } else {
                QCOMPARE(toString(n.state), QStringLiteral("unusable"));
                QVERIFY2(n.stateReason.contains(QStringLiteral("SSH from the head node")), qPrintable(n.stateReason));
            }
        }
        QCOMPARE(ClusterSummary::of(entry).state, QStringLiteral("degraded"));
        const QList<SpecIssue> warnings = clusterHealthIssues(2, cluster->name, nodeHealthOf(entry));
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.first().message.startsWith(QStringLiteral("n2, n3 of cluster keys failed")), qPrintable(warnings.first().message));
        QVERIFY2(warnings.last().message.contains(QStringLiteral("only 1 of cluster keys")), qPrintable(warnings.last().message));
        QVERIFY(clusterHealthIssues(1, cluster->name, nodeHealthOf(entry)).isEmpty());
        QVERIFY(ClusterService(m_store).remove(QStringLiteral("ws"), QStringLiteral("keys")));
        QVERIFY(m_store.deleteShare(localShare->id));
    }

    void testAcceptAndFinishCreatesTheCluster()
    {
        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.setConnectTimeoutMs(5000);
        QSignalSpy created(&w, &ClusterWizard::clusterCreated);
        fillUpToTest(w, QStringLiteral("c1"), nodeLine(QStringLiteral("n1")), false);
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QWidget *>(QStringLiteral("hostKeyRow")), 15000);
        QCOMPARE(childNamed<QLabel>(&w, "hostKeyFingerprint")->text(), m_server.hostKeyFingerprint());
        QVERIFY(childNamed<QLabel>(&w, "hostKeyLabel")->text().contains(QStringLiteral("n1")));
        QTest::mouseClick(childNamed<QPushButton>(&w, "acceptHostKey"), Qt::LeftButton);

        auto *checks = childNamed<QTreeWidget>(&w, "checkList");
        // Checks arrive one by one while the test runs, before it ends.
        QTRY_VERIFY_WITH_TIMEOUT(checks->topLevelItemCount() > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 60000);
        for (const char *id : {"reachable", "authenticated"}) {
            QTreeWidgetItem *item = findCheck(checks, QLatin1String(id));
            QVERIFY2(item, id);
            QCOMPARE(item->text(0), QStringLiteral("Pass"));
            QCOMPARE(item->text(1), QStringLiteral("n1"));
        }
        // Checks this loopback node may fail (no trainer, no Open MPI) need the user's consent.
        auto *acceptFailures = childNamed<QCheckBox>(&w, "acceptFailures");
        bool allPassed = true;
        for (int i = 0; i < checks->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = checks->topLevelItem(i);
            if (item->data(2, Qt::UserRole).toString() != QStringLiteral("hostKey"))  // the key accepted above
                allPassed = allPassed && item->text(0) == QStringLiteral("Pass");
        }
        QCOMPARE(w.currentPage()->isComplete(), allPassed);
        if (!allPassed) {
            QVERIFY(acceptFailures->isEnabled());
            acceptFailures->setChecked(true);
            QVERIFY(w.currentPage()->isComplete());
        }
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::SummaryPage));
        QVERIFY(childNamed<QLabel>(&w, "summaryLabel")->text().contains(nodeLine(QStringLiteral("n1"))));
        w.button(QWizard::FinishButton)->click();
        auto *error = childNamed<QLabel>(&w, "createError");
        QTRY_VERIFY_WITH_TIMEOUT(w.result() == QDialog::Accepted || !error->text().isEmpty(), 90000);
        QVERIFY2(error->text().isEmpty(), qPrintable(error->text() + QLatin1Char('\n')
                                                     + childNamed<QPlainTextEdit>(&w, "createLog")->toPlainText()));
        QCOMPARE(created.count(), 1);

        const auto cluster = m_store.cluster(m_workspaceId, QStringLiteral("c1"));
        QVERIFY2(cluster, qPrintable(cluster.error()));
        QCOMPARE(created.first().at(0).toLongLong(), cluster->id);
        const QList<Node> nodes = m_store.nodes(cluster->id);
        QCOMPARE(nodes.size(), 1);
        QCOMPARE(nodes.first().name, QStringLiteral("n1"));
        QCOMPARE(nodes.first().host, m_server.address());
        QCOMPARE(nodes.first().port, m_server.port());
        QCOMPARE(nodes.first().user, userName());
    }

    // The cluster view's actions on the cluster the wizard made: test, resize, remove.
    void clusterActionsProbeResizeAndRemove()
    {
        const auto cluster = m_store.cluster(m_workspaceId, QStringLiteral("c1"));
        QVERIFY2(cluster, qPrintable(cluster.error()));
        ResourceSnapshot snapshot;
        ResourceSnapshot::WorkspaceEntry ws;
        ws.workspace = *m_store.workspace(QStringLiteral("ws"));
        ws.clusters.append({*cluster, m_store.nodes(cluster->id)});
        snapshot.workspaces.append(ws);

        ClusterActions actions(DataPaths::databasePath());
        QSignalSpy changed(&actions, &ClusterActions::clusterChanged);
        actions.setCluster(cluster->id, snapshot);
        auto *test = childNamed<QPushButton>(&actions, "testConnectionButton");
        auto *resize = childNamed<QPushButton>(&actions, "resizeButton");
        auto *status = childNamed<QLabel>(&actions, "clusterActionStatus");
        QVERIFY(test->isEnabled());
        QCOMPARE(childNamed<QSpinBox>(&actions, "nodeCountSpin")->value(), 1);

        QTest::mouseClick(test, Qt::LeftButton);
        QVERIFY(!resize->isEnabled());  // one action at a time
        QTRY_VERIFY_WITH_TIMEOUT(test->isEnabled(), 60000);
        auto *checks = childNamed<QTreeWidget>(&actions, "probeChecks");
        QVERIFY(checks->topLevelItemCount() > 0);
        QCOMPARE(checks->topLevelItem(0)->text(0), QStringLiteral("Pass"));  // reachable comes first
        QVERIFY(!status->text().isEmpty());
        QCOMPARE(changed.count(), 0);

        childNamed<QSpinBox>(&actions, "nodeCountSpin")->setValue(0);
        QTest::mouseClick(resize, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(resize->isEnabled(), 60000);
        QCOMPARE(status->text(), QStringLiteral("Done."));
        QCOMPARE(changed.count(), 1);
        QVERIFY(m_store.nodes(cluster->id).isEmpty());
        QCOMPARE(m_store.allNodes(cluster->id).size(), 1);  // parked for a later resize

        actions.remove();
        QTRY_VERIFY_WITH_TIMEOUT(resize->isEnabled(), 60000);
        QCOMPARE(status->text(), QStringLiteral("Done."));
        QCOMPARE(changed.count(), 2);
        QVERIFY(!m_store.cluster(m_workspaceId, QStringLiteral("c1")));
    }

    // "Generate a key and deploy it": the test logs in with the password, Finish makes
    // TrainDesk's ed25519 key and adds it to the user's authorized_keys.
    void generatedKeyIsDeployedWithThePassword()
    {
        REQUIRE_ROOT("a throwaway user with a password (useradd, chpasswd), which only an sshd running as root checks");
        SshServer server;
        SshServer::Options options;
        options.passwordAuthentication = true;
        QVERIFY2(server.start(m_home.filePath(QStringLiteral("sshd-password")), options), qPrintable(server.error()));
        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.setConnectTimeoutMs(5000);
        w.show();
        childNamed<QLineEdit>(&w, "clusterName")->setText(QStringLiteral("keyed"));
        w.next();
        childNamed<QPlainTextEdit>(&w, "nodesEdit")->setPlainText(
            QStringLiteral("k1=%1@%2:%3").arg(userName(), server.address()).arg(server.port()));
        w.next();
        childNamed<QRadioButton>(&w, "generateKeyMode")->setChecked(true);
        childNamed<QLineEdit>(&w, "passwordEdit")->setText(m_user.password());
        w.next();
        QCOMPARE(w.currentId(), int(ClusterWizard::TestPage));
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QWidget *>(QStringLiteral("hostKeyRow")), 15000);
        QTest::mouseClick(childNamed<QPushButton>(&w, "acceptHostKey"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 60000);
        QTreeWidgetItem *authenticated = findCheck(childNamed<QTreeWidget>(&w, "checkList"), QStringLiteral("authenticated"));
        QVERIFY(authenticated);
        QCOMPARE(authenticated->text(0), QStringLiteral("Pass"));
        if (!w.currentPage()->isComplete())
            childNamed<QCheckBox>(&w, "acceptFailures")->setChecked(true);
        w.next();
        w.button(QWizard::FinishButton)->click();
        auto *error = childNamed<QLabel>(&w, "createError");
        QTRY_VERIFY_WITH_TIMEOUT(w.result() == QDialog::Accepted || !error->text().isEmpty(), 90000);
        QVERIFY2(error->text().isEmpty(), qPrintable(error->text()));
        QVERIFY(childNamed<QPlainTextEdit>(&w, "createLog")->toPlainText().contains(QStringLiteral("key deployed")));

        QFile pub(SshKeys::defaultKeyPath() + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QByteArray publicKey = pub.readAll().trimmed();
        QVERIFY(publicKey.startsWith("ssh-ed25519 "));
        QFile authorized(m_user.home() + QStringLiteral("/.ssh/authorized_keys"));
        QVERIFY(authorized.open(QIODevice::ReadOnly));
        QVERIFY(authorized.readAll().contains(publicKey));
        const auto cluster = m_store.cluster(m_workspaceId, QStringLiteral("keyed"));
        QVERIFY2(cluster, qPrintable(cluster.error()));
        QCOMPARE(cluster->sshKeyFile, SshKeys::defaultKeyPath());
    }

    void mainWindowOpensTheWizard()
    {
        Backend backend(DataPaths::databasePath(), 100);
        MainWindow window(&backend);
        window.show();
        auto *action = window.findChild<QAction *>(QStringLiteral("newClusterAction"));
        QVERIFY(action);
        // The wizard offers the workspaces of the backend's snapshot.
        QTRY_VERIFY_WITH_TIMEOUT(!backend.snapshot().workspaces.isEmpty(), 10000);
        action->trigger();
        auto *wizard = window.findChild<ClusterWizard *>();
        QVERIFY(wizard);
        QVERIFY(wizard->isVisible());
        QCOMPARE(childNamed<QComboBox>(wizard, "workspaceCombo")->currentText(), QStringLiteral("ws"));
        wizard->reject();
    }

    void unreachableNodeFailsWithAHint()
    {
        const int port = SshServer::freePort(QStringLiteral("127.0.0.1"));
        ClusterWizard w(DataPaths::databasePath(), {QStringLiteral("ws")});
        w.setConnectTimeoutMs(3000);
        QElapsedTimer timer;
        timer.start();
        fillUpToTest(w, QStringLiteral("down"), QStringLiteral("gone=nobody@127.0.0.1:%1").arg(port), true);
        auto *checks = childNamed<QTreeWidget>(&w, "checkList");
        QTRY_VERIFY_WITH_TIMEOUT(childNamed<QPushButton>(&w, "rerunButton")->isEnabled(), 20000);
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        QTreeWidgetItem *reachable = findCheck(checks, QStringLiteral("reachable"));
        QVERIFY(reachable);
        QCOMPARE(reachable->text(0), QStringLiteral("Fail"));
        QVERIFY2(reachable->text(3).contains(QStringLiteral("Hint: ")), qPrintable(reachable->text(3)));
        QVERIFY(w.findChild<QWidget *>(QStringLiteral("hostKeyRow")) == nullptr);
        QVERIFY(!w.currentPage()->isComplete());
        childNamed<QCheckBox>(&w, "acceptFailures")->setChecked(true);
        QVERIFY(w.currentPage()->isComplete());
        QVERIFY(!m_store.cluster(m_workspaceId, QStringLiteral("down")));
    }
};

QTEST_MAIN(TestClusterWizard)
#include "tst_clusterwizard.moc"

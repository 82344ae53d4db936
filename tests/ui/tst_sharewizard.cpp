// The share wizard on a real Backend: a new local share made when Next is pressed (its
// folder created by the worker), files uploaded into a folder with progress, Stop, the
// tree's Shares > share > folder rows, and an upload into an existing share.
#include "MainWindow.h"
#include "BackendFixture.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "info/ResourceInfoView.h"
#include "session/Backend.h"
#include "store/Store.h"
#include "tree/ResourceTreeModel.h"
#include "wizards/SharePage.h"
#include "wizards/ShareWizard.h"
#include "wizards/UploadPage.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

} // namespace

class TestShareWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void newShareThenUpload()
    {
        ShareWizard wizard(m_backend.get());
        wizard.show();
        SharePage *page = wizard.sharePage();
        QVERIFY(page->newShare());
        QCOMPARE(page->workspaceName(), QStringLiteral("default"));
        page->nameEdit()->setText(QStringLiteral("local"));
        QVERIFY(page->problem().contains(QStringLiteral("already")));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        page->nameEdit()->setText(QStringLiteral("myshare"));
        // The folder follows the name until edited.
        QCOMPARE(page->folderEdit()->text(), QDir::toNativeSeparators(DataPaths::sharesDirectory() + QStringLiteral("/myshare")));
        page->folderEdit()->setText(QStringLiteral("not/absolute"));
        QVERIFY(page->problem().contains(QStringLiteral("absolute")));
        const QString folder = m_home.filePath(QStringLiteral("shares/mine"));
        page->folderEdit()->setText(folder);
        page->nameEdit()->setText(QStringLiteral("myshare"));
        QCOMPARE(page->folderEdit()->text(), folder);  // edited by hand: kept
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());

        // Next makes the share in the worker, then goes on by itself.
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ShareWizard::SharePageId));
        QTRY_COMPARE_WITH_TIMEOUT(wizard.currentId(), int(ShareWizard::UploadPageId), 10000);
        QVERIFY(QFileInfo(folder).isDir());
        const qint64 shareId = page->shareId();
        QVERIFY(shareId);
        QCOMPARE(m_backend->snapshot().findShare(shareId)->path, folder);

        UploadPage *upload = wizard.uploadPage();
        QVERIFY(!upload->uploadButton()->isEnabled());  // nothing to copy yet
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());  // uploading is optional
        const QString src = m_home.filePath(QStringLiteral("src"));
        QVERIFY(QDir().mkpath(src));
        QVERIFY(writeFile(src + QStringLiteral("/cifar_cnn_distributed.py"), "import keras\n"));
        QVERIFY(writeFile(src + QStringLiteral("/weights.bin"), QByteArray(2 * 1024 * 1024 + 3, 'w')));
        upload->addFiles({src + QStringLiteral("/cifar_cnn_distributed.py"), src + QStringLiteral("/weights.bin"),
                          src + QStringLiteral("/weights.bin")});
        QCOMPARE(upload->files().size(), 2);  // no duplicates
        upload->setFolder(QStringLiteral("cifar"));
        QVERIFY(upload->uploadButton()->isEnabled());

        QSignalSpy finished(upload, &UploadPage::uploadFinished);
        QSignalSpy progress(m_backend.get(), &Backend::uploadProgress);
        upload->uploadButton()->click();
        QVERIFY(upload->isUploading());
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());
        QVERIFY(upload->cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(finished.at(0).at(0).toInt(), 2);
        QCOMPARE(finished.at(0).at(1).toString(), QString());
        QVERIFY(progress.count() >= 3);
        QCOMPARE(upload->progressValue(), 1000);
        QVERIFY(upload->statusText().contains(QStringLiteral("2 files")));
        QVERIFY(upload->files().isEmpty());
        QVERIFY(!upload->cancelButton()->isEnabled());
        QCOMPARE(QFileInfo(folder + QStringLiteral("/cifar/weights.bin")).size(), 2 * 1024 * 1024 + 3);
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/cifar/cifar_cnn_distributed.py")));

        QSignalSpy done(&wizard, &ShareWizard::finishedWith);
        wizard.button(QWizard::FinishButton)->click();
        QCOMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).toString(), ResourceTreeModel::folderKey(shareId, QStringLiteral("cifar")));
    }

    // Issue #28: New share -> Add files (3) -> Finish left the share empty. Finish copies
    // the files listed first and closes once they arrived.
    void finishCopiesTheListedFiles()
    {
        ShareWizard wizard(m_backend.get());
        wizard.show();
        SharePage *page = wizard.sharePage();
        page->nameEdit()->setText(QStringLiteral("three"));
        const QString folder = m_home.filePath(QStringLiteral("shares/three"));
        page->folderEdit()->setText(folder);
        wizard.next();
        QTRY_COMPARE_WITH_TIMEOUT(wizard.currentId(), int(ShareWizard::UploadPageId), 10000);
        const qint64 shareId = page->shareId();
        const QString src = m_home.filePath(QStringLiteral("src3"));
        QVERIFY(QDir().mkpath(src));
        QStringList files;
        for (const QString &name : {QStringLiteral("a.txt"), QStringLiteral("b.txt"), QStringLiteral("c.txt")}) {
            QVERIFY(writeFile(src + QLatin1Char('/') + name, name.toUtf8()));
            files << src + QLatin1Char('/') + name;
        }
        UploadPage *upload = wizard.uploadPage();
        upload->addFiles(files);
        QSignalSpy done(&wizard, &ShareWizard::finishedWith);
        wizard.button(QWizard::FinishButton)->click();
        QVERIFY(wizard.isVisible());  // still open while the files are copied
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        QVERIFY(!wizard.isVisible());
        QCOMPARE(done.at(0).at(0).toString(), ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Share, shareId));
        QCOMPARE(QDir(folder).entryList(QDir::Files, QDir::Name),
                 QStringList({QStringLiteral("a.txt"), QStringLiteral("b.txt"), QStringLiteral("c.txt")}));
        QCOMPARE(upload->files(), QStringList());
    }

    // A failed copy on Finish keeps the wizard open with the files, saying why.
    void finishKeepsTheFilesWhenTheCopyFails()
    {
        ShareWizard wizard(m_backend.get());
        wizard.show();
        SharePage *page = wizard.sharePage();
        page->nameEdit()->setText(QStringLiteral("fails"));
        page->folderEdit()->setText(m_home.filePath(QStringLiteral("shares/fails")));
        wizard.next();
        QTRY_COMPARE_WITH_TIMEOUT(wizard.currentId(), int(ShareWizard::UploadPageId), 10000);
        UploadPage *upload = wizard.uploadPage();
        const QString missing = m_home.filePath(QStringLiteral("no-such-file.txt"));
        upload->addFiles({missing});
        QSignalSpy finished(upload, &UploadPage::uploadFinished);
        QSignalSpy done(&wizard, &ShareWizard::finishedWith);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QVERIFY(!finished.at(0).at(1).toString().isEmpty());
        QCOMPARE(done.count(), 0);
        QVERIFY(wizard.isVisible());
        QCOMPARE(upload->files(), QStringList{missing});
    }

    void stopAnUpload()
    {
        const QString huge = m_home.filePath(QStringLiteral("huge.bin"));
        QFile file(huge);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(256) * 1024 * 1024));  // sparse
        file.close();
        qint64 shareId = 0;
        for (const Share &s : m_backend->snapshot().workspaces.first().shares) {
            if (s.name == QLatin1String("myshare"))
                shareId = s.id;
        }
        QVERIFY(shareId);
        ShareWizard wizard(m_backend.get());
        wizard.startUpload(shareId, QStringLiteral("big"));
        wizard.show();
        QCOMPARE(wizard.currentId(), int(ShareWizard::UploadPageId));
        QVERIFY(wizard.sharePage()->existingShareRadio()->isChecked());
        UploadPage *upload = wizard.uploadPage();
        QCOMPARE(upload->folder(), QStringLiteral("big"));
        // The share's folders are offered.
        QVERIFY(upload->folderCombo()->findText(QStringLiteral("cifar")) >= 0);
        upload->addFiles({huge});
        QSignalSpy finished(upload, &UploadPage::uploadFinished);
        upload->startUpload();
        upload->cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.at(0).at(0).toInt(), 0);
        QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("cancelled")));
        QVERIFY(upload->statusText().contains(QStringLiteral("cancelled")));
        QCOMPARE(upload->files().size(), 1);  // kept, to try again
        QVERIFY(upload->uploadButton()->isEnabled());
        const QString share = m_backend->snapshot().findShare(shareId)->path;
        QVERIFY(QDir(share + QStringLiteral("/big")).entryList(QDir::Files).isEmpty());
    }

    void foldersInTheTree()
    {
        MainWindow window(m_backend.get());
        QAbstractItemModelTester tester(window.treeModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        qint64 shareId = 0;
        for (const Share &s : m_backend->snapshot().workspaces.first().shares) {
            if (s.name == QLatin1String("myshare"))
                shareId = s.id;
        }
        const QString key = ResourceTreeModel::folderKey(shareId, QStringLiteral("cifar"));
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->indexForKey(key).isValid(), 10000);
        const QModelIndex folder = window.treeModel()->indexForKey(key);
        QCOMPARE(folder.data().toString(), QStringLiteral("cifar"));
        QCOMPARE(folder.parent().data().toString(), QStringLiteral("myshare"));
        QCOMPARE(folder.data(ResourceTreeModel::KindRole).value<ResourceTreeModel::Kind>(), ResourceTreeModel::Kind::ShareFolder);
        QVERIFY(window.selectKey(key));
        QCOMPARE(window.currentView(), static_cast<QWidget *>(window.infoView()));
        QVERIFY(window.infoView()->rows().contains(QStringLiteral("On the nodes: $AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar")));

        // Upload from the folder's row: the wizard opens on the upload page, into it.
        window.uploadAction()->trigger();
        auto *wizard = window.findChild<ShareWizard *>();
        QVERIFY(wizard);
        QCOMPARE(wizard->currentId(), int(ShareWizard::UploadPageId));
        QCOMPARE(wizard->uploadPage()->folder(), QStringLiteral("cifar"));
        QCOMPARE(wizard->sharePage()->shareId(), shareId);

        // After an upload into a new folder, Finish selects that folder in the tree.
        const QString src = m_home.filePath(QStringLiteral("src2"));
        QVERIFY(QDir().mkpath(src));
        QVERIFY(writeFile(src + QStringLiteral("/data.txt"), "1 2 3\n"));
        wizard->uploadPage()->setFolder(QStringLiteral("data"));
        wizard->uploadPage()->addFiles({src + QStringLiteral("/data.txt")});
        QSignalSpy finished(wizard->uploadPage(), &UploadPage::uploadFinished);
        wizard->uploadPage()->startUpload();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        wizard->button(QWizard::FinishButton)->click();
        QCOMPARE(window.selectedKey(), ResourceTreeModel::folderKey(shareId, QStringLiteral("data")));
    }

    void kindAndClusterAreValidated()
    {
        ShareWizard wizard(m_backend.get());
        wizard.show();
        SharePage *page = wizard.sharePage();
        page->nameEdit()->setText(QStringLiteral("nfs"));
        QCOMPARE(toString(page->kind()), QStringLiteral("local"));
        QVERIFY(!page->clusterCombo()->isEnabled());
        // The default workspace has the local cluster alone: no cluster for a cluster share.
        page->kindCombo()->setCurrentIndex(page->kindCombo()->findData(QStringLiteral("cluster")));
        QCOMPARE(toString(page->kind()), QStringLiteral("cluster"));
        QCOMPARE(page->clusterCombo()->count(), 0);
        QCOMPARE(page->problem(), QStringLiteral("workspace 'default' has no SSH cluster: a cluster share lives on a "
                                                 "cluster's nodes"));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        QVERIFY(page->folderEdit()->text().isEmpty());  // no local default for a path on the nodes

        // An SSH cluster whose only node refuses connections (nothing listens on port 1).
        const auto ws = m_store.workspace(QStringLiteral("default"));
        Cluster cluster;
        cluster.workspaceId = ws->id;
        cluster.name = QStringLiteral("gpus");
        cluster.kind = ClusterKind::Ssh;
        cluster.targetNodeCount = 1;
        cluster.mountRoot = QStringLiteral("/tmp/mnt");
        Node node;
        node.name = QStringLiteral("n1");
        node.host = QStringLiteral("127.0.0.1");
        node.port = 1;
        node.user = QStringLiteral("nobody");
        QVERIFY(m_store.createCluster(cluster, {node}));
        m_backend->pollNow();
        QTRY_VERIFY_WITH_TIMEOUT(m_backend->snapshot().findWorkspace(ws->id)->clusters.size() == 2, 10000);
        ShareWizard again(m_backend.get());
        again.show();
        page = again.sharePage();
        page->nameEdit()->setText(QStringLiteral("nfs"));
        page->kindCombo()->setCurrentIndex(page->kindCombo()->findData(QStringLiteral("replicated")));
        QCOMPARE(page->clusterCombo()->count(), 1);  // SSH clusters only
        QCOMPARE(page->clusterCombo()->currentText(), QStringLiteral("gpus"));
        QVERIFY(page->clusterCombo()->isEnabled());
        QCOMPARE(page->problem(), QStringLiteral("the path on the nodes must be an absolute path"));
        page->folderEdit()->setText(QStringLiteral("srv/share"));
        QVERIFY(!again.button(QWizard::NextButton)->isEnabled());
        page->folderEdit()->setText(QStringLiteral("/srv/share"));
        QCOMPARE(page->problem(), QString());
        QVERIFY(again.button(QWizard::NextButton)->isEnabled());

        // Next asks the nodes in the worker; the refusal names the node, and the page stays.
        again.next();
        QTRY_VERIFY_WITH_TIMEOUT(page->statusText().contains(QStringLiteral("Not created")), 30000);
        QVERIFY2(page->statusText().contains(QStringLiteral("n1")), qPrintable(page->statusText()));
        QCOMPARE(again.currentId(), int(ShareWizard::SharePageId));
        QVERIFY(!m_store.share(ws->id, QStringLiteral("nfs")));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestShareWizard)
#include "tst_sharewizard.moc"

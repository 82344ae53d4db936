// The share browser on the default local share with a real Backend and ShareWorker: it
// lists a folder with sizes, makes a folder, uploads (also by a drop), downloads without
// replacing a file that is there, and deletes only after the user confirms. The rules of
// the core (no path out of the share, links deleted and never followed) are shown too.
#include "MainWindow.h"
#include "MessageBoxes.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "common/StateStyle.h"
#include "defaults/EmbeddedDefaults.h"
#include "store/Store.h"
#include "info/ResourceInfoView.h"
#include "session/Backend.h"
#include "shares/ShareBrowser.h"
#include "shares/ShareFilesModel.h"
#include "shares/ShareService.h"

#include <QAbstractItemModelTester>
#include <QAbstractButton>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QStringList names(const ShareFilesModel *model)
{
    QStringList list;
    for (int r = 0; r < model->rowCount(); ++r)
        list << model->entryAt(r).name;
    list.sort();
    return list;
}

void select(ShareBrowser *browser, const QString &name)
{
    QTreeView *view = browser->view();
    const QModelIndexList found = view->model()->match(view->model()->index(0, 0), Qt::DisplayRole, name, 1, Qt::MatchExactly);
    QVERIFY(!found.isEmpty());
    view->selectionModel()->select(found.first(), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}


} // namespace

class TestShareBrowser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
        const auto ws = m_store.workspace(QLatin1String(EmbeddedDefaults::workspaceName));
        m_share = *m_store.share(ws->id, QStringLiteral("local"));
        QVERIFY(writeFile(m_share.path + QStringLiteral("/cifar/data.bin"), QByteArray(3000, 'x')));
        QVERIFY(writeFile(m_share.path + QStringLiteral("/cifar/train.py"), "print('hi')\n"));
        m_backend = std::make_unique<Backend>(DataPaths::databasePath(), 100);
    }

    void cleanupTestCase() { m_backend.reset(); }

    void deletePathStaysInTheShare()
    {
        ShareService service(m_store);
        QCOMPARE(service.deletePath(m_share, QString()).error(),
                 QStringLiteral("share 'local': name a file or folder to delete, not the share itself"));
        QCOMPARE(service.deletePath(m_share, QStringLiteral("cifar/..")).error(),
                 QStringLiteral("share 'local': name a file or folder to delete, not the share itself"));
        QCOMPARE(service.deletePath(m_share, QStringLiteral("../local-x")).error(),
                 QStringLiteral("folder '../local-x' is outside share 'local'"));
        QCOMPARE(service.deletePath(m_share, QStringLiteral("none.txt")).error(),
                 QStringLiteral("share 'local': no file or folder none.txt"));
        // A link out of the share: what it leads to is never reached, the link itself goes.
        const QString outside = m_home.filePath(QStringLiteral("outside"));
        QVERIFY(writeFile(outside + QStringLiteral("/secret.txt"), "keep me\n"));
        QVERIFY(QFile::link(outside, m_share.path + QStringLiteral("/out")));
        const auto through = service.deletePath(m_share, QStringLiteral("out/secret.txt"));
        QVERIFY(!through);
        QVERIFY2(through.error().startsWith(QStringLiteral("'%1' is outside share 'local' at").arg(m_share.path + QStringLiteral("/out"))),
                 qPrintable(through.error()));
        QVERIFY(QFileInfo::exists(outside + QStringLiteral("/secret.txt")));
        QVERIFY(service.deletePath(m_share, QStringLiteral("out")));
        QVERIFY(!QFileInfo(m_share.path + QStringLiteral("/out")).isSymLink());
        QVERIFY(QFileInfo::exists(outside + QStringLiteral("/secret.txt")));
    }

    void theCountIsTheFolderShown()
    {
        // cifar holds two files, the share's root one folder: each says its own count (the
        // root said "2 entries", issue 43). Sizes in IEC units, labelled as such.
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.selectByName(QStringLiteral("cifar")), 10000);
        ShareBrowser *browser = window.shareBrowser();
        QTRY_COMPARE_WITH_TIMEOUT(browser->statusText(), QStringLiteral("2 entries"), 10000);
        browser->openFolder(QString());
        QTRY_COMPARE_WITH_TIMEOUT(names(browser->model()), QStringList{QStringLiteral("cifar")}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(browser->statusText(), QStringLiteral("1 entry"), 10000);
        QCOMPARE(formatBytes(300000), QLocale().toString(293.0, 'f', 1) + QStringLiteral(" KiB"));
        QCOMPARE(formatBytes(3 * 1024 * 1024), QLocale().toString(3.0, 'f', 1) + QStringLiteral(" MiB"));
    }

    void listsMakesUploadsDownloadsAndDeletes()
    {
        MainWindow window(m_backend.get());
        window.show();
        // The share's folder in the tree opens the browser in it.
        QTRY_VERIFY_WITH_TIMEOUT(window.selectByName(QStringLiteral("cifar")), 10000);
        ShareBrowser *browser = window.shareBrowser();
        QCOMPARE(window.infoView()->extraTab(), static_cast<QWidget *>(browser));
        QAbstractItemModelTester tester(browser->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(browser->folder(), QStringLiteral("cifar"));
        QTRY_COMPARE_WITH_TIMEOUT(names(browser->model()), (QStringList{QStringLiteral("data.bin"), QStringLiteral("train.py")}),
                                  10000);
        const int row = browser->model()->rowOf(QStringLiteral("data.bin"));
        QCOMPARE(browser->model()->entryAt(row).size, qint64(3000));
        QCOMPARE(browser->model()->index(row, ShareFilesModel::SizeColumn).data().toString(), formatSize(3000));

        // A new folder, then into it and back up.
        QSignalSpy listed(browser, &ShareBrowser::listed);
        browser->makeFolder(QStringLiteral("results"));
        QTRY_VERIFY_WITH_TIMEOUT(names(browser->model()).contains(QStringLiteral("results")), 10000);
        QVERIFY(QFileInfo(m_share.path + QStringLiteral("/cifar/results")).isDir());
        QCOMPARE(browser->statusText(), QStringLiteral("Made folder results."));
        // From the keyboard: Enter opens the folder chosen, Backspace goes back up.
        const QModelIndexList results = browser->model()->match(browser->model()->index(0, 0), Qt::DisplayRole,
                                                                QStringLiteral("results"), 1, Qt::MatchExactly);
        QVERIFY(!results.isEmpty());
        browser->view()->setCurrentIndex(results.first());
        browser->view()->setFocus();
        QTest::keyClick(browser->view(), Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && listed.last().first().toString().isEmpty()
                                     && browser->folder() == QStringLiteral("cifar/results") && browser->model()->rowCount() == 0,
                                 10000);
        QTest::keyClick(browser->view(), Qt::Key_Backspace);
        QTRY_COMPARE_WITH_TIMEOUT(browser->folder(), QStringLiteral("cifar"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(names(browser->model()).contains(QStringLiteral("results")), 10000);
        browser->openFolder(QStringLiteral("cifar/results"));
        QTRY_VERIFY_WITH_TIMEOUT(browser->folder() == QStringLiteral("cifar/results") && browser->model()->rowCount() == 0,
                                 10000);

        // Files dropped on the list are uploaded into the folder shown.
        const QString source = m_home.filePath(QStringLiteral("src/model.h5"));
        QVERIFY(writeFile(source, "weights\n"));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(source)});
        QWidget *viewport = browser->view()->viewport();
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(names(browser->model()), QStringList{QStringLiteral("model.h5")}, 10000);
        QCOMPARE(browser->statusText(), QStringLiteral("Uploaded 1 file to Share local / cifar/results."));

        // Downloaded twice into one folder: the second copy is kept beside the first.
        const QString down = m_home.filePath(QStringLiteral("down"));
        QVERIFY(QDir().mkpath(down));
        select(browser, QStringLiteral("model.h5"));
        browser->downloadTo(down);
        QTRY_VERIFY_WITH_TIMEOUT(!browser->isBusy() && browser->statusText().startsWith(QStringLiteral("Downloaded")), 10000);
        QVERIFY(writeFile(down + QStringLiteral("/model.h5"), "mine\n"));
        browser->downloadTo(down);
        QTRY_COMPARE_WITH_TIMEOUT(browser->statusText(),
                                  QStringLiteral("Downloaded model.h5 as model (2).h5 to %1.").arg(QDir::toNativeSeparators(down)),
                                  10000);
        QFile mine(down + QStringLiteral("/model.h5"));
        QVERIFY(mine.open(QIODevice::ReadOnly));
        QCOMPARE(mine.readAll(), QByteArray("mine\n"));
        QFile copy(down + QStringLiteral("/model (2).h5"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("weights\n"));

        // Delete asks; Cancel keeps the file, Delete removes it.
        select(browser, QStringLiteral("model.h5"));
        browser->deleteSelected();
        QVERIFY(browser->question());
        QVERIFY(browser->question()->text().contains(QStringLiteral("model.h5")));
        answerQuestion(browser->question(), QStringLiteral("Cancel"));
        QTest::qWait(300);
        QVERIFY(QFileInfo::exists(m_share.path + QStringLiteral("/cifar/results/model.h5")));
        select(browser, QStringLiteral("model.h5"));
        browser->deleteSelected();
        answerQuestion(browser->question(), QStringLiteral("Delete"));
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() == 0 && !browser->isBusy(), 10000);
        QVERIFY(!QFileInfo::exists(m_share.path + QStringLiteral("/cifar/results/model.h5")));
        QCOMPARE(browser->statusText(), QStringLiteral("Deleted model.h5."));

        // A folder goes with what it holds; the tree's folders of the share follow.
        browser->openFolder(QString());
        QTRY_VERIFY_WITH_TIMEOUT(names(browser->model()).contains(QStringLiteral("cifar")), 10000);
        select(browser, QStringLiteral("cifar"));
        browser->deleteSelected();
        answerQuestion(browser->question(), QStringLiteral("Delete"));
        QTRY_VERIFY_WITH_TIMEOUT(!names(browser->model()).contains(QStringLiteral("cifar")) && !browser->isBusy(), 10000);
        QVERIFY(!QFileInfo::exists(m_share.path + QStringLiteral("/cifar")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.treeModel()
                                      ->match(window.treeModel()->index(0, 0), Qt::DisplayRole, QStringLiteral("cifar"), 1,
                                              Qt::MatchExactly | Qt::MatchRecursive)
                                      .value(0)
                                      .isValid(),
                                 10000);
    }

private:
    static QString formatSize(qint64 bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat); }

    TestHome m_home;
    Store m_store;
    Share m_share;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestShareBrowser)
#include "tst_sharebrowser.moc"

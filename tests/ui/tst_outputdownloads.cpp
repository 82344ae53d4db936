// Downloads of job files lose nothing: each job gets a folder of its own below the chosen
// one, a file already there is replaced, kept beside under a new name or skipped only as the
// user answers (once for the batch when asked to), and the message names the folder and
// opens it. Real Backend and worker on the local cluster; jobs are fake (FakeJob.h).
#include "BackendFixture.h"
#include "FakeJob.h"
#include "Grab.h"
#include "TestHome.h"
#include "files/DownloadPaths.h"
#include "files/OutputFilesView.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDesktopServices>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

QAbstractButton *buttonNamed(QMessageBox *box, const QString &text)
{
    for (QAbstractButton *b : box->buttons()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

} // namespace

// Stands in for the desktop's file manager: QDesktopServices hands it file: URLs.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void openUrl(const QUrl &url) { urls << url; }
};

class TestOutputDownloads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &m_catcher, "openUrl");
    }

    void cleanupTestCase()
    {
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        m_backend.reset();
    }

    void freeNames()
    {
        const QString dir = m_home.filePath(QStringLiteral("names"));
        QVERIFY(QDir().mkpath(dir));
        QCOMPARE(DownloadPaths::freePathFor(dir + QStringLiteral("/model.h5")), dir + QStringLiteral("/model (2).h5"));
        QVERIFY(writeFile(dir + QStringLiteral("/model (2).h5"), "x"));
        QCOMPARE(DownloadPaths::freePathFor(dir + QStringLiteral("/model.h5")), dir + QStringLiteral("/model (3).h5"));
        QCOMPARE(DownloadPaths::freePathFor(dir + QStringLiteral("/data.tar.gz")), dir + QStringLiteral("/data (2).tar.gz"));
        QCOMPARE(DownloadPaths::freePathFor(dir + QStringLiteral("/.hidden")), dir + QStringLiteral("/.hidden (2)"));
        QCOMPARE(DownloadPaths::freePathFor(dir + QStringLiteral("/README")), dir + QStringLiteral("/README (2)"));
        QCOMPARE(DownloadPaths::jobFolder(QStringLiteral("/d"), QStringLiteral("ws"), QStringLiteral("exp"), QStringLiteral("job")),
                 QStringLiteral("/d/ws/exp/job"));
        QCOMPARE(DownloadPaths::jobFolder(QStringLiteral("/d"), QStringLiteral("ws"), QStringLiteral(".."), QStringLiteral("a/b")),
                 QStringLiteral("/d/ws/_/a_b"));
    }

    void theFolderDialogOpensOnAFolderThatExists()
    {
        // A dialog opened on a missing folder has Choose disabled (issue 43): it opens on the
        // nearest folder above that exists, else home; the chosen base itself when it exists.
        const QString previous = DownloadPaths::baseFolder();
        const QString dir = m_home.filePath(QStringLiteral("dialog"));
        QVERIFY(QDir().mkpath(dir));
        DownloadPaths::setBaseFolder(dir + QStringLiteral("/not/yet"));
        QCOMPARE(DownloadPaths::dialogFolder(), dir);
        DownloadPaths::setBaseFolder(QStringLiteral("/no-such-folder-of-traindesk/Downloads/TrainDesk"));
        QCOMPARE(DownloadPaths::dialogFolder(), QDir::homePath());
        DownloadPaths::setBaseFolder(dir);
        QCOMPARE(DownloadPaths::dialogFolder(), dir);
        DownloadPaths::setBaseFolder(previous);
    }

    void checkpointsOnlyWhenChosen()
    {
        // "Download all" fetched every checkpoint with the model (issue #43).
        OutputFilesView view(m_backend.get());
        QPushButton *download = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>()) {
            if (button->text().startsWith(QStringLiteral("Download")))
                download = button;
        }
        QVERIFY(download);
        JobFile log{QStringLiteral("stdouterr"), QStringLiteral("stdout.txt"), QStringLiteral("/j/stdouterr/stdout.txt"), 5, {}};
        JobFile model{QStringLiteral("MODEL"), QStringLiteral("saved_models/fashion_mnist_trained_model.h5"),
                      QStringLiteral("/j/model/saved_models/fashion_mnist_trained_model.h5"), 500, {}};
        JobFile checkpoint{QStringLiteral("MODEL"), QStringLiteral("checkpoints/epoch-0001.ckpt"),
                           QStringLiteral("/j/model/checkpoints/epoch-0001.ckpt"), 500, {}};
        view.model()->setFiles({log, model});
        QCOMPARE(download->text(), QStringLiteral("Download all…"));
        view.model()->setFiles({log, model, checkpoint});
        QCOMPARE(download->text(), QStringLiteral("Download all but checkpoints…"));
        QVERIFY2(download->toolTip().contains(QStringLiteral("1 checkpoints only when you select")), qPrintable(download->toolTip()));
        QCOMPARE(view.model()->index(2, JobFilesModel::KindColumn).data().toString(), QStringLiteral("checkpoint"));
    }

    void secondJobNeverOverwritesTheFirst()
    {
        const QString dirA = m_home.filePath(QStringLiteral("jobA"));
        const QString dirB = m_home.filePath(QStringLiteral("jobB"));
        const qint64 a = createFakeRunningJob(m_store, QStringLiteral("first"), dirA);
        const qint64 b = createFakeRunningJob(m_store, QStringLiteral("second"), dirB);
        QVERIFY(a && b);
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/model.h5"), "weights of the first job"));
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/log.txt"), "log of the first job"));
        QVERIFY(writeFile(dirB + QStringLiteral("/stdouterr/model.h5"), "weights of the second job"));
        QTRY_VERIFY_WITH_TIMEOUT(m_backend->snapshot().findJob(b), 10000);

        const QString dest = m_home.filePath(QStringLiteral("downloads"));
        const QString folderA = dest + QStringLiteral("/default/demo/first");
        const QString folderB = dest + QStringLiteral("/default/demo/second");
        OutputFilesView view(m_backend.get());
        view.resize(900, 400);
        view.show();
        QSignalSpy finished(&view, &OutputFilesView::downloadsFinished);

        view.setJob(a, true);
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 2, 10000);
        view.downloadTo(dest);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/model.h5")), QByteArray("weights of the first job"));
        QVERIFY2(view.statusText().contains(QDir::toNativeSeparators(folderA)), qPrintable(view.statusText()));
        QVERIFY(view.statusText().startsWith(QStringLiteral("Downloaded 2 files to ")));
        QVERIFY(!view.openFolderButton()->isHidden());
        saveGrab(&view, QStringLiteral("downloaded"));
        view.openFolderButton()->click();
        QCOMPARE(m_catcher.urls, QList<QUrl>{QUrl::fromLocalFile(folderA)});

        view.setJob(b, true);
        QVERIFY(view.openFolderButton()->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 1, 10000);
        view.downloadTo(dest);
        QVERIFY(view.isDownloading());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
        QVERIFY(!view.conflictQuestion());  // its own folder: nothing was in the way
        QCOMPARE(contentsOf(folderB + QStringLiteral("/stdouterr/model.h5")), QByteArray("weights of the second job"));
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/model.h5")), QByteArray("weights of the first job"));
        QVERIFY(view.statusText().contains(QDir::toNativeSeparators(folderB)));

        // The first job's files changed; downloading again asks once and keeps both.
        view.setJob(a, true);
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/model.h5"), "weights, epoch 2"));
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/log.txt"), "log, epoch 2"));
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), 2, 10000);
        view.downloadTo(dest);
        QTRY_VERIFY_WITH_TIMEOUT(view.conflictQuestion(), 10000);
        QMessageBox *question = view.conflictQuestion();
        saveGrab(question, QStringLiteral("download-conflict"));
        QVERIFY(question->text().contains(QDir::toNativeSeparators(folderA)));
        QVERIFY(question->checkBox());
        question->checkBox()->setChecked(true);
        QAbstractButton *keepBoth = buttonNamed(question, QStringLiteral("&Keep both"));
        QVERIFY(keepBoth);
        keepBoth->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 20000);
        QCOMPARE(finished.last().at(0).toInt(), 2);
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/model.h5")), QByteArray("weights of the first job"));
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/model (2).h5")), QByteArray("weights, epoch 2"));
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/log.txt")), QByteArray("log of the first job"));
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/log (2).txt")), QByteArray("log, epoch 2"));
        QVERIFY2(view.statusText().contains(QStringLiteral("model (2).h5")), qPrintable(view.statusText()));
        saveGrab(&view, QStringLiteral("downloaded-kept-both"));

        // Answered file by file: skip one, replace the other.
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/model.h5"), "weights, epoch 3"));
        QVERIFY(writeFile(dirA + QStringLiteral("/stdouterr/log.txt"), "log, epoch 3"));
        // The file a question is about: "<path> already exists."
        const auto askedAbout = [&view] {
            QMessageBox *box = view.conflictQuestion();
            return box ? QFileInfo(box->text().section(QStringLiteral(" already exists"), 0, 0)).fileName() : QString();
        };
        QStringList asked;
        view.downloadTo(dest);
        for (int i = 0; i < 2; ++i) {
            QTRY_VERIFY_WITH_TIMEOUT(!askedAbout().isEmpty() && !asked.contains(askedAbout()), 10000);
            asked << askedAbout();
            const bool isModel = asked.last() == QStringLiteral("model.h5");
            buttonNamed(view.conflictQuestion(), isModel ? QStringLiteral("&Skip") : QStringLiteral("&Replace"))->click();
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, 20000);
        asked.sort();
        QCOMPARE(asked, (QStringList{QStringLiteral("log.txt"), QStringLiteral("model.h5")}));
        QCOMPARE(finished.last().at(0).toInt(), 1);
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/model.h5")), QByteArray("weights of the first job"));
        QCOMPARE(contentsOf(folderA + QStringLiteral("/stdouterr/log.txt")), QByteArray("log, epoch 3"));
        QVERIFY(!QFile::exists(folderA + QStringLiteral("/stdouterr/model (3).h5")));
        QVERIFY2(view.statusText().contains(QStringLiteral("Skipped 1 file")), qPrintable(view.statusText()));

        QVERIFY(appendToFile(dirA + QStringLiteral("/exit_code"), "0\n"));
        QVERIFY(appendToFile(dirB + QStringLiteral("/exit_code"), "0\n"));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
    UrlCatcher m_catcher;
};

QTEST_MAIN(TestOutputDownloads)
#include "tst_outputdownloads.moc"

// The Data sets dialog on a real Backend and the embedded `local` share, fetching from the
// test's own HTTP server on loopback (DataSetMirrorServer.h): the share's menu opens it, a
// fetch lands the archive in the share and the list shows it verified, a second fetch does
// nothing, Stop keeps a stalled download's partial file (shown as partly there) and the next
// Fetch continues it with HTTP Range, an unreachable address gets an error naming it and how
// to place the file by hand, and From file… then places the file given, verified.
#include "BackendFixture.h"
#include "DataSetMirrorServer.h"
#include "Grab.h"
#include "TestHome.h"
#include "datasets/DataSetsDialog.h"
#include "MainWindow.h"
#include "datasets/DataSetCatalogue.h"
#include "tree/ResourceTreeModel.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestDataSetsDialog : public QObject
{
    Q_OBJECT

private:
    const Share &localShare() const { return m_backend->snapshot().workspaces.first().shares.first(); }

    static QByteArray contents(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // Waits for the fetch the dialog started and the states it reads after it.
    static QString finishFetch(DataSetsDialog &dialog)
    {
        QSignalSpy finished(&dialog, &DataSetsDialog::fetchFinished);
        QSignalSpy shown(&dialog, &DataSetsDialog::statesShown);
        if (!finished.wait(60000))
            return QStringLiteral("no answer");
        if (!shown.wait(10000))
            return QStringLiteral("no states after the fetch");
        return finished.first().first().toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
        QVERIFY2(m_mirror.writeArchives(), "cannot write the test archives (python3 with numpy)");
        QVERIFY(m_mirror.start());
    }

    void cleanupTestCase() { m_backend.reset(); }

    void openedFromTheSharesMenu()
    {
        MainWindow window(m_backend.get());
        QVERIFY(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Share, localShare().id)));
        QVERIFY(window.dataSetsAction()->isEnabled());
        DataSetsDialog *dialog = window.openDataSetsDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->windowTitle(), QStringLiteral("Data sets in share local"));
        QVERIFY(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Experiment,
                                                           m_backend->snapshot().workspaces.first().experiments.first().experiment.id)));
        QVERIFY(!window.dataSetsAction()->isEnabled());
        dialog->close();
    }

    void fetchShowsItVerified()
    {
        DataSetsDialog dialog(DataPaths::databasePath(), localShare());
        QSignalSpy shown(&dialog, &DataSetsDialog::statesShown);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!shown.isEmpty() || shown.wait(10000));
        QCOMPARE(dialog.list()->topLevelItemCount(), int(DataSetCatalogue::all().size()));
        QCOMPARE(dialog.stateOf(QStringLiteral("cifar10")), QStringLiteral("not fetched"));
        QCOMPARE(dialog.stateOf(QStringLiteral("mnist")), QStringLiteral("not fetched"));

        QVERIFY(dialog.selectDataSet(QStringLiteral("cifar10")));
        dialog.fetchButton()->click();
        QVERIFY(dialog.fetching());
        QVERIFY(!dialog.fetchButton()->isEnabled());
        QVERIFY(dialog.stopButton()->isEnabled());
        QCOMPARE(finishFetch(dialog), QString());
        QVERIFY2(dialog.stateOf(QStringLiteral("cifar10")).startsWith(QStringLiteral("fetched and verified")),
                 qPrintable(dialog.stateOf(QStringLiteral("cifar10"))));
        QVERIFY2(dialog.statusText().contains(QStringLiteral("is in share local, verified")),
                 qPrintable(dialog.statusText()));
        QVERIFY(dialog.fetchButton()->isEnabled());
        const QString fetched = localShare().path + QStringLiteral("/cifar10/cifar-10-python.tar.gz");
        const QByteArray served = contents(m_mirror.archive(QStringLiteral("cifar10/cifar-10-python.tar.gz")));
        QVERIFY(!served.isEmpty());
        QCOMPARE(contents(fetched), served);
        QVERIFY(QFile::exists(localShare().path + QStringLiteral("/cifar10/traindesk-dataset.json")));
        saveGrab(&dialog, QStringLiteral("datasets-fetched"));

        // Again: nothing is downloaded.
        const int requests = m_mirror.requests();
        QCOMPARE(requests, 1);
        dialog.fetchButton()->click();
        QCOMPARE(finishFetch(dialog), QString());
        QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Nothing to do")),
                 qPrintable(dialog.statusText()));
        QVERIFY(dialog.stateOf(QStringLiteral("cifar10")).startsWith(QStringLiteral("fetched and verified")));
        QCOMPARE(m_mirror.requests(), requests);
    }

    void stopKeepsThePartialDownload()
    {
        // A share of its own, so the partial file meets no other test.
        Share stalled;
        stalled.workspaceId = localShare().workspaceId;
        stalled.name = QStringLiteral("stalled");
        stalled.kind = ShareKind::Local;
        stalled.path = m_home.filePath(QStringLiteral("stalled-share"));
        const auto created = m_store.createShare(stalled);
        QVERIFY2(created, qPrintable(created.error()));
        QVERIFY(m_mirror.start({QStringLiteral("--stall-after"), QStringLiteral("100000")}));

        DataSetsDialog dialog(DataPaths::databasePath(), *created);
        QSignalSpy shown(&dialog, &DataSetsDialog::statesShown);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!shown.isEmpty() || shown.wait(10000));
        QVERIFY(dialog.selectDataSet(QStringLiteral("cifar10")));
        dialog.fetchButton()->click();
        const QString part = stalled.path + QStringLiteral("/cifar10/.cifar-10-python.tar.gz.download.traindesk-part");
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(part).size() >= 100000, 20000);
        QVERIFY(dialog.stopButton()->isEnabled());
        dialog.stopButton()->click();
        const QString error = finishFetch(dialog);
        QVERIFY2(error.contains(QStringLiteral("cancelled")), qPrintable(error));
        QCOMPARE(QFileInfo(part).size(), 100000);
        QVERIFY(!QFile::exists(stalled.path + QStringLiteral("/cifar10/cifar-10-python.tar.gz")));
        QCOMPARE(dialog.stateOf(QStringLiteral("cifar10")), QStringLiteral("partly there: Fetch continues it"));

        // The server serves whole again: Fetch continues from the partial file.
        QVERIFY(m_mirror.start());
        dialog.fetchButton()->click();
        QCOMPARE(finishFetch(dialog), QString());
        QVERIFY(dialog.stateOf(QStringLiteral("cifar10")).startsWith(QStringLiteral("fetched and verified")));
        QCOMPARE(contents(stalled.path + QStringLiteral("/cifar10/cifar-10-python.tar.gz")),
                 contents(m_mirror.archive(QStringLiteral("cifar10/cifar-10-python.tar.gz"))));
        QVERIFY(!QFile::exists(part));
        QVERIFY2(contents(m_mirror.logPath()).contains("GET /cifar10/cifar-10-python.tar.gz bytes=100000-"),
                 contents(m_mirror.logPath()).constData());
    }

    void unreachableThenFromFile()
    {
        m_mirror.stop();
        DataSetsDialog dialog(DataPaths::databasePath(), localShare());
        QSignalSpy shown(&dialog, &DataSetsDialog::statesShown);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!shown.isEmpty() || shown.wait(10000));
        QVERIFY(dialog.selectDataSet(QStringLiteral("cifar10-binary")));
        dialog.fetchButton()->click();
        const QString error = finishFetch(dialog);
        QVERIFY(!error.isEmpty());
        const QString address = QStringLiteral("http://127.0.0.1:%1/cifar10-binary/cifar-10-binary.tar.gz").arg(m_mirror.port());
        const QString text = dialog.statusText();
        QVERIFY2(text.contains(address), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("To place it by hand")) && text.contains(QStringLiteral("From file…")),
                 qPrintable(text));
        QCOMPARE(dialog.stateOf(QStringLiteral("cifar10-binary")), QStringLiteral("not fetched"));
        saveGrab(&dialog, QStringLiteral("datasets-unreachable"));

        // The file "downloaded by hand", under another name: recognised by its checksum.
        const QString byHand = m_home.filePath(QStringLiteral("downloaded.tgz"));
        QVERIFY(QFile::copy(m_mirror.archive(QStringLiteral("cifar10-binary/cifar-10-binary.tar.gz")), byHand));
        dialog.fetchSelected({byHand});
        QCOMPARE(finishFetch(dialog), QString());
        QVERIFY2(dialog.stateOf(QStringLiteral("cifar10-binary")).startsWith(QStringLiteral("fetched and verified")),
                 qPrintable(dialog.stateOf(QStringLiteral("cifar10-binary"))));
        QCOMPARE(contents(localShare().path + QStringLiteral("/cifar10-binary/cifar-10-binary.tar.gz")), contents(byHand));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
    DataSetMirrorServer m_mirror{m_home.filePath(QStringLiteral("mirror-work"))};
};

QTEST_MAIN(TestDataSetsDialog)
#include "tst_datasetsdialog.moc"

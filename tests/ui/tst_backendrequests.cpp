// The Backend's requests through the worker thread: creating workspaces, experiments,
// shares and jobs (answers carry the new row, and the snapshot shows it by then), share
// uploads with progress and cancel (ShareUpload alone too), small file reads and writes.
#include "BackendFixture.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "session/Backend.h"
#include "shares/ShareUpload.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace TrainDesk;

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

} // namespace

class TestBackendRequests : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void workspacesAndExperiments()
    {
        // When the answer comes, the snapshot already holds the new row.
        bool seenInSnapshot = false;
        const auto check = connect(m_backend.get(), &Backend::requestFinished, this,
                                   [&](int, qint64 id, const QString &) {
                                       seenInSnapshot = m_backend->snapshot().findWorkspace(id) != nullptr;
                                   });
        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        const int ws = m_backend->createWorkspace(QStringLiteral("tutorial"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        disconnect(check);
        QCOMPARE(finished.at(0).at(0).toInt(), ws);
        const qint64 wsId = finished.at(0).at(1).toLongLong();
        QVERIFY(wsId > 0);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        QVERIFY(seenInSnapshot);
        QCOMPARE(m_backend->snapshot().findWorkspace(wsId)->workspace.name, QStringLiteral("tutorial"));

        const int exp = m_backend->createExperiment(QStringLiteral("tutorial"), QStringLiteral("cifar"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QCOMPARE(finished.at(1).at(0).toInt(), exp);
        const qint64 expId = finished.at(1).at(1).toLongLong();
        QVERIFY(expId > 0);
        QCOMPARE(m_backend->snapshot().findExperiment(expId)->experiment.workspaceId, wsId);

        // Refusals come back as one line, with id 0.
        m_backend->createWorkspace(QStringLiteral("tutorial"));
        m_backend->createWorkspace(QStringLiteral("bad name"));
        m_backend->createExperiment(QStringLiteral("nowhere"), QStringLiteral("x"));
        m_backend->createExperiment(QStringLiteral("tutorial"), QStringLiteral("cifar"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 6, 10000);
        for (int i = 2; i < 6; ++i) {
            QCOMPARE(finished.at(i).at(1).toLongLong(), 0);
            QVERIFY(!finished.at(i).at(2).toString().isEmpty());
        }
        QVERIFY(finished.at(2).at(2).toString().contains(QStringLiteral("exists")));
        QVERIFY(finished.at(3).at(2).toString().contains(QStringLiteral("bad name")));
        QVERIFY(finished.at(4).at(2).toString().contains(QStringLiteral("nowhere")));
    }

    void submitJobs()
    {
        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        SubmitRequest request;
        request.workspace = QLatin1String(EmbeddedDefaults::workspaceName);
        request.experiment = QLatin1String(EmbeddedDefaults::experimentName);
        request.cluster = QLatin1String(EmbeddedDefaults::clusterName);
        request.job = QStringLiteral("draft-copy");
        request.spec = EmbeddedDefaults::demoJobSpec();
        request.draft = true;
        const int id = m_backend->submitJob(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished.at(0).at(0).toInt(), id);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        const Job *job = m_backend->snapshot().findJob(finished.at(0).at(1).toLongLong());
        QVERIFY(job);
        QCOMPARE(job->name, QStringLiteral("draft-copy"));
        QCOMPARE(toString(job->state), QStringLiteral("draft"));
        QCOMPARE(job->spec, request.spec);

        // What JobSubmission::submit refuses: the same name, a spec that does not pass.
        m_backend->submitJob(request);
        request.job = QStringLiteral("too-big");
        request.spec.replace("\"nodeCount\": 1", "\"nodeCount\": 5");
        m_backend->submitJob(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 10000);
        QVERIFY(finished.at(1).at(2).toString().contains(QStringLiteral("already exists")));
        QVERIFY2(finished.at(2).at(2).toString().contains(QStringLiteral("nodeCount")),
                 qPrintable(finished.at(2).at(2).toString()));
        QCOMPARE(finished.at(2).at(1).toLongLong(), 0);
    }

    void createShares()
    {
        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        const QString folder = m_home.filePath(QStringLiteral("myshare-folder"));
        m_backend->createShare(QStringLiteral("default"), QStringLiteral("myshare"), folder);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished.at(0).at(2).toString(), QString());
        QVERIFY(QFileInfo(folder).isDir());
        const Share *share = m_backend->snapshot().findShare(finished.at(0).at(1).toLongLong());
        QVERIFY(share);
        QCOMPARE(share->path, folder);
        QCOMPARE(toString(share->kind), QStringLiteral("local"));

        QVERIFY(writeFile(m_home.filePath(QStringLiteral("a-file")), "x"));
        const QString unused = m_home.filePath(QStringLiteral("never-made"));
        m_backend->createShare(QStringLiteral("default"), QStringLiteral("myshare"), unused);     // name taken
        m_backend->createShare(QStringLiteral("default"), QStringLiteral("rel"), QStringLiteral("relative/dir"));
        m_backend->createShare(QStringLiteral("default"), QStringLiteral("onfile"), m_home.filePath(QStringLiteral("a-file")));
        m_backend->createShare(QStringLiteral("default"), QStringLiteral("bad name"), unused);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 5, 10000);
        QVERIFY(finished.at(1).at(2).toString().contains(QStringLiteral("already exists")));
        QVERIFY(finished.at(2).at(2).toString().contains(QStringLiteral("absolute")));
        QVERIFY(finished.at(3).at(2).toString().contains(QStringLiteral("not a folder")));
        QVERIFY(finished.at(4).at(2).toString().contains(QStringLiteral("bad name")));
        // A refused share leaves no folder behind.
        QVERIFY(!QFileInfo::exists(unused));
    }

    void uploadWithProgress()
    {
        QVERIFY(findShare(QStringLiteral("myshare")));
        const qint64 shareId = findShare(QStringLiteral("myshare"))->id;
        const QString src = m_home.filePath(QStringLiteral("src"));
        QVERIFY(QDir().mkpath(src));
        const QByteArray big(3 * 1024 * 1024 + 5, 'b');
        QVERIFY(writeFile(src + QStringLiteral("/cifar_cnn_distributed.py"), "print('hi')\n"));
        QVERIFY(writeFile(src + QStringLiteral("/big.bin"), big));
        QVERIFY(writeFile(src + QStringLiteral("/empty.txt"), {}));

        QSignalSpy progress(m_backend.get(), &Backend::uploadProgress);
        QSignalSpy done(m_backend.get(), &Backend::uploadFinished);
        bool folderListed = false;
        const auto check = connect(m_backend.get(), &Backend::uploadFinished, this, [&] {
            folderListed = m_backend->snapshot().shareFolders.value(shareId).contains(QStringLiteral("cifar"));
        });
        const int id = m_backend->uploadToShare(shareId, QStringLiteral("cifar"),
                                                {src + QStringLiteral("/cifar_cnn_distributed.py"),
                                                 src + QStringLiteral("/big.bin"), src + QStringLiteral("/empty.txt")});
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        disconnect(check);
        QCOMPARE(done.at(0).at(0).toInt(), id);
        QCOMPARE(done.at(0).at(1).toInt(), 3);
        QCOMPARE(done.at(0).at(2).toString(), QString());
        QVERIFY(folderListed);  // the tree can show Shares > myshare > cifar at once
        const QString dest = findShare(QStringLiteral("myshare"))->path + QStringLiteral("/cifar");
        QCOMPARE(readAll(dest + QStringLiteral("/big.bin")), big);
        QCOMPARE(readAll(dest + QStringLiteral("/cifar_cnn_distributed.py")), QByteArray("print('hi')\n"));
        QCOMPARE(readAll(dest + QStringLiteral("/empty.txt")), QByteArray());
        QVERIFY(QDir(dest).entryList({QStringLiteral("*.part")}, QDir::Files).isEmpty());
        // Progress: one request, never backwards, ending at the total.
        QVERIFY(progress.count() >= 4);
        qint64 last = -1;
        const qint64 total = big.size() + 12;
        for (const auto &p : std::as_const(progress)) {
            QCOMPARE(p.at(0).toInt(), id);
            QVERIFY(p.at(1).toLongLong() >= last);
            last = p.at(1).toLongLong();
            QCOMPARE(p.at(2).toLongLong(), total);
        }
        QCOMPARE(last, total);

        // Outside the share, a missing file, a share that is not local: refused.
        const int escape = m_backend->uploadToShare(shareId, QStringLiteral("../escape"), {src + QStringLiteral("/empty.txt")});
        const int missing = m_backend->uploadToShare(shareId, QStringLiteral("cifar"), {src + QStringLiteral("/missing")});
        const int noShare = m_backend->uploadToShare(987654, QStringLiteral("cifar"), {src + QStringLiteral("/empty.txt")});
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 4, 10000);
        QHash<int, QString> errors;  // answers come in the order they are done, not asked
        for (int i = 1; i < 4; ++i)
            errors.insert(done.at(i).at(0).toInt(), done.at(i).at(2).toString());
        QVERIFY(errors.value(escape).contains(QStringLiteral("outside")));
        QVERIFY(errors.value(missing).contains(QStringLiteral("not a file")));
        QVERIFY(errors.value(noShare).contains(QStringLiteral("no longer exists")));
        QVERIFY(!QFileInfo::exists(findShare(QStringLiteral("myshare"))->path + QStringLiteral("/../escape")));
    }

    void uploadCancelled()
    {
        // A copy: the snapshot it points into is replaced while the test waits.
        QVERIFY(findShare(QStringLiteral("myshare")));
        const Share share = *findShare(QStringLiteral("myshare"));
        // Sparse: big to copy, nothing to write here.
        const QString huge = m_home.filePath(QStringLiteral("huge.bin"));
        QFile file(huge);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(256) * 1024 * 1024));
        file.close();
        QSignalSpy done(m_backend.get(), &Backend::uploadFinished);
        const int id = m_backend->uploadToShare(share.id, QStringLiteral("big"), {huge});
        m_backend->cancelUpload(id);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        QCOMPARE(done.at(0).at(1).toInt(), 0);
        QVERIFY2(done.at(0).at(2).toString().contains(QStringLiteral("cancelled")), qPrintable(done.at(0).at(2).toString()));
        const QDir dest(share.path + QStringLiteral("/big"));
        QVERIFY(dest.entryList(QDir::Files).isEmpty());  // neither the file nor its .part
    }

    void shareUploadAlone()
    {
        Share share;
        share.name = QStringLiteral("s");
        share.kind = ShareKind::Local;
        share.path = m_home.filePath(QStringLiteral("alone"));
        QVERIFY(ShareUpload::folderPath(share, QString()));
        QCOMPARE(*ShareUpload::folderPath(share, QStringLiteral("a/b/../c")), share.path + QStringLiteral("/a/c"));
        QVERIFY(!ShareUpload::folderPath(share, QStringLiteral("a/../../x")));
        QVERIFY(!ShareUpload::folderPath(share, QStringLiteral("/etc")));
        Share remote = share;
        remote.kind = ShareKind::ClusterPath;
        // The folder rules are the same for every kind; copying is for local shares only.
        QCOMPARE(*ShareUpload::folderPath(remote, QStringLiteral("x")), share.path + QStringLiteral("/x"));
        std::atomic_bool notCancelled{false};
        QVERIFY(ShareUpload::copy(remote, QStringLiteral("x"), {}, notCancelled, {}).error.contains(QStringLiteral("its files are on the nodes")));
        QVERIFY(ShareUpload::folders(remote).isEmpty());

        const QString one = m_home.filePath(QStringLiteral("one.bin"));
        const QString two = m_home.filePath(QStringLiteral("two.bin"));
        QVERIFY(writeFile(one, QByteArray(10, '1')));
        QVERIFY(writeFile(two, QByteArray(3 * 1024 * 1024, '2')));
        // Two sources with one name would overwrite each other: refused before copying.
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("other"))));
        QVERIFY(writeFile(m_home.filePath(QStringLiteral("other/one.bin")), "x"));
        std::atomic_bool cancel{false};
        auto outcome = ShareUpload::copy(share, QStringLiteral("d"), {one, m_home.filePath(QStringLiteral("other/one.bin"))},
                                         cancel, {});
        QVERIFY(outcome.error.contains(QStringLiteral("two files are named one.bin")));
        QCOMPARE(outcome.copied, 0);

        // Cancelled in the middle of the second file: the first stays, no half file.
        outcome = ShareUpload::copy(share, QStringLiteral("d"), {one, two}, cancel,
                                    [&](qint64 done, qint64, const QString &file) {
                                        if (file == QLatin1String("two.bin") && done > 10)
                                            cancel.store(true);
                                    });
        QCOMPARE(outcome.copied, 1);
        QCOMPARE(outcome.error, QStringLiteral("upload cancelled after 1 of 2 files"));
        QCOMPARE(QDir(share.path + QStringLiteral("/d")).entryList(QDir::Files), QStringList{QStringLiteral("one.bin")});
        QCOMPARE(ShareUpload::folders(share), QStringList{QStringLiteral("d")});
    }

    void readAndWriteFiles()
    {
        QSignalSpy written(m_backend.get(), &Backend::fileWritten);
        QSignalSpy read(m_backend.get(), &Backend::fileRead);
        const QString path = m_home.filePath(QStringLiteral("export/job.json"));
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("export"))));
        const int w = m_backend->writeFile(path, "{\"properties\": {}}\n");
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 10000);
        QCOMPARE(written.at(0).at(0).toInt(), w);
        QCOMPARE(written.at(0).at(1).toString(), QString());
        const int r = m_backend->readFile(path);
        m_backend->readFile(m_home.filePath(QStringLiteral("nope.json")));
        m_backend->writeFile(m_home.filePath(QStringLiteral("no-such-dir/job.json")), "x");
        QTRY_COMPARE_WITH_TIMEOUT(read.count(), 2, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 2, 10000);
        QCOMPARE(read.at(0).at(0).toInt(), r);
        QCOMPARE(read.at(0).at(1).toByteArray(), QByteArray("{\"properties\": {}}\n"));
        QVERIFY(read.at(1).at(2).toString().contains(QStringLiteral("nope.json")));
        QVERIFY(written.at(1).at(1).toString().contains(QStringLiteral("cannot write")));
    }

private:
    const Share *findShare(const QString &name) const
    {
        for (const auto &ws : m_backend->snapshot().workspaces) {
            for (const Share &s : ws.shares) {
                if (s.name == name && ws.workspace.name == QLatin1String("default"))
                    return &s;
            }
        }
        return nullptr;
    }

    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_GUILESS_MAIN(TestBackendRequests)
#include "tst_backendrequests.moc"

// The local cluster's transport does everything the Transport interface promises, so
// callers never need to know whether a node is this machine or an SSH host: streamed
// output as it arrives, cancel and timeout that end the whole process group, and file
// copies that appear only when complete.
#include "transport/LocalTransport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <thread>

using namespace TrainDesk;

namespace {

bool processAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestLocalTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void streamedExecDeliversOutputBeforeTheEnd()
    {
        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        QElapsedTimer clock;
        clock.start();
        qint64 firstChunkAt = -1;
        QByteArray out, err;
        ExecHandlers handlers;
        handlers.onStdOut = [&](const QByteArray &data) {
            if (firstChunkAt < 0)
                firstChunkAt = clock.elapsed();
            out += data;
        };
        handlers.onStdErr = [&](const QByteArray &data) { err += data; };
        const auto status = local.exec(QStringLiteral("echo first; sleep 1.5; echo second; echo oops >&2; exit 7"),
                                       handlers);
        QVERIFY2(status, qPrintable(status.error()));
        QCOMPARE(*status, 7);
        QCOMPARE(out, QByteArray("first\nsecond\n"));
        QCOMPARE(err, QByteArray("oops\n"));
        // The first line came while the command was still sleeping.
        QVERIFY2(firstChunkAt >= 0 && firstChunkAt < 1200, qPrintable(QString::number(firstChunkAt)));
        QVERIFY(clock.elapsed() >= 1500);
    }

    void cancelEndsTheWholeProcessGroup()
    {
        QTemporaryDir dir;
        const QString pidFile = dir.filePath(QStringLiteral("child.pid"));
        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        CancelFlag cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(800));
            cancel.cancel();
        });
        QElapsedTimer clock;
        clock.start();
        const auto status = local.exec(QStringLiteral("sleep 60 & echo $! > '%1'; wait").arg(pidFile), {}, &cancel);
        canceller.join();
        QVERIFY(!status);
        QVERIFY2(status.error().contains(QLatin1String("cancelled")), qPrintable(status.error()));
        QVERIFY(clock.elapsed() < 5000);
        const qint64 child = readAll(pidFile).trimmed().toLongLong();
        QVERIFY(child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(child), 3000);
    }

    void timeoutEndsTheCommandAndSaysSo()
    {
        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        QElapsedTimer clock;
        clock.start();
        const auto status = local.exec(QStringLiteral("sleep 30"), {}, nullptr, 500);
        QVERIFY(!status);
        QVERIFY2(status.error().contains(QLatin1String("timed out")), qPrintable(status.error()));
        QVERIFY(clock.elapsed() < 5000);
    }

    void uploadAndDownloadCopyWholeFilesWithProgress()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("model.h5"));
        QByteArray data(3 * 1024 * 1024 + 17, Qt::Uninitialized);
        for (int i = 0; i < data.size(); ++i)
            data[i] = char(i * 31 + 7);
        {
            QFile f(source);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(data);
        }
        QFile::setPermissions(source, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("remote")));
        const QString target = dir.filePath(QStringLiteral("remote/model.h5"));

        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        qint64 lastDone = 0, lastTotal = 0;
        TransferOptions options;
        options.progress = [&](qint64 done, qint64 total) {
            QVERIFY(done >= lastDone);
            lastDone = done;
            lastTotal = total;
        };
        QVERIFY(local.upload(source, target, options));
        QCOMPARE(readAll(target), data);
        QCOMPARE(lastDone, qint64(data.size()));
        QCOMPARE(lastTotal, qint64(data.size()));
        QVERIFY(QFileInfo(target).permissions() & QFileDevice::ExeOwner);
        // Nothing but the file itself is left in the folder.
        QCOMPARE(QDir(dir.filePath(QStringLiteral("remote"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("model.h5")});

        const QString back = dir.filePath(QStringLiteral("back.h5"));
        QVERIFY(local.download(target, back));
        QCOMPARE(readAll(back), data);
    }

    void cancelledCopyLeavesTheOldFileAndNoLitter()
    {
        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("big.bin"));
        {
            QFile f(source);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4 * 1024 * 1024, 'n'));
        }
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out")));
        const QString target = dir.filePath(QStringLiteral("out/big.bin"));
        {
            QFile f(target);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old");
        }
        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        CancelFlag cancel;
        TransferOptions options;
        options.cancel = &cancel;
        options.progress = [&](qint64, qint64) { cancel.cancel(); };
        const auto copied = local.upload(source, target, options);
        QVERIFY(!copied);
        QVERIFY2(copied.error().contains(QLatin1String("cancelled")), qPrintable(copied.error()));
        QCOMPARE(readAll(target), QByteArray("old"));
        QCOMPARE(QDir(dir.filePath(QStringLiteral("out"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("big.bin")});
    }

    void removeAndRenameNameWhatFailed()
    {
        QTemporaryDir dir;
        LocalTransport machine;
        Transport &local = machine; // used as callers do: through the interface
        const QString folder = dir.filePath(QStringLiteral("a/b"));
        QVERIFY(local.makeDirectories(folder));
        QVERIFY(local.writeFile(folder + QStringLiteral("/f.txt"), "x"));
        QVERIFY(local.rename(folder + QStringLiteral("/f.txt"), folder + QStringLiteral("/g.txt")));
        QVERIFY(QFile::exists(folder + QStringLiteral("/g.txt")));
        const auto notEmpty = local.remove(dir.filePath(QStringLiteral("a")));
        QVERIFY(!notEmpty);
        QVERIFY2(notEmpty.error().contains(dir.filePath(QStringLiteral("a"))), qPrintable(notEmpty.error()));
        QVERIFY(local.remove(dir.filePath(QStringLiteral("a")), true));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("a"))));
        const auto missing = local.rename(dir.filePath(QStringLiteral("nosuch")), dir.filePath(QStringLiteral("x")));
        QVERIFY(!missing);
        QVERIFY2(missing.error().contains(QLatin1String("nosuch")), qPrintable(missing.error()));
    }

    // Issue #38: `job file list` showed a link to a folder as a folder (isDir follows links)
    // and left out dangling links. (Mutations caught: `fi.isDir()` without `&& !link`;
    // QDir::System dropped from the listing.)
    void linksAreListedAsLinksDanglingOnesToo()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("real")), dir.filePath(QStringLiteral("to-folder"))));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone")), dir.filePath(QStringLiteral("dangling"))));
        LocalTransport transport;
        const auto listed = transport.list(dir.path());
        QVERIFY2(listed, qPrintable(listed.error()));
        QStringList seen;
        for (const RemoteFileInfo &f : *listed)
            seen << QStringLiteral("%1:%2%3").arg(f.name).arg(f.isDirectory ? "d" : "-").arg(f.isLink ? "l" : "-");
        QCOMPARE(seen.join(QLatin1Char(' ')), QStringLiteral("dangling:-l real:d- to-folder:-l"));
    }
};

QTEST_GUILESS_MAIN(TestLocalTransport)
#include "tst_localtransport.moc"

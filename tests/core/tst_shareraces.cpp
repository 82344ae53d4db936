// Share file operations while another user swaps a folder of the share for a link out of
// it, as fast as the kernel allows (renameat2 RENAME_EXCHANGE in a loop): 200 uploads,
// 200 downloads, 200 listings and 200 deletes through the swapped name, and not one reaches
// outside the share. Some are refused (the name was a link when looked at): that is the
// point. Links are listed as links, with where they point. core.tst_shareraces.without_openat2
// runs the same with openat2 refused by a seccomp filter, as in a container: BeneathFiles'
// walk one component at a time.
#include "common/ResultLog.h"
#include "NameSwapper.h"
#include "WithoutOpenat2.h"
#include "shares/ShareService.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>


using namespace TrainDesk;

class TestShareRaces : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;
    Share m_share;

    QString path(const QString &relative) const { return m_dir.filePath(relative); }
    static bool write(const QString &file, const QByteArray &data)
    {
        QDir().mkpath(QFileInfo(file).absolutePath());
        QFile f(file);
        return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
    }
    static QByteArray read(const QString &file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // The share's folder `name` (holding `inside`) and `name`-link, a link to the folder
    // `outside` (holding `outsideFiles`).
    void arrange(const QString &name, const QString &outside, const QMap<QString, QByteArray> &inside,
                 const QMap<QString, QByteArray> &outsideFiles)
    {
        QDir(path(QStringLiteral("share/") + name)).removeRecursively();
        QFile::remove(path(QStringLiteral("share/") + name + QStringLiteral("-link")));
        QDir(path(outside)).removeRecursively();
        QVERIFY(QDir().mkpath(path(QStringLiteral("share/") + name)));
        QVERIFY(QDir().mkpath(path(outside)));
        for (auto it = inside.begin(); it != inside.end(); ++it)
            QVERIFY(write(path(QStringLiteral("share/%1/%2").arg(name, it.key())), it.value()));
        for (auto it = outsideFiles.begin(); it != outsideFiles.end(); ++it)
            QVERIFY(write(path(outside + QLatin1Char('/') + it.key()), it.value()));
        QVERIFY(QFile::link(path(outside), path(QStringLiteral("share/") + name + QStringLiteral("-link"))));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsSet("TRAINDESK_TEST_WITHOUT_OPENAT2"))
            QVERIFY2(Testing::refuseOpenat2(), "the seccomp filter refusing openat2 could not be installed");
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_store.open(path(QStringLiteral("traindesk.db"))));
        m_share.name = QStringLiteral("local");
        m_share.kind = ShareKind::Local;
        m_share.path = path(QStringLiteral("share"));
        QVERIFY(write(path(QStringLiteral("src/up.txt")), "uploaded\n"));
    }

    void uploadsNeverLandOutside()
    {
        arrange(QStringLiteral("race"), QStringLiteral("outside-up"), {}, {});
        ShareService service(m_store);
        // Unswapped, the folder takes the upload.
        const auto first = service.upload(m_share, QStringLiteral("race"), {path(QStringLiteral("src/up.txt"))});
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        int uploaded = 0;
        {
            Testing::NameSwapper swap(path(QStringLiteral("share/race")), path(QStringLiteral("share/race-link")));
            // 200 rounds, and more while none has succeeded: on a busy machine the swapper
            // can hold the link in place for most of 200 (2 of 200 seen).
            for (int round = 0; round < 200 || (uploaded == 0 && round < 20000); ++round) {
                const auto outcome = service.upload(m_share, QStringLiteral("race"), {path(QStringLiteral("src/up.txt"))});
                uploaded += outcome.error.isEmpty();
            }
        }
        const QStringList escaped = QDir(path(QStringLiteral("outside-up"))).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        QVERIFY2(escaped.isEmpty(), qPrintable(QStringLiteral("%1 of 200 uploads wrote outside the share: %2")
                                                   .arg(escaped.size()).arg(escaped.join(QLatin1Char(' ')))));
        qInfo("%d uploads succeeded, 0 escaped", uploaded);
        QVERIFY(uploaded > 0);  // the swap leaves the folder in place part of the time
    }

    void downloadsNeverReadOutside()
    {
        arrange(QStringLiteral("rd"), QStringLiteral("outside-rd"), {{QStringLiteral("f.txt"), "inside\n"}},
                {{QStringLiteral("f.txt"), "OUTSIDE\n"}});
        ShareService service(m_store);
        int downloaded = 0;
        int escaped = 0;
        {
            Testing::NameSwapper swap(path(QStringLiteral("share/rd")), path(QStringLiteral("share/rd-link")));
            for (int round = 0; round < 200 || (downloaded == 0 && round < 20000); ++round) {
                const QString target = path(QStringLiteral("down/f-%1.txt").arg(round));
                if (!service.downloadAs(m_share, QStringLiteral("rd/f.txt"), target))
                    continue;
                ++downloaded;
                escaped += read(target) != "inside\n";
            }
        }
        QCOMPARE(escaped, 0);
        qInfo("%d downloads succeeded, 0 escaped", downloaded);
        QVERIFY(downloaded > 0);
    }

    void listingsAndDeletesStayInside()
    {
        arrange(QStringLiteral("ls"), QStringLiteral("outside-ls"), {{QStringLiteral("mine.txt"), "x"}},
                {{QStringLiteral("victim.txt"), "keep me\n"}});
        ShareService service(m_store);
        int leaked = 0;
        {
            Testing::NameSwapper swap(path(QStringLiteral("share/ls")), path(QStringLiteral("share/ls-link")));
            for (int round = 0; round < 200; ++round) {
                if (const auto listed = service.listFiles(m_share, QStringLiteral("ls"))) {
                    for (const RemoteFileInfo &e : *listed)
                        leaked += e.name == QLatin1String("victim.txt");
                }
                ignoreResult(service.deletePath(m_share, QStringLiteral("ls/victim.txt")),
                             "refused or not, depending on the swap: what counts is the file outside");
            }
        }
        QCOMPARE(leaked, 0);
        QCOMPARE(read(path(QStringLiteral("outside-ls/victim.txt"))), QByteArray("keep me\n"));
    }

    void linksAreListedAsLinks()
    {
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), path(QStringLiteral("share/passwd-link"))));
        ShareService service(m_store);
        const auto listed = service.listFiles(m_share, QString());
        QVERIFY2(listed, qPrintable(listed.error()));
        const auto link = std::find_if(listed->begin(), listed->end(),
                                       [](const RemoteFileInfo &e) { return e.name == QLatin1String("passwd-link"); });
        QVERIFY(link != listed->end());
        QVERIFY(link->isLink);
        QVERIFY(!link->isDirectory);
        QCOMPARE(link->linkTarget, QStringLiteral("/etc/passwd"));
        QCOMPARE(link->size, 0);  // not the size of what it points to
        // A download through it is refused, naming where it leads.
        const auto through = service.downloadAs(m_share, QStringLiteral("passwd-link"), path(QStringLiteral("down/p")));
        QVERIFY(!through);
        QVERIFY2(through.error().contains(QStringLiteral("outside share 'local'")), qPrintable(through.error()));
        // A link that stays inside is refused too: share paths follow no link.
        QVERIFY(write(path(QStringLiteral("share/real/a.txt")), "a\n"));
        QVERIFY(QFile::link(path(QStringLiteral("share/real")), path(QStringLiteral("share/alias"))));
        const auto alias = service.downloadAs(m_share, QStringLiteral("alias/a.txt"), path(QStringLiteral("down/a")));
        QVERIFY(!alias);
        QVERIFY2(alias.error().contains(QStringLiteral("passes through the link %1").arg(path(QStringLiteral("share/alias")))),
                 qPrintable(alias.error()));
        QVERIFY(service.downloadAs(m_share, QStringLiteral("real/a.txt"), path(QStringLiteral("down/a"))));
    }
};

QTEST_GUILESS_MAIN(TestShareRaces)
#include "tst_shareraces.moc"

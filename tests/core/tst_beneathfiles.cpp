// BeneathFiles' promises, one by one, in core (they were seen only through the share
// browser's ui test): a link is removed and what it points to kept, a folder goes with
// what it holds but never through a link in it, paths with ".." or a leading '/' and links
// on the way are refused with the errno the header names. core.tst_beneathfiles.without_openat2
// runs the same where a seccomp filter refuses openat2 (the component-by-component walk).
#include "common/BeneathFiles.h"
#include "WithoutOpenat2.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>

using namespace TrainDesk;

class TestBeneathFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    BeneathFiles::Fd m_root;

    QString path(const QString &relative) const { return m_dir.filePath(relative); }
    static void write(const QString &file, const QByteArray &data)
    {
        QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(data), data.size());
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsSet("TRAINDESK_TEST_WITHOUT_OPENAT2"))
            QVERIFY2(Testing::refuseOpenat2(), "the seccomp filter refusing openat2 could not be installed");
        QVERIFY(QDir().mkpath(path(QStringLiteral("root"))));
        int error = 0;
        m_root = BeneathFiles::openFolder(path(QStringLiteral("root")), &error);
        QVERIFY2(m_root.valid(), strerror(error));
    }

    void removingALinkKeepsWhatItPointsTo()
    {
        write(path(QStringLiteral("outside/keep.txt")), "keep\n");
        QVERIFY(QFile::link(path(QStringLiteral("outside")), path(QStringLiteral("root/to-outside"))));
        int error = 0;
        QVERIFY(BeneathFiles::removeAt(m_root.get(), QStringLiteral("to-outside"), &error));
        QVERIFY(!QFileInfo(path(QStringLiteral("root/to-outside"))).isSymLink());
        QVERIFY(QFile::exists(path(QStringLiteral("outside/keep.txt"))));
    }

    void aFolderGoesWithItsFilesButNotThroughItsLinks()
    {
        write(path(QStringLiteral("elsewhere/victim.txt")), "victim\n");
        write(path(QStringLiteral("root/tree/a/b.txt")), "b\n");
        QVERIFY(QFile::link(path(QStringLiteral("elsewhere")), path(QStringLiteral("root/tree/a/link"))));
        int error = 0;
        QVERIFY2(BeneathFiles::removeAt(m_root.get(), QStringLiteral("tree"), &error), strerror(error));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("root/tree"))));
        QVERIFY(QFile::exists(path(QStringLiteral("elsewhere/victim.txt"))));
    }

    void namesThatAreNotOneEntryAreRefused()
    {
        int error = 0;
        for (const QString &name : {QString(), QStringLiteral("."), QStringLiteral(".."), QStringLiteral("a/b")}) {
            error = 0;
            QVERIFY2(!BeneathFiles::removeAt(m_root.get(), name, &error), qPrintable(name));
            QCOMPARE(error, EINVAL);
        }
    }

    void pathsLeavingTheFolderAreRefused()
    {
        write(path(QStringLiteral("secret.txt")), "secret\n");
        for (const QString &relative : {QStringLiteral("../secret.txt"), QStringLiteral("x/../../secret.txt"), path(QStringLiteral("secret.txt"))}) {
            int error = 0;
            const BeneathFiles::Fd fd = BeneathFiles::openAt(m_root.get(), relative, O_RDONLY, &error);
            QVERIFY2(!fd.valid(), qPrintable(relative));
            QCOMPARE(error, EXDEV);
        }
    }

    void aLinkOnTheWayIsELOOP()
    {
        write(path(QStringLiteral("root/real/inner/f.txt")), "f\n");
        QVERIFY(QFile::link(path(QStringLiteral("root/real")), path(QStringLiteral("root/alias"))));
        QVERIFY(QFile::link(path(QStringLiteral("root/real/inner/f.txt")), path(QStringLiteral("root/f-link"))));
        const QStringList throughLinks{QStringLiteral("alias/inner/f.txt"), QStringLiteral("alias/inner"), QStringLiteral("f-link")};
        for (const QString &relative : throughLinks) {
            int error = 0;
            QVERIFY2(!BeneathFiles::openAt(m_root.get(), relative, O_RDONLY, &error).valid(), qPrintable(relative));
            QCOMPARE(error, ELOOP);
            error = 0;
            QVERIFY2(!BeneathFiles::openAt(m_root.get(), relative, O_RDONLY | O_DIRECTORY, &error).valid(), qPrintable(relative));
            QVERIFY2(error == ELOOP || (relative == QLatin1String("f-link") && error == ENOTDIR), qPrintable(relative + QLatin1String(": ") + QString::fromLocal8Bit(strerror(error))));
        }
        QCOMPARE(BeneathFiles::firstLink(m_root.get(), QStringLiteral("alias/inner/f.txt")), QStringLiteral("alias"));
        int error = 0;
        QVERIFY(BeneathFiles::openAt(m_root.get(), QStringLiteral("real/inner/f.txt"), O_RDONLY, &error).valid());
    }

    void makeFoldersStopsAtALink()
    {
        QVERIFY(QDir().mkpath(path(QStringLiteral("landing"))));
        QVERIFY(QFile::link(path(QStringLiteral("landing")), path(QStringLiteral("root/made-link"))));
        int error = 0;
        QVERIFY(!BeneathFiles::makeFolders(m_root.get(), QStringLiteral("made-link/deeper"), &error).valid());
        QCOMPARE(error, ELOOP);
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("landing/deeper"))));
        QVERIFY(BeneathFiles::makeFolders(m_root.get(), QStringLiteral("made/deeper"), &error).valid());
        QVERIFY(QFileInfo(path(QStringLiteral("root/made/deeper"))).isDir());
    }
};

QTEST_GUILESS_MAIN(TestBeneathFiles)
#include "tst_beneathfiles.moc"

// The GUI refuses a data directory others may write or another user owns, as the CLI and
// the agent do: a message box naming the folder and the fix, and nothing opened there.
#include "MainWindow.h"
#include "TestHome.h"

#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace TrainDesk;

class TestDataDirectoryGui : public QObject
{
    Q_OBJECT

    TestHome m_home;

    // Runs the GUI's startup on `dataDirectory`; the text of the message box it showed.
    QString startupRefusal(const QString &dataDirectory, int *status)
    {
        qputenv("TRAINDESK_HOME", QFile::encodeName(dataDirectory));
        QString shown;
        QTimer closer;
        QObject::connect(&closer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                shown = box->text();
                box->accept();
            }
        });
        closer.start(50);
        *status = Ui::runMainWindow();
        qputenv("TRAINDESK_HOME", QFile::encodeName(m_home.path()));
        return shown;
    }

private Q_SLOTS:
    void writableDataDirectoryIsRefused()
    {
        const QString dir = m_home.filePath(QStringLiteral("open"));
        QVERIFY(QDir().mkpath(dir));
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0777), 0);
        int status = 0;
        const QString shown = startupRefusal(dir, &status);
        QCOMPARE(status, 1);
        QCOMPARE(shown, QStringLiteral("the data directory %1 is refused: others may write it (mode 0777) (fix: 'chmod 700 %1')")
                            .arg(dir));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/traindesk.db")));
    }

    void anotherUsersDataDirectoryIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: giving a folder to another user");
        const QString dir = m_home.filePath(QStringLiteral("theirs"));
        QVERIFY(QDir().mkpath(dir));
        const passwd *pw = ::getpwnam("nobody");
        QCOMPARE(::chown(QFile::encodeName(dir).constData(), pw ? pw->pw_uid : 65534, gid_t(-1)), 0);
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0700), 0);
        int status = 0;
        const QString shown = startupRefusal(dir, &status);
        QCOMPARE(status, 1);
        QVERIFY2(shown.startsWith(QStringLiteral("the data directory %1 is refused: it belongs to user ").arg(dir)), qPrintable(shown));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/traindesk.db")));
    }
};

QTEST_MAIN(TestDataDirectoryGui)
#include "tst_datadirectorygui.moc"

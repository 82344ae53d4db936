// Every string that reaches a shell is quoted: what the shell reads back is exactly the
// string, and nothing injected runs.
#include "common/ShellQuote.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

class TestShellQuote : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("plain") << "hello";
        QTest::newRow("empty") << "";
        QTest::newRow("space") << "two words";
        QTest::newRow("single quote") << "it's";
        QTest::newRow("double quote") << "say \"hi\"";
        QTest::newRow("dollar paren") << "$(touch INJECTED)";
        QTest::newRow("backticks") << "`touch INJECTED`";
        QTest::newRow("semicolon") << "a; touch INJECTED";
        QTest::newRow("newline") << "a\ntouch INJECTED";
        QTest::newRow("variable") << "$HOME and ${PATH}";
        QTest::newRow("glob") << "*";
        QTest::newRow("non-ascii") << QString::fromUtf8("données été 日本");
        QTest::newRow("leading dash") << "-rf";
        QTest::newRow("backslash") << "a\\b\\";
        QTest::newRow("pipe and redirect") << "a | touch INJECTED > x";
    }

    void roundTrip()
    {
        QFETCH(QString, word);
        QTemporaryDir dir;
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start("/bin/sh", {"-c", "printf '%s' " + shellQuote(word)});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), word);
        QVERIFY2(!QFile::exists(dir.filePath("INJECTED")), "an injected command ran");
    }

    void joinKeepsWords()
    {
        const QStringList words{"a b", "", "c'd", "$x"};
        QProcess sh;
        sh.start("/bin/sh", {"-c", "for w in " + shellJoin(words) + "; do printf '[%s]' \"$w\"; done"});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), QStringLiteral("[a b][][c'd][$x]"));
    }
};

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"

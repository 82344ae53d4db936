// LogBuffer: lines from chunks that split lines and characters, MPI rank tags, the cap.
#include "logs/LogBuffer.h"

#include <QTest>

using namespace TrainDesk::Ui;

class TestLogBuffer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitLines()
    {
        LogBuffer b;
        QCOMPARE(b.append("first li").size(), 0);
        const auto lines = b.append("ne\r\nsecond\nthi");
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].text, QStringLiteral("first line"));
        QCOMPARE(lines[1].text, QStringLiteral("second"));
        QCOMPARE(b.lines().size(), 2);
        const auto rest = b.flush();
        QCOMPARE(rest.size(), 1);
        QCOMPARE(rest[0].text, QStringLiteral("thi"));
        QCOMPARE(b.flush().size(), 0);
        QCOMPARE(b.append("\n").size(), 1);  // an empty line is a line
    }

    void splitUtf8Character()
    {
        LogBuffer b;
        const QByteArray text = QStringLiteral("accuracy ≥ 70 %\n").toUtf8();
        const qsizetype cut = text.indexOf("≥") + 1;  // inside the 3-byte character
        QCOMPARE(b.append(text.left(cut)).size(), 0);
        const auto lines = b.append(text.mid(cut));
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].text, QStringLiteral("accuracy ≥ 70 %"));
    }

    void ranks()
    {
        LogBuffer b;
        b.append("[1,0]<stdout>:epoch 1\n[1,1]<stdout>:epoch 1\n[1,1]<stderr>:warning\nplain\n");
        QCOMPARE(b.lines().size(), 4);
        QCOMPARE(b.lines()[0].rank, 0);
        QCOMPARE(b.lines()[1].rank, 1);
        QCOMPARE(b.lines()[2].rank, 1);
        QCOMPARE(b.lines()[3].rank, -1);
        QCOMPARE(b.ranks(), (QList<int>{0, 1}));
        int shown = 0;
        for (const auto &line : b.lines())
            shown += LogBuffer::accepts(line, 1) ? 1 : 0;
        QCOMPARE(shown, 2);
        QVERIFY(LogBuffer::accepts(b.lines()[3], -1));
        QCOMPARE(b.lines()[1].display(), QStringLiteral("1\u2502 epoch 1"));
        QCOMPARE(b.lines()[3].display(), QStringLiteral("plain"));
        QCOMPARE(LogBuffer::parse(QStringLiteral("[12,3]<stdout>:x")).rank, 3);
        QCOMPARE(LogBuffer::parse(QStringLiteral("[x,3]<stdout>:x")).rank, -1);
        // Only Open MPI's whole tag counts.
        const LogBuffer::Line err = LogBuffer::parse(QStringLiteral("[1,15]<stderr>:"));
        QCOMPARE(err.rank, 15);
        QCOMPARE(err.tagLength, 15);
        QCOMPARE(err.display(), QStringLiteral("15\u2502 "));
        QCOMPARE(LogBuffer::parse(QStringLiteral("[1,0]<stdout>:a")).tagLength, 14);
        for (const char *text : {"[1,]<stdout>:x", "[,1]<stdout>:x", "[1,0]<stdin>:xx", "[1,0]x<stdout>:",
                                 "[1,0 ]<stdout>:x", "[1,12345678901]<stdout>:x", "1,0]<stdout>:x", "[1,0]<stdout>"})
            QCOMPARE(LogBuffer::parse(QString::fromLatin1(text)).rank, -1);
    }

    void capDropsOldest()
    {
        LogBuffer b(100);
        QByteArray chunk;
        for (int i = 0; i < 250; ++i)
            chunk += "line " + QByteArray::number(i) + '\n';
        QCOMPARE(b.append(chunk).size(), 250);
        QVERIFY(b.lines().size() <= 100);
        QCOMPARE(b.lines().last().text, QStringLiteral("line 249"));
        QCOMPARE(b.droppedLines() + b.lines().size(), 250);
        b.clear();
        QCOMPARE(b.lines().size(), 0);
        QCOMPARE(b.droppedLines(), 0);
    }
};

QTEST_MAIN(TestLogBuffer)
#include "tst_logbuffer.moc"

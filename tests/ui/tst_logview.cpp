// LogView on a real Backend: a job's stdout followed as the test appends to it (through
// JobMonitor::followFile on the worker thread), the tail of a big file, follow that pauses
// when scrolled up, search, rank and node filters and another file.
#include "FakeJob.h"
#include "TestHome.h"
#include "common/Contrast.h"
#include "common/Theme.h"
#include "logs/LogView.h"
#include "session/Backend.h"

#include <QApplication>
#include <QComboBox>
#include <QStyle>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolButton>
#include <QTest>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestLogView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
        m_backend = std::make_unique<Backend>(DataPaths::databasePath(), 100);
    }

    void cleanupTestCase() { m_backend.reset(); }

    void followsAppendedLines()
    {
        const QString dir = m_home.filePath(QStringLiteral("follow"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("follow"), dir);
        QVERIFY(id);
        LogView view(m_backend.get());
        view.resize(800, 400);
        view.show();
        view.setJob(id, false);
        QCOMPARE(view.currentFile(), QStringLiteral("stdouterr/stdout.txt"));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "epoch 1\nepoch 2\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("epoch 1\nepoch 2"), 10000);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "epoch 3\npart"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("epoch 1\nepoch 2\nepoch 3"), 10000);
        // A line is shown once it ends, or once the job has ended.
        view.setJob(id, true);
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("epoch 1\nepoch 2\nepoch 3\npart"));

        // The file list adds the other stdouterr files to the chooser.
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/execution-localhost.log"), "started\n"));
        auto *combo = view.findChild<QComboBox *>(QStringLiteral("logFileCombo"));
        QVERIFY(combo);
        view.setJob(0, true);
        view.setJob(id, false);
        QTRY_VERIFY_WITH_TIMEOUT(combo->findData(QStringLiteral("stdouterr/execution-localhost.log")) >= 0, 10000);
        view.showFile(QStringLiteral("stdouterr/execution-localhost.log"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("started"), 10000);
    }

    void eachRanksOwnFileJoinsTheChooserWhenItAppears()
    {
        const QString dir = m_home.filePath(QStringLiteral("rankfiles"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("rankfiles"), dir);
        QVERIFY(id);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/execution-localhost.log"), "started\n"));
        LogView view(m_backend.get());
        view.show();
        view.setJob(id, false);
        auto *combo = view.findChild<QComboBox *>(QStringLiteral("logFileCombo"));
        QVERIFY(combo);
        // The first listing, made before the ranks wrote anything.
        QTRY_VERIFY_WITH_TIMEOUT(combo->findData(QStringLiteral("stdouterr/execution-localhost.log")) >= 0, 10000);
        QCOMPARE(combo->findData(QStringLiteral("stdouterr/stdout-1.txt")), -1);
        // The launch script writes each rank's lines to its own file as they come.
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout-0.txt"), "zero\n"));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout-1.txt"), "one\n"));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "[1,0]<stdout>:zero\n[1,1]<stdout>:one\n"));
        QTRY_VERIFY_WITH_TIMEOUT(combo->findData(QStringLiteral("stdouterr/stdout-1.txt")) >= 0, 10000);
        view.showFile(QStringLiteral("stdouterr/stdout-1.txt"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("one"), 10000);
    }

    void notStartedJobShowsNoOtherLog()
    {
        // A job that ran, then a queued one (no job directory yet: shown as job 0).
        const QString dir = m_home.filePath(QStringLiteral("before-queued"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("before-queued"), dir);
        QVERIFY(id);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "Epoch 5/5\n"));
        LogView view(m_backend.get());
        view.setJob(id, true);
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("Epoch 5/5"), 10000);
        view.setJob(0, false);
        QCOMPARE(view.textView()->toPlainText(), QString());
        // Its lines arriving late do not come back either.
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "late\n"));
        QTest::qWait(300);
        QCOMPARE(view.textView()->toPlainText(), QString());
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
    }

    void searchMatchesReadableInEveryTheme()
    {
        const QString dir = m_home.filePath(QStringLiteral("search-theme"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("search-theme"), dir);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "loss 0.5\nacc 0.9\n"));
        for (const QPalette &palette : {Theme::darkPalette(), QApplication::style()->standardPalette()}) {
            LogView view(m_backend.get());
            view.setPalette(palette);
            view.setJob(id, true);
            QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 2, 10000);
            view.find(QStringLiteral("acc"));
            const QList<QTextEdit::ExtraSelection> matches = view.textView()->extraSelections();
            QCOMPARE(matches.size(), 1);
            const QTextCharFormat format = matches.first().format;
            // The text colour a match is drawn in: its own, else the view's.
            const QColor text = format.hasProperty(QTextFormat::ForegroundBrush)
                                    ? format.foreground().color() : palette.color(QPalette::Text);
            const double ratio = Contrast::ratio(text, format.background().color());
            QVERIFY2(ratio >= 4.5, qPrintable(QString::number(ratio)));
        }
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
    }

    void tailOfBigFile()
    {
        const QString dir = m_home.filePath(QStringLiteral("big"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("big"), dir);
        QVERIFY(id);
        QByteArray text;
        for (int i = 0; i < 200000; ++i)
            text += "line " + QByteArray::number(i) + " of a long log that is bigger than the tail\n";
        QVERIFY(text.size() > 8 * 1024 * 1024);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), text));
        LogView view(m_backend.get());
        view.setJob(id, false);
        QTRY_VERIFY_WITH_TIMEOUT(view.textView()->toPlainText().endsWith(QStringLiteral("line 199999 of a long log that is bigger than the tail")), 20000);
        const QString shown = view.textView()->toPlainText();
        // Cut at a line start; what came too fast to show is said in notes between lines.
        for (const QString &line : shown.split(QLatin1Char('\n')))
            QVERIFY2(line.startsWith(QStringLiteral("line ")) || line.startsWith(QStringLiteral("[… ")), qPrintable(line));
        QVERIFY(!shown.startsWith(QStringLiteral("line 0 ")));
        bool noticeShown = false;
        for (QLabel *label : view.findChildren<QLabel *>())
            noticeShown |= label->isVisibleTo(&view) && label->text().contains(QStringLiteral("not shown"));
        QVERIFY(noticeShown);
    }

    void fastLogIsThinnedNotStalled()
    {
        const QString dir = m_home.filePath(QStringLiteral("fast"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("fast"), dir);
        QVERIFY(id);
        LogView view(m_backend.get());
        view.resize(600, 300);
        view.show();
        view.setJob(id, false);
        const int total = 30000;
        QByteArray text;
        for (int i = 0; i < total; ++i)
            text += "[1," + QByteArray::number(i % 2) + "]<stdout>:line " + QByteArray::number(i) + '\n';
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), text));
        QTRY_VERIFY_WITH_TIMEOUT(view.textView()->toPlainText().endsWith(QStringLiteral("line 29999")), 10000);
        // Far fewer lines laid out than arrived, and every line accounted for: shown or
        // counted in a note.
        const QStringList shown = view.textView()->toPlainText().split(QLatin1Char('\n'));
        QVERIFY(shown.size() < total / 3);
        static const QRegularExpression note(QStringLiteral("^\\[… (\\d+) lines not shown here"));
        qint64 accounted = 0;
        for (const QString &line : shown) {
            const auto match = note.match(line);
            accounted += match.hasMatch() ? match.captured(1).toLongLong() : 1;
        }
        QCOMPARE(accounted, qint64(total));
        QCOMPARE(view.textView()->document()->blockCount(), int(shown.size()));

        // Another rank: rebuilt from the buffer, which kept every line.
        view.setRankFilter(1);
        QCOMPARE(view.textView()->document()->blockCount(), total / 2);
        QVERIFY(view.textView()->toPlainText().startsWith(QStringLiteral("1\u2502 line 1\n")));
        // All ranks: more than a rebuild lays out, so the newest part and a note.
        view.setRankFilter(-1);
        QCOMPARE(view.textView()->document()->blockCount(), LogView::maxRebuildLines + 1);
        QVERIFY(view.textView()->document()->firstBlock().text().contains(QStringLiteral("10000 lines not shown")));
        QVERIFY(view.textView()->toPlainText().endsWith(QStringLiteral("line 29999")));
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
    }

    void followPausesWhenScrolledUp()
    {
        const QString dir = m_home.filePath(QStringLiteral("scroll"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("scroll"), dir);
        const QString file = dir + QStringLiteral("/stdouterr/stdout.txt");
        QByteArray text;
        for (int i = 0; i < 500; ++i)
            text += "step " + QByteArray::number(i) + '\n';
        QVERIFY(appendToFile(file, text));
        LogView view(m_backend.get());
        view.resize(600, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setJob(id, false);
        QScrollBar *bar = view.textView()->verticalScrollBar();
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 500, 10000);
        QVERIFY(view.isFollowing());
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(bar->maximum() > 0);

        bar->setValue(0);  // the user scrolls up
        QVERIFY(!view.isFollowing());
        QVERIFY(appendToFile(file, "step 500\nstep 501\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 502, 10000);
        QCOMPARE(bar->value(), 0);  // held still
        QVERIFY(!view.isFollowing());

        view.jumpToEnd();
        QVERIFY(view.isFollowing());
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(appendToFile(file, "step 502\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 503, 10000);
        QCOMPARE(bar->value(), bar->maximum());  // following again

        // Search selects a match and wraps around.
        QVERIFY(view.find(QStringLiteral("step 250")));
        QCOMPARE(view.textView()->textCursor().selectedText(), QStringLiteral("step 250"));
        QVERIFY(!view.isFollowing());  // the match is above the end
        QVERIFY(view.find(QStringLiteral("step 250")));  // wraps to the same one
        QCOMPARE(view.textView()->textCursor().blockNumber(), 250);
        QVERIFY(!view.find(QStringLiteral("no such text")));
    }

    // Issue #43: a 2-rank job whose rank 1 printed nothing listed only stdout-0.txt and
    // "Rank 0"; long lines could not be folded.
    void everyRanksFilesListedAndLinesWrap()
    {
        const QString dir = m_home.filePath(QStringLiteral("silentrank"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("silentrank"), dir);
        QVERIFY(id);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout-0.txt"), "zero\n"));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "[1,0]<stdout>:zero\n"));
        LogView view(m_backend.get());
        view.resize(600, 300);
        view.show();
        view.setJob(id, false, {QStringLiteral("node-a"), QStringLiteral("node-b")});
        auto *files = view.findChild<QComboBox *>(QStringLiteral("logFileCombo"));
        QVERIFY(files);
        QStringList listed;
        for (int i = 0; i < files->count(); ++i)
            listed << files->itemText(i);
        for (const char *name : {"stdout.txt", "stderr.txt", "stdout-0.txt", "stderr-0.txt", "stdout-1.txt", "stderr-1.txt"})
            QVERIFY2(listed.contains(QLatin1String(name)), qPrintable(name + (": " + listed.join(QLatin1Char(' ')))));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("0\u2502 zero"), 10000);
        // Both ranks to choose, the silent one too.
        QComboBox *ranks = nullptr;
        for (QComboBox *combo : view.findChildren<QComboBox *>()) {
            if (combo->findData(-1) == 0 && combo->itemText(0) == QStringLiteral("All ranks"))
                ranks = combo;
        }
        QVERIFY(ranks);
        QVERIFY(ranks->findText(QStringLiteral("Rank 0")) > 0);
        QVERIFY(ranks->findText(QStringLiteral("Rank 1")) > 0);
        // Its own file, empty: it says nothing was written.
        view.showFile(QStringLiteral("stdouterr/stdout-1.txt"));
        QCOMPARE(view.textView()->toPlainText(), QString());
        QVERIFY(!view.textView()->placeholderText().isEmpty());
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout-1.txt"), "one, at last\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("one, at last"), 10000);

        // Line wrap: off by default, on from the button, remembered.
        auto *wrap = view.findChild<QToolButton *>(QStringLiteral("logWrapButton"));
        QVERIFY(wrap);
        QCOMPARE(view.textView()->lineWrapMode(), QPlainTextEdit::NoWrap);
        wrap->click();
        QCOMPARE(view.textView()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        LogView another(m_backend.get());
        QCOMPARE(another.textView()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        wrap->click();
        QCOMPARE(view.textView()->lineWrapMode(), QPlainTextEdit::NoWrap);
    }

    void rankFilter()
    {
        const QString dir = m_home.filePath(QStringLiteral("ranks"));
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("ranks"), dir);
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"),
                             "[1,0]<stdout>:a0\n[1,1]<stdout>:a1\n[1,0]<stdout>:b0\n[1,1]<stderr>:b1\n"));
        LogView view(m_backend.get());
        view.setJob(id, false);
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 4, 10000);
        view.setRankFilter(1);
        // Shown with a short rank column instead of Open MPI's tag.
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("1\u2502 a1\n1\u2502 b1"));
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stdout.txt"), "[1,0]<stdout>:c0\n[1,1]<stdout>:c1\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(),
                                  QStringLiteral("1\u2502 a1\n1\u2502 b1\n1\u2502 c1"), 10000);
        view.setRankFilter(-1);
        QCOMPARE(view.textView()->document()->blockCount(), 6);

        // stderr is another file of its own.
        QVERIFY(appendToFile(dir + QStringLiteral("/stdouterr/stderr.txt"), "oops\n"));
        view.showFile(QStringLiteral("stdouterr/stderr.txt"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("oops"), 10000);
    }

    void nodeFilter()
    {
        const QString dir = m_home.filePath(QStringLiteral("nodes"));
        const QString file = dir + QStringLiteral("/stdouterr/stdout.txt");
        const qint64 id = createFakeRunningJob(m_store, QStringLiteral("nodes"), dir);
        QVERIFY(appendToFile(file, "[1,0]<stdout>:a0\n[1,2]<stdout>:a2\nfrom mpirun\n[1,1]<stdout>:a1\n[1,3]<stderr>:a3\n"));
        LogView view(m_backend.get());
        auto *combo = view.findChild<QComboBox *>(QStringLiteral("logNodeCombo"));
        QVERIFY(combo);
        // Every rank on one node: nothing to choose.
        view.setJob(id, false, {QStringLiteral("node-a"), QStringLiteral("node-a")});
        QVERIFY(!combo->isVisibleTo(&view));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->document()->blockCount(), 5, 10000);

        // The map as the job's plan made it: ranks 0-1 on node-a, 2-3 on node-b.
        const QStringList rankNodes{QStringLiteral("node-a"), QStringLiteral("node-a"), QStringLiteral("node-b"),
                                    QStringLiteral("node-b")};
        view.setJob(id, false, rankNodes);
        QVERIFY(combo->isVisibleTo(&view));
        QCOMPARE(combo->count(), 3);
        QCOMPARE(combo->itemText(1), QStringLiteral("node-a (ranks 0-1)"));
        QCOMPARE(combo->itemData(2).toString(), QStringLiteral("node-b"));
        view.setNodeFilter(QStringLiteral("node-b"));
        QCOMPARE(combo->currentData().toString(), QStringLiteral("node-b"));
        // Only node-b's ranks; mpirun's own lines belong to no node.
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("2\u2502 a2\n3\u2502 a3"));
        QVERIFY(appendToFile(file, "[1,1]<stdout>:b1\n[1,2]<stdout>:b2\nfrom mpirun again\n"));
        QTRY_COMPARE_WITH_TIMEOUT(view.textView()->toPlainText(), QStringLiteral("2\u2502 a2\n3\u2502 a3\n2\u2502 b2"), 10000);

        // With a rank filter both hold: a rank of another node shows nothing.
        view.setRankFilter(3);
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("3\u2502 a3"));
        view.setRankFilter(1);
        QCOMPARE(view.textView()->toPlainText(), QString());
        view.setNodeFilter(QStringLiteral("node-a"));
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("1\u2502 a1\n1\u2502 b1"));
        view.setRankFilter(-1);
        QCOMPARE(view.textView()->toPlainText(), QStringLiteral("0\u2502 a0\n1\u2502 a1\n1\u2502 b1"));
        view.setNodeFilter(QStringLiteral("no-such-node"));  // ignored
        QCOMPARE(view.textView()->document()->blockCount(), 3);

        // A map without the chosen node shows every node again.
        view.setJob(id, false, {QStringLiteral("node-c"), QStringLiteral("node-d")});
        QCOMPARE(combo->currentIndex(), 0);
        QCOMPARE(view.textView()->document()->blockCount(), 8);
        QVERIFY(appendToFile(dir + QStringLiteral("/exit_code"), "0\n"));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestLogView)
#include "tst_logview.moc"

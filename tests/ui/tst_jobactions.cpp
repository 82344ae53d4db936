// What a user does to a job besides starting it, on a real job of the local cluster (a
// shell loop the agent starts): Terminate asks first and the ended job reads "terminated"
// (its JobTerminated error) in the tree and on its page, apart from failures; Delete asks
// first and removes the job with its metric rows; the Help menu's windows.
#include "BackendFixture.h"
#include "MainWindow.h"
#include "MessageBoxes.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "help/HelpDialogs.h"
#include "job/JobOverview.h"
#include "job/JobView.h"
#include "session/Backend.h"
#include "store/Store.h"

#include <QAbstractButton>
#include <QDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QImage>
#include <QPixmap>
#include <QUrl>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

// Writes a metric record, then waits to be terminated.
QByteArray loopSpec()
{
    const QString command = QStringLiteral(
        "sh -c 'echo \"{\\\"time\\\": 1, \\\"kind\\\": \\\"train\\\", \\\"step\\\": 1, \\\"loss\\\": 1.5}\" "
        ">> \"$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl\"; sleep 300'");
    const QJsonObject mpi{{"processCount", 1}, {"commandLine", command}};
    const QJsonObject properties{{"nodeCount", 1},
                                 {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"},
                                 {"customMpiSettings", mpi}};
    return QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
}


QModelIndex treeRow(MainWindow &window, qint64 jobId)
{
    return window.treeModel()->indexForKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, jobId));
}

} // namespace

class TestJobActions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        QProcess::execute(qEnvironmentVariable("TRAINDESK_AGENT_PROGRAM"), {QStringLiteral("agent"), QStringLiteral("stop")});
    }

    void terminateAsksThenDeleteRemoves()
    {
        MainWindow window(m_backend.get());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.treeModel()->rowCount() == 1, 10000);
        const int request = m_backend->submitJob({QStringLiteral("default"), QStringLiteral("demo"), QStringLiteral("loop"),
                                                  QStringLiteral("local"), loopSpec(), false});
        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() && finished.last().at(0).toInt() == request, 10000);
        const qint64 id = finished.last().at(1).toLongLong();
        QVERIFY2(id, qPrintable(finished.last().at(2).toString()));
        QVERIFY(window.selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id)));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobView()->overview()->stateText(), QStringLiteral("running"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!m_store.jobMetrics(id).isEmpty(), 20000);
        // A running job cannot be deleted.
        QVERIFY(!window.deleteJobAction()->isEnabled());

        // Terminate asks; keeping it running changes nothing.
        QVERIFY(window.terminateAction()->isEnabled());
        window.terminateAction()->trigger();
        QMessageBox *question = window.pendingQuestion();
        QVERIFY(question);
        QCOMPARE(question->text(), QStringLiteral("Terminate job loop?"));
        answerQuestion(question, QStringLiteral("Keep running"));
        QTest::qWait(1500);
        QCOMPARE(toString(m_store.jobById(id)->state), QStringLiteral("running"));
        QCOMPARE(window.jobView()->overview()->stateText(), QStringLiteral("running"));

        // The job page's own Terminate button asks the same.
        Q_EMIT window.jobView()->overview()->terminateRequested(id);
        answerQuestion(window.pendingQuestion(), QStringLiteral("Terminate"));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobView()->overview()->stateText(), QStringLiteral("terminated"), 60000);
        QCOMPARE(treeRow(window, id).siblingAtColumn(ResourceTreeModel::StateColumn).data().toString(),
                 QStringLiteral("terminated"));
        const auto ended = m_store.jobById(id);
        QCOMPARE(toString(ended->state), QStringLiteral("failed"));  // Batch AI's state; the label tells it apart
        QCOMPARE(ended->errors.value(0).code, QStringLiteral("JobTerminated"));
        QVERIFY(treeRow(window, id).data(Qt::ToolTipRole).toString().contains(QStringLiteral("JobTerminated")));

        // Delete asks; Cancel keeps it, Delete removes the job and its rows.
        QTRY_VERIFY_WITH_TIMEOUT(window.deleteJobAction()->isEnabled(), 10000);
        window.deleteJobAction()->trigger();
        QVERIFY(window.pendingQuestion());
        QCOMPARE(window.pendingQuestion()->text(), QStringLiteral("Delete job loop?"));
        answerQuestion(window.pendingQuestion(), QStringLiteral("Cancel"));
        QTest::qWait(500);
        QVERIFY(m_store.jobById(id));
        window.deleteJobAction()->trigger();
        answerQuestion(window.pendingQuestion(), QStringLiteral("Delete"));
        QTRY_VERIFY_WITH_TIMEOUT(!treeRow(window, id).isValid(), 10000);
        QVERIFY(!m_store.jobById(id));
        QVERIFY(m_store.jobMetrics(id).isEmpty());
        QCOMPARE(m_store.jobFileOffset(id, QStringLiteral("metrics.jsonl")), qint64(0));
        QVERIFY(window.selectedKey() != ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, id));
    }

    void deleteIsInTheMenuAndTheContextMenu()
    {
        MainWindow window(m_backend.get());
        QStringList jobMenu;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Job"))
                for (QAction *a : menu->menu()->actions())
                    jobMenu << a->objectName();
        }
        QVERIFY(jobMenu.contains(QStringLiteral("deleteJobAction")));
        // A draft can be deleted, and that asks as well.
        QTRY_VERIFY_WITH_TIMEOUT(window.selectByName(QString::fromLatin1(EmbeddedDefaults::demoJobName)), 10000);
        QVERIFY(window.deleteJobAction()->isEnabled());
    }

    void helpMenu()
    {
        MainWindow window(m_backend.get());
        window.show();
        QStringList help;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->text() == QStringLiteral("&Help"))
                for (QAction *a : menu->menu()->actions())
                    help << a->text();
        }
        QCOMPARE(help, (QStringList{QStringLiteral("&User guide"), QStringLiteral("&Keyboard shortcuts"), QString(),
                                    QStringLiteral("&About TrainDesk")}));
        window.userGuideAction()->trigger();
        auto *guide = window.findChild<QTextBrowser *>(QStringLiteral("userGuideText"));
        QVERIFY(guide);
        QVERIFY2(guide->toPlainText().contains(QStringLiteral("TrainDesk user guide")), qPrintable(guide->toPlainText().left(200)));
        // Every picture the guide names is there (issue #43: F1 showed broken images), no
        // wider than the dialog.
        int pictures = 0;
        for (QTextBlock block = guide->document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (!it.fragment().charFormat().isImageFormat())
                    continue;
                const QTextImageFormat image = it.fragment().charFormat().toImageFormat();
                const QVariant loaded = guide->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
                QVERIFY2(loaded.typeId() == QMetaType::QByteArray && !QImage::fromData(loaded.toByteArray()).isNull(),
                         qPrintable(image.name()));
                QVERIFY2(image.width() > 0 && image.width() <= 760, qPrintable(image.name()));
                ++pictures;
            }
        }
        QVERIFY2(pictures >= 20, qPrintable(QString::number(pictures)));
        window.shortcutsAction()->trigger();
        auto *table = window.findChild<QTableWidget *>(QStringLiteral("shortcutTable"));
        QVERIFY(table);
        QStringList rows;
        for (int r = 0; r < table->rowCount(); ++r)
            rows << table->item(r, 0)->text() + QLatin1Char(' ') + table->item(r, 1)->text();
        QVERIFY2(rows.contains(QKeySequence(QStringLiteral("Ctrl+Shift+T")).toString(QKeySequence::NativeText)
                               + QStringLiteral(" Terminate")),
                 qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY(rows.contains(QKeySequence(QStringLiteral("Shift+Del")).toString(QKeySequence::NativeText)
                              + QStringLiteral(" Delete job")));
        window.aboutAction()->trigger();
        auto *about = window.findChild<QMessageBox *>(QStringLiteral("aboutBox"));
        QVERIFY(about);
        QVERIFY(about->text().contains(QStringLiteral("TrainDesk %1").arg(QStringLiteral(TRAINDESK_VERSION))));
        QVERIFY(about->text().contains(QStringLiteral("GPL-3.0-or-later")));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestJobActions)
#include "tst_jobactions.moc"

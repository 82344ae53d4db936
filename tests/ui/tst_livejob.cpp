// A real training job through the window: a small synthetic job (2 MPI ranks on the local
// cluster) is saved as a draft, selected in the tree and started with the toolbar's Start
// job; its charts fill as metrics arrive, its log and output files show, it succeeds.
// A second, long job is terminated from the toolbar (after its question). Needs traindesk-trainer
// (TRAINDESK_TRAINER_DIR) and mpirun.
#include "FakeJob.h"
#include "MainWindow.h"
#include "MessageBoxes.h"
#include "TestHome.h"
#include "charts/ChartPanel.h"
#include "charts/MetricSeries.h"
#include "charts/MetricsChartView.h"
#include "files/OutputFilesView.h"
#include "jobs/JobSubmission.h"
#include "job/JobOverview.h"
#include "job/JobView.h"
#include "logs/LogView.h"
#include "session/Backend.h"

#include <QAction>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QTest>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

namespace {

QByteArray syntheticSpec(int epochs)
{
    return QStringLiteral(R"({
    "properties": {
        "nodeCount": 1,
        "customMpiSettings": {
            "commandLine": "traindesk-trainer --format synthetic --synthetic-train 512 --synthetic-test 128 --synthetic-shape 16x16x1 --epochs %1 --log-every 2 --dir $AZ_BATCHAI_OUTPUT_MODEL",
            "processCount": 2
        },
        "stdOutErrPathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local",
        "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"}]
    }
})").arg(epochs).toUtf8();
}

} // namespace

class TestLiveJob : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        const QString trainer = DataPaths::trainerDirectory() + QStringLiteral("/traindesk-trainer");
        QVERIFY2(QFileInfo(trainer).isExecutable(), qPrintable(trainer + QStringLiteral(" is missing")));
        QVERIFY(m_store.open(DataPaths::databasePath()));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
        m_backend = std::make_unique<Backend>(DataPaths::databasePath(), 250);
        m_window = std::make_unique<MainWindow>(m_backend.get());
        m_window->resize(1300, 850);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_backend.reset();
    }

    void startedFromToolbarChartsFill()
    {
        SubmitRequest request{QStringLiteral("default"), QStringLiteral("demo"), QStringLiteral("ui-small"),
                              QStringLiteral("local"), syntheticSpec(2), true};
        const auto job = JobSubmission(m_store).submit(request);
        QVERIFY2(job, qPrintable(job.error()));
        const QString key = ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, job->id);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->selectKey(key), 10000);
        JobView *view = m_window->jobView();
        QCOMPARE(view->jobId(), job->id);
        QCOMPARE(view->overview()->stateText(), QStringLiteral("draft"));
        QVERIFY(m_window->startAction()->isEnabled());
        view->setCurrentIndex(JobView::ChartsTab);
        m_window->startAction()->trigger();

        QTRY_VERIFY_WITH_TIMEOUT(view->overview()->stateText() != QStringLiteral("draft"), 20000);
        QCOMPARE(m_window->selectedKey(), key);
        // Points arrive while it runs and the chart draws them.
        QTRY_VERIFY_WITH_TIMEOUT(view->series()->trainPointCount() > 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(view->charts()->lossPanel()->rawCount() > 0, 5000);
        QVERIFY(view->charts()->accuracyPanel()->rawCount() > 0);

        QTRY_COMPARE_WITH_TIMEOUT(view->overview()->stateText(), QStringLiteral("succeeded"), 240000);
        // Every record, the last ones included: 2 validation points, one per epoch.
        QTRY_COMPARE_WITH_TIMEOUT(view->series()->points(MetricSeries::Metric::ValLoss).size(), 2, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(view->charts()->lossPanel()->valCount(), 2, 5000);
        QVERIFY(view->series()->finished());
        // 512 images, 2 ranks x batch 32: 8 steps an epoch, logged every 2 steps.
        QCOMPARE(view->series()->points(MetricSeries::Metric::TrainLoss).last().x(), 16.0);

        QTRY_VERIFY_WITH_TIMEOUT(view->logs()->textView()->toPlainText().contains(QStringLiteral("val_acc")), 20000);

        view->setCurrentIndex(JobView::FilesTab);
        QStringList names;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                names.clear();
                for (const JobFile &f : view->files()->model()->files())
                    names << f.directory + QLatin1Char('/') + f.path;
                return names.contains(QStringLiteral("stdouterr/stdout.txt"))
                    && names.contains(QStringLiteral("MODEL/saved_models/model.onnx"));
            }(),
            20000);
        QVERIFY2(names.contains(QStringLiteral("stdouterr/metrics.jsonl")), qPrintable(names.join(QLatin1Char(' '))));
    }

    void terminatedFromToolbar()
    {
        SubmitRequest request{QStringLiteral("default"), QStringLiteral("demo"), QStringLiteral("ui-long"),
                              QStringLiteral("local"), syntheticSpec(500), false};
        const auto job = JobSubmission(m_store).submit(request);
        QVERIFY2(job, qPrintable(job.error()));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->selectKey(ResourceTreeModel::keyFor(ResourceTreeModel::Kind::Job, job->id)), 10000);
        JobView *view = m_window->jobView();
        QTRY_VERIFY_WITH_TIMEOUT(view->series()->trainPointCount() > 0, 120000);
        QTRY_VERIFY(m_window->terminateAction()->isEnabled());
        m_window->terminateAction()->trigger();
        // It asks first (tst_jobactions shows that keeping it running changes nothing).
        answerQuestion(m_window->pendingQuestion(), QStringLiteral("Terminate"));
        QTRY_COMPARE_WITH_TIMEOUT(view->overview()->stateText(), QStringLiteral("terminated"), 60000);
        QVERIFY(!m_window->terminateAction()->isEnabled());
        QCOMPARE(m_window->jobsStatusText(), QStringLiteral("0 jobs running"));
        const Job *ended = m_backend->snapshot().findJob(job->id);
        QVERIFY(ended);
        QCOMPARE(ended->errors.value(0).code, QStringLiteral("JobTerminated"));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestLiveJob)
#include "tst_livejob.moc"

// System metrics of a running local job reach the store and the job's charts: the agent
// (started by the GUI's worker) samples the job's node every second, the worker publishes
// the samples, and the Charts tab draws CPU, RAM, network and GPU lines.
// This machine may have no GPU: a fake nvidia-smi first on PATH prints what the real one
// prints for TrainDesk's query (the CSV of --format=csv,noheader,nounits: index,
// utilization.gpu, memory.used MiB, memory.total MiB).
#include "BackendFixture.h"
#include "TestHome.h"
#include "charts/ChartPanel.h"
#include "charts/SystemChartsView.h"
#include "charts/SystemSeries.h"
#include "job/JobView.h"
#include "jobs/JobSubmission.h"
#include "metrics/SystemSample.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestSystemMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_bin.isValid());
        QFile smi(m_bin.filePath(QStringLiteral("nvidia-smi")));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("#!/bin/sh\n"
                  "[ \"$*\" = \"--query-gpu=index,utilization.gpu,memory.used,memory.total "
                  "--format=csv,noheader,nounits\" ] || exit 2\n"
                  "printf '0, 64, 2048, 16384\\n'\n");
        smi.close();
        smi.setPermissions(smi.permissions() | QFileDevice::ExeOwner);
        // The agent the worker starts inherits both.
        qputenv("PATH", m_bin.path().toUtf8() + ':' + qgetenv("PATH"));
        qputenv("TRAINDESK_SYSTEM_SAMPLE_SECONDS", "1");
        QVERIFY(startBackend(m_store, m_backend));
    }

    void runningJobReachesStoreAndChart()
    {
        const QByteArray spec = QStringLiteral(R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "%1",
            "customToolkitSettings": {"commandLine": "sleep 8"}}})").arg(m_home.path()).toUtf8();
        const auto job = JobSubmission(m_store).submit({QStringLiteral("default"), QStringLiteral("demo"), QStringLiteral("sampled"),
                                        QStringLiteral("local"), spec, false});
        QVERIFY2(job, qPrintable(job.error()));
        m_backend->pollNow();

        JobView view(m_backend.get());
        view.resize(1200, 900);
        view.setCurrentIndex(JobView::ChartsTab);
        view.show();
        connect(m_backend.get(), &Backend::snapshotChanged, &view,
                [&] { view.showJob(job->id, m_backend->snapshot()); });
        QTRY_COMPARE_WITH_TIMEOUT(view.jobId(), job->id, 10000);

        // In the store: samples of the job's one node while it runs.
        QTRY_VERIFY_WITH_TIMEOUT(m_store.systemSamples(job->id).size() >= 3, 60000);
        const auto stored = SystemSample::fromJson(m_store.systemSamples(job->id).first().second);
        QVERIFY(stored);
        const Job running = *m_store.jobById(job->id);
        QCOMPARE(stored->node, running.nodes.value(0));
        QVERIFY(stored->cpuPercent >= 0 && stored->cpuPercent <= 100);
        QVERIFY(stored->memTotalBytes > 0);
        QCOMPARE(stored->gpus.size(), 1);
        QCOMPARE(stored->gpus.first().utilPercent, 64.0);

        // On the chart: a CPU line and a GPU line for the node, RAM and GPU memory, network.
        const QString node = stored->node;
        SystemChartsView *charts = view.systemCharts();
        QTRY_VERIFY_WITH_TIMEOUT(charts->usagePanel()->lineCount(node + QStringLiteral(" CPU")) >= 3, 20000);
        QVERIFY(charts->usagePanel()->lineCount(node + QStringLiteral(" GPU 0")) >= 3);
        QVERIFY(charts->memoryPanel()->lineCount(node + QStringLiteral(" RAM")) >= 3);
        QVERIFY(charts->memoryPanel()->lineCount(node + QStringLiteral(" GPU 0")) >= 3);
        QVERIFY(charts->networkPanel()->lineCount(node + QStringLiteral(" received")) >= 2);
        const QList<ChartLine> memory = view.systemSeries()->memoryLines();
        QCOMPARE(memory.value(1).points.last().y(), 2.0);  // 2048 MiB in GiB
        QVERIFY(charts->summary().contains(node));
        // Use in percent on its whole scale, amounts from zero (a CPU at 99-100 % drew an
        // axis of 95-99 % before).
        // 100 % inside the plot: a little room above it.
        QCOMPARE(charts->usagePanel()->yRange().x(), 0.0);
        QVERIFY(charts->usagePanel()->yRange().y() > 100.0 && charts->usagePanel()->yRange().y() < 110.0);
        QCOMPARE(charts->memoryPanel()->yRange().x(), 0.0);
        QCOMPARE(charts->networkPanel()->yRange().x(), 0.0);
    }

private:
    TestHome m_home;
    QTemporaryDir m_bin;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestSystemMetrics)
#include "tst_systemmetrics.moc"

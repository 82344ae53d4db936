// schedulingPriority as the scheduler honours it: on a busy one-node cluster, queued jobs
// start high first, then normal, then low, each level in submit order.
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "store/Store.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "LocalClusterFixture.h"
#include <QThread>

using namespace TrainDesk;

class TestJobSpecPriority : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;

    QByteArray spec(const QString &command, const QString &priority = {})
    {
        QJsonObject properties{{"nodeCount", 1}, {"customMpiSettings", QJsonObject{{"commandLine", command}}},
                               {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/share"}};
        if (!priority.isEmpty())
            properties.insert("schedulingPriority", priority);
        return QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
    }

    Job submit(const QString &name, const QByteArray &json)
    {
        JobRunner runner(m_store);
        const auto job = JobSubmission(m_store).submit({"ws", "exp", name, "local", json});
        if (!job)
            qFatal("submit %s: %s", qPrintable(name), qPrintable(job.error()));
        runner.refreshAll();  // the test stands in for the agent, which schedules
        return *m_store.jobById(job->id);
    }

    JobState state(const Job &job) { return m_store.jobById(job.id)->state; }

    // Ends the running job and lets the scheduler pick the next one.
    void finishRunning(const Job &job)
    {
        JobRunner runner(m_store);
        QVERIFY(runner.terminate(job.id, 5000).ok());
        runner.refreshAll();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_store.open(m_dir.filePath("traindesk.db")).ok());
        const auto created = Testing::createLocalCluster(m_store, m_dir);
        QVERIFY2(created.ok(), qPrintable(created.error()));
    }

    void highBeforeNormalBeforeLow()
    {
        const Job busy = submit("busy", spec("sleep 60"));
        QCOMPARE(toString(state(busy)), toString(JobState::Running));
        // Submitted low first: submit order alone would start it first.
        const Job low = submit("low", spec("sleep 60", "low"));
        const Job normal = submit("normal", spec("sleep 60"));
        const Job high = submit("high", spec("sleep 60", "high"));
        const Job high2 = submit("high2", spec("sleep 60", "high"));
        QCOMPARE(low.priority, 0);
        QCOMPARE(normal.priority, 1);
        QCOMPARE(high.priority, 2);
        for (const Job &j : {low, normal, high, high2})
            QCOMPARE(toString(state(j)), toString(JobState::Queued));

        const QList<Job> order{high, high2, normal, low};
        Job running = busy;
        for (const Job &next : order) {
            finishRunning(running);
            QCOMPARE(toString(state(next)), toString(JobState::Running));
            for (const Job &other : order) {
                if (other.id != next.id && state(other) != JobState::Failed)
                    QCOMPARE(toString(state(other)), toString(JobState::Queued));
            }
            running = next;
        }
        finishRunning(running);
    }
};

QTEST_GUILESS_MAIN(TestJobSpecPriority)
#include "tst_jobspec_priority.moc"

// The GUI's worker learns of a job's progress from the agent's pushes, not from polling:
// with its poll interval set to an hour (so it looks at the store once, at start), a job
// queued from the GUI still reaches the window's model as running, then succeeded, and
// every metric record it wrote arrives exactly once, in order.
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "jobs/JobSubmission.h"
#include "session/Backend.h"
#include "store/Store.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace TrainDesk;

namespace {

constexpr int anHour = 3600 * 1000;
constexpr int records = 12;

// A job that runs `script` (which writes `records` metric lines over about 1.2 s, so that
// several pushes carry them).
QByteArray writerSpec(const QString &script)
{
    const QJsonObject mpi{{"processCount", 1}, {"commandLine", QStringLiteral("sh ") + script}};
    const QJsonObject properties{{"nodeCount", 1},
                                 {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/local"},
                                 {"customMpiSettings", mpi}};
    return QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
}

bool writeScript(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly)
        && file.write(QStringLiteral("for i in $(seq 1 %1); do\n"
                                     "  echo \"{\\\"kind\\\": \\\"train\\\", \\\"step\\\": $i, \\\"loss\\\": 1.$i}\" "
                                     ">> \"$AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl\"\n"
                                     "  sleep 0.1\ndone\n")
                          .arg(records)
                          .toUtf8())
            > 0;
}

} // namespace

class TestAgentPush : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(m_store.open(DataPaths::databasePath()));
        QVERIFY(EmbeddedDefaults::ensure(m_store));
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        // The agent this test started goes with the test's data directory.
        QProcess::execute(qEnvironmentVariable("TRAINDESK_AGENT_PROGRAM"), {QStringLiteral("agent"), QStringLiteral("stop")});
    }

    void progressArrivesByPush()
    {
        const QString script = m_home.filePath(QStringLiteral("writer.sh"));
        QVERIFY(writeScript(script));
        const auto draft = JobSubmission(m_store).submit({QStringLiteral("default"), QStringLiteral("demo"), QStringLiteral("pushed"),
                                          QStringLiteral("local"), writerSpec(script), true});
        QVERIFY2(draft, qPrintable(draft.error()));

        m_backend = std::make_unique<Backend>(DataPaths::databasePath(), anHour);
        QVERIFY(QTest::qWaitFor([this] { return !m_backend->snapshot().workspaces.isEmpty(); }, 10000));
        QList<MetricRecord> seen;
        connect(m_backend.get(), &Backend::metricsArrived, this,
                [&seen, id = draft->id](qint64 jobId, const QList<MetricRecord> &got, bool reset) {
                    if (jobId != id)
                        return;
                    if (reset)
                        seen.clear();
                    seen.append(got);
                });
        QSet<JobState> statesSeen;
        connect(m_backend.get(), &Backend::snapshotChanged, this, [&] {
            if (const Job *job = m_backend->snapshot().findJob(draft->id))
                statesSeen.insert(job->state);
        });
        m_backend->watchJob(draft->id);
        m_backend->queueJob(draft->id);

        const auto stateNow = [&] {
            const Job *job = m_backend->snapshot().findJob(draft->id);
            return toString(job ? job->state : JobState::Draft);
        };
        QTRY_COMPARE_WITH_TIMEOUT(stateNow(), toString(JobState::Succeeded), 30000);
        QVERIFY2(statesSeen.contains(JobState::Running), "the running state was never pushed");
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), records, 5000);
        // Held there: nothing is sent twice by a later push.
        QTest::qWait(1500);
        QCOMPARE(seen.size(), records);
        for (int i = 0; i < records; ++i)
            QCOMPARE(seen.at(i).step, qint64(i + 1));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestAgentPush)
#include "tst_agentpush.moc"

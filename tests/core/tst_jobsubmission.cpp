// What clients do with a job (JobSubmission): the refusals at submit, a draft queued, a job
// deleted only when nothing runs it. Nothing here starts a job: that is the agent's
// (core.tst_jobrunner).
#include "LocalClusterFixture.h"
#include "jobs/JobSubmission.h"
#include "store/Store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;
using Testing::localJobSpec;

class TestJobSubmission : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_store.open(m_dir.filePath("traindesk.db")).ok());
        const auto created = Testing::createLocalCluster(m_store, m_dir, 2);
        QVERIFY2(created.ok(), qPrintable(created.error()));
    }

    void queueTakesOnlyADraft()
    {
        JobSubmission jobs(m_store);
        SubmitRequest request{"ws", "exp", "drafted", "local", localJobSpec("true", 1), true};
        const auto draft = jobs.submit(request);
        QVERIFY2(draft.ok(), qPrintable(draft.error()));
        QCOMPARE(toString(draft->state), toString(JobState::Draft));
        const auto queued = jobs.queue(draft->id);
        QVERIFY2(queued.ok(), qPrintable(queued.error()));
        QCOMPARE(toString(m_store.jobById(draft->id)->state), toString(JobState::Queued));
        const auto again = jobs.queue(draft->id);
        QVERIFY(!again);
        QVERIFY2(again.error().contains("job 'drafted' is queued, not a draft"), qPrintable(again.error()));
    }

    void removeRefusesAQueuedJob()
    {
        // No agent runs here: a queued job stays queued, and is what a delete must not take.
        JobSubmission jobs(m_store);
        const auto queued = jobs.submit({"ws", "exp", "waiting", "local", localJobSpec("true", 1)});
        QVERIFY2(queued.ok(), qPrintable(queued.error()));
        const auto refused = jobs.remove(queued->id);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains("job 'waiting' is queued: terminate it first"), qPrintable(refused.error()));
        QVERIFY(m_store.jobById(queued->id).ok());
        const auto draft = jobs.submit({"ws", "exp", "scratch", "local", localJobSpec("true", 1), true});
        QVERIFY2(draft.ok(), qPrintable(draft.error()));
        QVERIFY2(jobs.remove(draft->id).ok(), "a draft is deleted");
        QVERIFY(!m_store.jobById(draft->id));
    }

    void refusesImpossibleJobs()
    {
        JobSubmission jobs(m_store);
        const auto tooBig = jobs.submit({"ws", "exp", "big", "local",
            R"({"nodeCount": 2, "stdOutErrPathPrefix": "/tmp", "customMpiSettings": {"commandLine": "a"}})"});
        QVERIFY(!tooBig);
        QVERIFY2(tooBig.error().contains("properties.nodeCount"), qPrintable(tooBig.error()));
        const auto invalid = jobs.submit({"ws", "exp", "bad", "local", "{"});
        QVERIFY(!invalid);
        QVERIFY(!m_store.job(m_store.experiment(m_store.workspace("ws")->id, "exp")->id, "bad"));
        const auto noCluster = jobs.submit({"ws", "exp", "x", "nope", localJobSpec("a", 1)});
        QVERIFY2(noCluster.error().contains("cluster 'nope' not found"), qPrintable(noCluster.error()));
    }

    void refusesAnImageTheNodesCannotRun()
    {
        // The node's last probe found no container runtime: the image is refused at submit,
        // naming the image and the node and saying how to run without it; --no-container
        // (noContainer) stores the spec without containerSettings and jobPreparation.
        const Node node = m_store.nodes(m_store.cluster(m_store.workspace("ws")->id, "local")->id).first();
        const QString facts = node.facts;
        QVERIFY(m_store.setNodeFacts(node.id, node.slotCount, R"({"cores": 2, "containerRuntimes": []})").ok());
        QJsonObject props = QJsonDocument::fromJson(localJobSpec("sh -c 'echo hi'", 1, "apt install -y x")).object().value("properties").toObject();
        props.insert("containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", "tensorflow/tensorflow:1.8.0-gpu"}}}});
        const QByteArray json = QJsonDocument(QJsonObject{{"properties", props}}).toJson();
        JobSubmission jobs(m_store);
        const auto refused = jobs.submit({"ws", "exp", "image", "local", json});
        QVERIFY(!refused);
        for (const QString &part : {QStringLiteral("tensorflow/tensorflow:1.8.0-gpu"), node.name, QStringLiteral("--no-container")})
            QVERIFY2(refused.error().contains(part), qPrintable(refused.error()));
        SubmitRequest request{"ws", "exp", "image", "local", json, true};
        request.noContainer = true;
        const auto accepted = jobs.submit(request);
        QVERIFY2(accepted.ok(), qPrintable(accepted.error()));
        const QJsonObject stored = QJsonDocument::fromJson(accepted->spec).object().value("properties").toObject();
        QVERIFY(!stored.contains("containerSettings") && !stored.contains("jobPreparation") && stored.contains("customMpiSettings"));
        // A runtime on the node (or facts from before runtimes were probed): accepted as it is.
        QVERIFY(m_store.setNodeFacts(node.id, node.slotCount, R"({"cores": 2, "containerRuntimes": ["apptainer"]})").ok());
        const auto withRuntime = jobs.submit({"ws", "exp", "image2", "local", json, true});
        QVERIFY2(withRuntime.ok(), qPrintable(withRuntime.error()));
        QVERIFY(QJsonDocument::fromJson(withRuntime->spec).object().value("properties").toObject().contains("containerSettings"));
        QVERIFY(m_store.setNodeFacts(node.id, node.slotCount, facts).ok());
    }
};

QTEST_GUILESS_MAIN(TestJobSubmission)
#include "tst_jobsubmission.moc"

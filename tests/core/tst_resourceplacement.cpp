// ResourcePlacement and JobDemand: jobs packed onto a node's free cores and GPUs, whole-node
// jobs kept whole, and nothing ever held twice (a property test over random submissions and
// terminations).
#include "jobs/JobDemand.h"
#include "jobs/ResourcePlacement.h"

#include <QRandomGenerator>
#include <QTest>

using namespace TrainDesk;

namespace {

ResourceDemand packed(int cores, std::optional<int> gpus, int ranks = 1)
{
    ResourceDemand d;
    d.wholeNodes = false;
    d.cores = cores;
    d.gpus = gpus;
    d.ranks = ranks;
    return d;
}

JobSpec specOf(const QByteArray &properties)
{
    // Batch AI requires stdOutErrPathPrefix; the cases name only what they are about.
    QByteArray withPrefix = properties;
    withPrefix.insert(1, "\"stdOutErrPathPrefix\": \"/tmp/jobs\", ");
    const ParsedJobSpec parsed = parseJobSpec("{\"properties\": " + withPrefix + "}");
    if (parsed.hasErrors())
        qFatal("%s", qPrintable(parsed.errorTexts().join("; ")));
    return parsed.spec;
}

} // namespace

class TestResourcePlacement : public QObject
{
    Q_OBJECT

private slots:
    void fourOneGpuJobsGetDistinctGpus()
    {
        ResourcePlacement p({{"gpu1", 8, 4}});
        QSet<int> gpus;
        for (int i = 0; i < 4; ++i) {
            const auto placed = p.place(packed(1, 1), {"gpu1"});
            QVERIFY(placed);
            QCOMPARE(placed->grants.first().gpus.size(), 1);
            gpus.insert(placed->grants.first().gpus.first());
        }
        QCOMPARE(gpus, (QSet<int>{0, 1, 2, 3}));
        QVERIFY(!p.place(packed(1, 1), {"gpu1"}));
        QCOMPARE(p.freeCores("gpu1"), 4);
    }

    void twoGpuJobWaitsForTwoFreeGpus()
    {
        ResourcePlacement p({{"gpu1", 8, 2}});
        const auto first = p.place(packed(1, 1), {"gpu1"});
        QVERIFY(first);
        QVERIFY(!p.place(packed(1, 2), {"gpu1"}));
        QCOMPARE(p.whyNot(packed(1, 2), {"gpu1"}), QStringLiteral("needs 2 GPUs and 1 core, node gpu1 has 1 GPU free"));
        p.release(first->grants);
        const auto second = p.place(packed(1, 2), {"gpu1"});
        QVERIFY(second);
        QCOMPARE(second->grants.first().gpus, (QList<int>{0, 1}));
    }

    void wholeNodeWaitsForANodeNothingHolds()
    {
        ResourcePlacement p({{"a", 2, 0}, {"b", 2, 0}});
        QVERIFY(p.place(packed(1, std::nullopt), {"a", "b"}));
        ResourceDemand whole;
        whole.nodeCount = 2;
        QVERIFY(!p.place(whole, {"a", "b"}));
        QCOMPARE(p.whyNot(whole, {"a", "b"}), QStringLiteral("needs 2 whole nodes, 1 of 2 free"));
        whole.nodeCount = 1;
        const auto placed = p.place(whole, {"a", "b"});
        QVERIFY(placed);
        QCOMPARE(placed->nodes, QStringList{"b"});
        QCOMPARE(p.freeCores("b"), 0);
        // A job started before packing (no grants) holds its nodes whole.
        ResourcePlacement q({{"a", 2, 1}});
        q.hold({"a"}, {});
        QVERIFY(!q.place(packed(1, 0), {"a"}));
    }

    void gpuConventionIsOnePerRankAsFarAsTheNodeHas()
    {
        ResourcePlacement p({{"gpu1", 8, 4}, {"cpu1", 8, 0}});
        const auto onGpus = p.place(packed(2, std::nullopt, 2), {"gpu1"});
        QCOMPARE(onGpus->grants.first().gpus, (QList<int>{0, 1}));
        const auto onCpu = p.place(packed(2, std::nullopt, 2), {"cpu1"});
        QVERIFY(onCpu->grants.first().gpus.isEmpty());
        // More cores than the node has: all of them (ranks share them, as before packing).
        ResourcePlacement small({{"n", 2, 0}});
        QCOMPARE(small.place(packed(4, 0, 4), {"n"})->grants.first().cores, (QList<int>{0, 1}));
    }

    void demandFromJobJson()
    {
        const JobSpec one = specOf(R"({"nodeCount": 1, "customMpiSettings": {"commandLine": "x", "processCount": 2}})");
        QVERIFY(!JobDemand::of(one, ClusterKind::Local).wholeNodes);  // local packs
        QVERIFY(JobDemand::of(one, ClusterKind::Ssh).wholeNodes);     // as Batch AI did
        QCOMPARE(JobDemand::of(one, ClusterKind::Local).cores, 2);
        const JobSpec asks = specOf(R"({"nodeCount": 1, "gpusPerProcess": 2, "coresPerProcess": 3,
                                       "customMpiSettings": {"commandLine": "x", "processCount": 2}})");
        const ResourceDemand d = JobDemand::of(asks, ClusterKind::Ssh);
        QVERIFY(!d.wholeNodes);
        QCOMPARE(d.gpus.value_or(-1), 4);
        QCOMPARE(d.cores, 6);
        const JobSpec two = specOf(R"({"nodeCount": 2, "gpusPerProcess": 1, "customMpiSettings": {"commandLine": "x", "processCount": 2}})");
        QVERIFY(JobDemand::of(two, ClusterKind::Local).wholeNodes);
        const JobSpec whole = specOf(R"({"nodeCount": 1, "wholeNodes": true, "customToolkitSettings": {"commandLine": "x"}})");
        QVERIFY(JobDemand::of(whole, ClusterKind::Local).wholeNodes);
    }

    void badGpuCountsRefusedWithTheField()
    {
        const ParsedJobSpec fractional = parseJobSpec(R"({"properties": {"gpusPerProcess": 0.5, "customToolkitSettings": {"commandLine": "x"}}})");
        QVERIFY(fractional.hasErrors());
        QVERIFY2(fractional.errorTexts().join(";").contains("properties.gpusPerProcess"), qPrintable(fractional.errorTexts().join(";")));
        Cluster cluster;
        cluster.name = "box";
        Node node;
        node.name = "gpu1";
        node.gpuCount = 4;
        const JobSpec tooMany = specOf(R"({"nodeCount": 1, "gpusPerProcess": 3, "customMpiSettings": {"commandLine": "x", "processCount": 2}})");
        const auto refusal = JobDemand::refusal(tooMany, cluster, {node});
        QVERIFY(refusal);
        QVERIFY2(refusal->startsWith("properties.gpusPerProcess: the job needs 6 GPUs on a node"), qPrintable(*refusal));
        const JobSpec fits = specOf(R"({"nodeCount": 1, "gpusPerProcess": 2, "customMpiSettings": {"commandLine": "x", "processCount": 2}})");
        QVERIFY(!JobDemand::refusal(fits, cluster, {node}));
    }

    // 100 random submissions and terminations on two nodes: no core or GPU is ever held by
    // two jobs, and what is free is what the jobs left.
    void nothingOversubscribed()
    {
        ResourcePlacement p({{"a", 8, 4}, {"b", 4, 2}});
        QList<ResourcePlacement::Placement> running;
        QRandomGenerator rng(40);
        int placedCount = 0;
        for (int step = 0; step < 100; ++step) {
            if (!running.isEmpty() && rng.bounded(3) == 0) {
                p.release(running.takeAt(rng.bounded(int(running.size()))).grants);
            } else {
                ResourceDemand d = packed(1 + rng.bounded(4), rng.bounded(3));
                if (rng.bounded(8) == 0) {
                    d = ResourceDemand{};
                    d.nodeCount = 1 + rng.bounded(2);
                }
                if (const auto placed = p.place(d, {"a", "b"})) {
                    running << *placed;
                    ++placedCount;
                }
            }
            QHash<QString, QSet<int>> cores, gpus;
            for (const auto &job : running) {
                for (const NodeGrant &g : job.grants) {
                    for (int c : g.cores) {
                        QVERIFY2(!cores[g.node].contains(c), qPrintable(QStringLiteral("core %1 of %2 held twice").arg(c).arg(g.node)));
                        cores[g.node].insert(c);
                    }
                    for (int i : g.gpus) {
                        QVERIFY2(!gpus[g.node].contains(i), qPrintable(QStringLiteral("GPU %1 of %2 held twice").arg(i).arg(g.node)));
                        gpus[g.node].insert(i);
                    }
                }
            }
            QCOMPARE(p.freeCores("a"), 8 - int(cores["a"].size()));
            QCOMPARE(p.freeGpus("a"), 4 - int(gpus["a"].size()));
            QCOMPARE(p.freeCores("b"), 4 - int(cores["b"].size()));
            QCOMPARE(p.freeGpus("b"), 2 - int(gpus["b"].size()));
        }
        QVERIFY(placedCount > 20);
    }
};

QTEST_GUILESS_MAIN(TestResourcePlacement)
#include "tst_resourceplacement.moc"

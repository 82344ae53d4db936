// Hyperparameter sweeps' pure parts: job_factory's parameter specification against values
// worked out by hand, PARAM_* substitution in every string of a job.json, grid and random
// sampling, the early-stopping rules on hand-made series, and the sweep tables.
#include "defaults/EmbeddedDefaults.h"
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "store/Store.h"
#include "sweeps/SweepCreate.h"
#include "sweeps/SweepScheduler.h"
#include "sweeps/EarlyStopping.h"
#include "sweeps/ParamSubstitution.h"
#include "sweeps/SweepParam.h"
#include "sweeps/SweepSampler.h"
#include "sweeps/SweepStore.h"
#include "sweeps/SweepSummary.h"
#include "sweeps/SweepTemplate.h"
#include "sweeps/TrialMetric.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

namespace {

QJsonArray grid(const QByteArray &paramJson)
{
    const auto p = SweepParams::fromJson(QJsonDocument::fromJson(paramJson).object(), QStringLiteral("p"));
    if (!p) {
        qWarning("%s", qPrintable(p.error()));
        return {};
    }
    const auto values = p->gridValues();
    if (!values)
        qWarning("%s", qPrintable(values.error()));
    return values ? *values : QJsonArray{};
}

QJsonArray numbers(std::initializer_list<double> list)
{
    QJsonArray a;
    for (double d : list)
        a.append(d);
    return a;
}

QJsonObject object(const QByteArray &json) { return QJsonDocument::fromJson(json).object(); }

// A sweep on the embedded local cluster whose trials echo their value.
SweepRequest echoSweep(const QTemporaryDir &dir, const QString &name, const QString &param, int maxConcurrent)
{
    SweepRequest r;
    r.workspace = "default";
    r.experiment = "demo";
    r.cluster = "local";
    r.name = name;
    r.spec = QStringLiteral(R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "%1",
        "customToolkitSettings": {"commandLine": "echo PARAM_I"}}})").arg(dir.filePath("jobs")).toUtf8();
    r.params = {*SweepParams::parseInline(param)};
    r.maxConcurrent = maxConcurrent;
    return r;
}

// A data directory with the embedded defaults, and the sweeps' scheduler over its store.
struct SweepBench
{
    SweepBench() : opened(store.open(dir.filePath("traindesk.db")) && EmbeddedDefaults::ensure(store)) {}
    QTemporaryDir dir;
    Store store;
    bool opened;
    JobRunner runner{store};
    SweepScheduler scheduler{store, runner};
    SweepStore sweeps{store};
};

// A trial's job as JobRunner ends it.
void endJob(Store &store, qint64 jobId, JobState state, const QList<JobError> &errors = {})
{
    auto job = store.jobById(jobId);
    job->state = state;
    job->exitCode = state == JobState::Succeeded ? 0 : 1;
    job->errors = errors;
    QVERIFY(store.updateJob(*job));
}

} // namespace

class TestSweeps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void logNumParamWithNumValues()
    {
        // 10^-4 .. 10^-1 in 4 values: one per decade.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"LR","dataType":"REAL","start":1e-4,"end":1e-1,
                         "scale":"LOG","numValues":4})"),
                 numbers({0.0001, 0.001, 0.01, 0.1}));
        // 1 .. 100 in 5: 1, 10^0.5 = 3.16227766017, 10, 31.6227766017, 100.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"WD","start":1,"end":100,"scale":"LOG","numValues":5})"),
                 numbers({1, 3.16227766017, 10, 31.6227766017, 100}));
    }

    void linearNumParamWithStep()
    {
        // Counted, not summed: 0.1 + 0.1 + 0.1 is 0.30000000000000004, the grid says 0.3; the end is in.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"DROP","start":0.1,"end":0.5,"step":0.1})"),
                 numbers({0.1, 0.2, 0.3, 0.4, 0.5}));
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"BS","dataType":"INTEGER","start":16,"end":64,"step":16})"),
                 numbers({16, 32, 48, 64}));
        // A step that does not land on the end stops below it.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"N","dataType":"INTEGER","start":1,"end":10,"step":4})"),
                 numbers({1, 5, 9}));
        // LOG with a step: the step is in decades (log10 of the value).
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"LR","start":1e-3,"end":1,"scale":"LOG","step":1})"),
                 numbers({0.001, 0.01, 0.1, 1}));
    }

    void integerRounding()
    {
        // 1, 2.5, 4 -> 1, 3 (2.5 rounds away from zero), 4.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"L","dataType":"INTEGER","start":1,"end":4,"numValues":3})"),
                 numbers({1, 3, 4}));
        // 1, 1.33, 1.67, 2 round to 1, 1, 2, 2: each value once.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"L","dataType":"INTEGER","start":1,"end":2,"numValues":4})"),
                 numbers({1, 2}));
        // LOG INTEGER 1..100 in 5: 1, 3.16, 10, 31.6, 100 -> 1, 3, 10, 32, 100.
        QCOMPARE(grid(R"({"type":"NumParam","parameterName":"W","dataType":"INTEGER","start":1,"end":100,"scale":"LOG",
                         "numValues":5})"),
                 numbers({1, 3, 10, 32, 100}));
        // The values are JSON integers: "3", not "3.0", goes into the job.json.
        const QJsonArray g = grid(R"({"type":"NumParam","parameterName":"L","dataType":"INTEGER","start":1,"end":4,"numValues":3})");
        QCOMPARE(SweepParams::valueText(g.at(1)), QStringLiteral("3"));
    }

    void discreteAndDictParams()
    {
        const auto params = SweepParams::parseSpec(R"({"params": [
            {"type": "DiscreteParam", "parameterName": "OPT", "values": ["sgd", "adam"]},
            {"type": "DictParam", "parameterName": "NET", "values": [{"depth": 20, "width": 16}, {"depth": 56, "width": 32}]}
        ]})");
        QVERIFY2(params, qPrintable(params.error()));
        QCOMPARE(params->size(), 2);
        const auto trials = SweepSampler::trials(*params, SweepSampling::Grid, 0, 0);
        QVERIFY2(trials, qPrintable(trials.error()));
        // Every combination, the last parameter changing fastest.
        QCOMPARE(trials->size(), 4);
        QCOMPARE(trials->at(0), object(R"({"OPT":"sgd","NET":{"depth":20,"width":16}})"));
        QCOMPARE(trials->at(1), object(R"({"OPT":"sgd","NET":{"depth":56,"width":32}})"));
        QCOMPARE(trials->at(3), object(R"({"OPT":"adam","NET":{"depth":56,"width":32}})"));
        // A dict value's keys fill PARAM_NET__<key>.
        const auto out = ParamSubstitution::apply(R"({"properties":{"customToolkitSettings":{
            "commandLine":"train --opt PARAM_OPT --depth PARAM_NET__depth --width PARAM_NET__width"}}})", trials->at(1));
        QVERIFY2(out, qPrintable(out.error()));
        QCOMPARE(QJsonDocument::fromJson(out->json).object()["properties"].toObject()["customToolkitSettings"]
                     .toObject()["commandLine"].toString(),
                 QStringLiteral("train --opt sgd --depth 56 --width 32"));
        QVERIFY(out->unknown.isEmpty());
        QVERIFY(out->unused.isEmpty());
    }

    void badSpecificationsAreNamed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("FileParam") << QByteArray(R"([{"type":"FileParam","parameterName":"F","fileShareName":"x"}])")
                                   << "[0]: FileParam (F) enumerates files of an Azure storage container";
        QTest::newRow("scale") << QByteArray(R"({"params":[{"type":"DiscreteParam","parameterName":"A","values":[1]},
            {"type":"NumParam","parameterName":"B","start":1,"end":2,"scale":"SQUARE"}]})")
                               << "params[1].scale: expected LINEAR or LOG, found 'SQUARE'";
        QTest::newRow("log of 0") << QByteArray(R"([{"type":"NumParam","parameterName":"B","start":0,"end":2,"scale":"LOG","numValues":2}])")
                                  << "[0]: a LOG scale needs start and end above 0";
        QTest::newRow("both") << QByteArray(R"([{"type":"NumParam","parameterName":"B","start":0,"end":2,"step":1,"numValues":2}])")
                              << "[0]: give step or numValues, not both";
        QTest::newRow("name") << QByteArray(R"([{"type":"DiscreteParam","parameterName":"1X","values":[1]}])")
                              << "[0].parameterName: '1X' is not a name";
        QTest::newRow("twice") << QByteArray(R"([{"type":"DiscreteParam","parameterName":"X","values":[1]},
                                                 {"type":"DiscreteParam","parameterName":"X","values":[2]}])")
                               << "parameter X is given twice";
        QTest::newRow("dict key") << QByteArray(R"([{"type":"DictParam","parameterName":"N","values":[{"a-b":1}]}])")
                                  << "[0].values[0].a-b: a key is letters, digits and _";
        QTest::newRow("not json") << QByteArray("[{") << "not JSON";
    }
    void badSpecificationsAreNamed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const auto parsed = SweepParams::parseSpec(json);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(message), qPrintable(parsed.error()));
    }

    void aRangeHasNoGrid()
    {
        const auto p = SweepParams::parseInline(QStringLiteral("LR=loguniform(1e-4,1e-2)"));
        QVERIFY2(p, qPrintable(p.error()));
        const auto size = SweepSampler::gridSize({*p});
        QVERIFY(!size);
        QVERIFY2(size.error().contains("--sampling random"), qPrintable(size.error()));
        // With a count it has one.
        const auto counted = SweepParams::parseInline(QStringLiteral("LR=loguniform(1e-4,1e-2,3)"));
        QVERIFY2(counted, qPrintable(counted.error()));
        QCOMPARE(*counted->gridValues(), numbers({0.0001, 0.001, 0.01}));
    }

    void inlineParams()
    {
        const auto list = SweepParams::parseInline(QStringLiteral("BS=32,64"));
        QVERIFY2(list, qPrintable(list.error()));
        QCOMPARE(*list->gridValues(), numbers({32, 64}));
        const auto words = SweepParams::parseInline(QStringLiteral("OPT=sgd,adam"));
        QCOMPARE(*words->gridValues(), (QJsonArray{"sgd", "adam"}));
        const auto ints = SweepParams::parseInline(QStringLiteral("L=randint(2,4)"));
        QCOMPARE(*ints->gridValues(), numbers({2, 3, 4}));
        // Python's range: the end is out.
        const auto range = SweepParams::parseInline(QStringLiteral("M=range(0.5,0.9,0.2)"));
        QCOMPARE(*range->gridValues(), numbers({0.5, 0.7}));
        for (const char *bad : {"LR", "LR=", "=1,2", "LR=uniform(1)", "LR=gauss(1,2)", "LR=uniform(a,2)", "LR=1,,2"}) {
            const auto p = SweepParams::parseInline(QString::fromLatin1(bad));
            QVERIFY2(!p, bad);
            QVERIFY2(p.error().startsWith("--param"), qPrintable(p.error()));
        }
    }

    void randomSamplingIsReproducibleAndInRange()
    {
        const QList<SweepParam> params{*SweepParams::parseInline(QStringLiteral("LR=loguniform(1e-4,1e-2)")),
                                       *SweepParams::parseInline(QStringLiteral("L=randint(2,5)")),
                                       *SweepParams::parseInline(QStringLiteral("M=uniform(0.5,0.9)")),
                                       *SweepParams::parseInline(QStringLiteral("OPT=sgd,adam"))};
        const auto a = SweepSampler::trials(params, SweepSampling::Random, 200, 42);
        const auto b = SweepSampler::trials(params, SweepSampling::Random, 200, 42);
        const auto c = SweepSampler::trials(params, SweepSampling::Random, 200, 43);
        QVERIFY2(a, qPrintable(a.error()));
        QCOMPARE(a->size(), 200);
        QCOMPARE(*a, *b);
        QVERIFY(*a != *c);
        QSet<qint64> ls;
        QSet<QString> opts;
        int lowDecade = 0;
        for (const QJsonObject &t : *a) {
            const double lr = t["LR"].toDouble();
            QVERIFY2(lr >= 1e-4 && lr <= 1e-2, qPrintable(QString::number(lr)));
            lowDecade += lr < 1e-3;
            const double l = t["L"].toDouble();
            QVERIFY(l == std::floor(l) && l >= 2 && l <= 5);
            ls.insert(qint64(l));
            QVERIFY(t["M"].toDouble() >= 0.5 && t["M"].toDouble() <= 0.9);
            opts.insert(t["OPT"].toString());
        }
        // Every whole number of randint's range, both words, and log-uniform: about half the
        // draws in the lower decade (a uniform draw would put 9 % there).
        QCOMPARE(ls, (QSet<qint64>{2, 3, 4, 5}));
        QCOMPARE(opts, (QSet<QString>{"sgd", "adam"}));
        QVERIFY2(lowDecade > 70 && lowDecade < 130, qPrintable(QString::number(lowDecade)));
    }

    void substitutionInEveryStringField()
    {
        const QByteArray spec = R"({
  "properties": {
    "nodeCount": 1,
    "PARAM_KEY": "keys stay as they are",
    "stdOutErrPathPrefix": "/tmp/out/PARAM_LR",
    "customToolkitSettings": {"commandLine": "python train.py --lr PARAM_LR --decay PARAM_LR_DECAY --bs=PARAM_BS"},
    "environmentVariables": [{"name": "OPTIMIZER", "value": "PARAM_OPT"}],
    "inputDirectories": [{"id": "DATA", "path": "/data/PARAM_OPT/PARAM_BS"}],
    "jobPreparation": {"commandLine": "echo PARAM_UNKNOWN_ONE PARAM_LR"},
    "tags": [["PARAM_BS", ["deep PARAM_OPT"]]],
    "count": 3
  }
})";
        const QJsonObject values{{"LR", 0.001}, {"LR_DECAY", 0.5}, {"BS", 64}, {"OPT", "adam"}, {"UNUSED", 1}};
        const auto out = ParamSubstitution::apply(spec, values);
        QVERIFY2(out, qPrintable(out.error()));
        const QJsonObject p = QJsonDocument::fromJson(out->json).object()["properties"].toObject();
        QCOMPARE(p["stdOutErrPathPrefix"].toString(), QStringLiteral("/tmp/out/0.001"));
        // The longest name first: PARAM_LR_DECAY is not PARAM_LR + "_DECAY".
        QCOMPARE(p["customToolkitSettings"].toObject()["commandLine"].toString(),
                 QStringLiteral("python train.py --lr 0.001 --decay 0.5 --bs=64"));
        QCOMPARE(p["environmentVariables"].toArray()[0].toObject()["value"].toString(), QStringLiteral("adam"));
        QCOMPARE(p["inputDirectories"].toArray()[0].toObject()["path"].toString(), QStringLiteral("/data/adam/64"));
        QCOMPARE(p["tags"].toArray()[0].toArray()[0].toString(), QStringLiteral("64"));
        QCOMPARE(p["tags"].toArray()[0].toArray()[1].toArray()[0].toString(), QStringLiteral("deep adam"));
        QCOMPARE(p["PARAM_KEY"].toString(), QStringLiteral("keys stay as they are"));
        QCOMPARE(p["nodeCount"].toInt(), 1);
        QCOMPARE(p["count"].toInt(), 3);
        // A placeholder no parameter fills is kept and named with its path; a parameter
        // the template never names is named too.
        QCOMPARE(p["jobPreparation"].toObject()["commandLine"].toString(), QStringLiteral("echo PARAM_UNKNOWN_ONE 0.001"));
        QCOMPARE(out->unknown, QStringList{"properties.jobPreparation.commandLine: PARAM_UNKNOWN_ONE"});
        QCOMPARE(out->unused, QStringList{"UNUSED"});
    }

    void templateFromAJob()
    {
        // The wizard's way: pick a string field, the text in it that varies, a name.
        const QByteArray job = R"({"properties": {"nodeCount": 1,
            "customToolkitSettings": {"commandLine": "train --lr 0.001 --bs 32"},
            "environmentVariables": [{"name": "X", "value": "32"}]}})";
        QStringList paths;
        for (const auto &f : SweepTemplate::stringFields(job))
            paths << f.path;
        QCOMPARE(paths, (QStringList{"properties.customToolkitSettings.commandLine", "properties.environmentVariables[0].name",
                                     "properties.environmentVariables[0].value"}));
        const auto made = SweepTemplate::apply(job, {{"properties.customToolkitSettings.commandLine", "0.001", "LR"},
                                                     {"properties.customToolkitSettings.commandLine", "32", "BS"}});
        QVERIFY2(made, qPrintable(made.error()));
        const QJsonObject p = QJsonDocument::fromJson(*made).object()["properties"].toObject();
        QCOMPARE(p["customToolkitSettings"].toObject()["commandLine"].toString(), QStringLiteral("train --lr PARAM_LR --bs PARAM_BS"));
        QCOMPARE(p["environmentVariables"].toArray()[0].toObject()["value"].toString(), QStringLiteral("32"));  // another field
        const auto missingText = SweepTemplate::apply(job, {{"properties.customToolkitSettings.commandLine", "0.5", "LR"}});
        QVERIFY(!missingText);
        QVERIFY2(missingText.error().contains("does not hold '0.5'"), qPrintable(missingText.error()));
        const auto missingField = SweepTemplate::apply(job, {{"properties.nope", "1", "LR"}});
        QVERIFY(!missingField);
        QVERIFY2(missingField.error().contains("no string field properties.nope"), qPrintable(missingField.error()));
    }

    void medianStoppingOnHandMadeSeries()
    {
        // Two peers are enough here (three by default: medianWaitsForEnoughPeers).
        const auto policy = EarlyStopPolicy::parse(QStringLiteral("median:after=3,min=2"));
        QVERIFY2(policy, qPrintable(policy.error()));
        QCOMPARE(policy->text(), QStringLiteral("median:after=3,min=2"));
        // Peers' running averages after 3 evaluations: (0.2+0.4+0.6)/3 = 0.4, (0.3+0.5+0.7)/3 = 0.5;
        // median 0.45. Trial 3's best of 3 is 0.11: stopped. Trial 4 has 2 evaluations: not judged yet.
        const QList<TrialSeries> series{{1, true, {0.2, 0.4, 0.6}},
                                        {2, true, {0.3, 0.5, 0.7}},
                                        {3, true, {0.10, 0.11, 0.10}},
                                        {4, true, {0.1, 0.1}}};
        const auto decisions = EarlyStopping::decide(*policy, QStringLiteral("acc"), true, series);
        QCOMPARE(decisions.size(), 1);
        QCOMPARE(decisions[0].index, 3);
        QVERIFY2(decisions[0].reason.startsWith("acc 0.11 below the median 0.45 at evaluation 3"),
                 qPrintable(decisions[0].reason));
        // For a loss (min), the same series stop the highest.
        const QList<TrialSeries> loss{{1, true, {2.0, 1.5, 1.0}}, {2, true, {2.0, 1.6, 1.2}}, {3, true, {2.3, 2.3, 2.3}}};
        const auto lossDecisions = EarlyStopping::decide(*policy, QStringLiteral("loss"), false, loss);
        QCOMPARE(lossDecisions.size(), 1);
        QCOMPARE(lossDecisions[0].index, 3);
        // A trial that already ended is a peer, never judged.
        const QList<TrialSeries> ended{{1, true, {0.2, 0.4, 0.6}}, {2, false, {0.0, 0.0, 0.0}}};
        QCOMPARE(EarlyStopping::decide(*policy, QStringLiteral("acc"), true, ended).size(), 0);
    }

    void banditAndAsha()
    {
        const auto bandit = EarlyStopPolicy::parse(QStringLiteral("bandit:slack=0.2"));
        QVERIFY2(bandit, qPrintable(bandit.error()));
        // Best so far at evaluation 2: 0.6. 0.55 * 1.2 = 0.66 >= 0.6 goes on; 0.45 * 1.2 = 0.54 < 0.6 stops.
        const QList<TrialSeries> series{{1, true, {0.5, 0.6}}, {2, true, {0.5, 0.55}}, {3, true, {0.4, 0.45}}};
        const auto b = EarlyStopping::decide(*bandit, QStringLiteral("acc"), true, series);
        QCOMPARE(b.size(), 1);
        QCOMPARE(b[0].index, 3);
        QVERIFY(!EarlyStopPolicy::parse(QStringLiteral("bandit")));  // slack is needed
        QVERIFY(!EarlyStopPolicy::parse(QStringLiteral("hyperband")));
        QVERIFY(!EarlyStopPolicy::parse(QStringLiteral("asha:reduction=1")));

        const auto asha = EarlyStopPolicy::parse(QStringLiteral("asha:reduction=2,after=2"));
        QVERIFY2(asha, qPrintable(asha.error()));
        // Rung 2: bests 0.3, 0.5, 0.2, 0.4 -> the best half (0.5, 0.4) go on, 0.3 and 0.2 stop.
        const QList<TrialSeries> rung{{1, true, {0.1, 0.3}}, {2, true, {0.2, 0.5, 0.6}}, {3, true, {0.2, 0.1}}, {4, true, {0.4, 0.3}}};
        QList<int> stopped;
        for (const StopDecision &d : EarlyStopping::decide(*asha, QStringLiteral("acc"), true, rung))
            stopped << d.index;
        QCOMPARE(stopped, (QList<int>{1, 3}));
        // One trial at a rung is not halved.
        QCOMPARE(EarlyStopping::decide(*asha, QStringLiteral("acc"), true, {{1, true, {0.1, 0.3}}}).size(), 0);
    }

    // #41: the rules' branches no test reached before. Mutations each was seen to catch are
    // in the commit that added them.
    void banditWhenMinimising()
    {
        const auto bandit = EarlyStopPolicy::parse(QStringLiteral("bandit:slack=0.2"));
        QVERIFY2(bandit, qPrintable(bandit.error()));
        // A loss: the best at evaluation 2 is 0.8; 0.8 * 1.2 = 0.96. 0.9 goes on, 1.0 stops.
        const QList<TrialSeries> loss{{1, true, {1.0, 0.8}}, {2, true, {1.0, 0.9}}, {3, true, {1.1, 1.0}}};
        const auto decisions = EarlyStopping::decide(*bandit, QStringLiteral("loss"), false, loss);
        QCOMPARE(decisions.size(), 1);
        QCOMPARE(decisions[0].index, 3);
        QVERIFY2(decisions[0].reason.contains(QStringLiteral("loss 1 at evaluation 2 is outside slack 0.2 of the best 0.8")),
                 qPrintable(decisions[0].reason));
    }

    void ashaJudgesAtTheHighestRungReached()
    {
        const auto asha = EarlyStopPolicy::parse(QStringLiteral("asha:reduction=2,after=2"));
        QVERIFY2(asha, qPrintable(asha.error()));
        // Rungs at 2 and 4 evaluations. At rung 2 trial 3 leads (0.6); at rung 4 the others
        // have passed it (0.9, 0.8): only the best half there, trials 1 and 2, go on.
        const QList<TrialSeries> trials{{1, true, {0.1, 0.2, 0.9, 0.9}},
                                        {2, true, {0.1, 0.2, 0.8, 0.8}},
                                        {3, true, {0.5, 0.6, 0.6, 0.6}},
                                        {4, true, {0.1, 0.1, 0.1, 0.1}}};
        QList<int> stopped;
        for (const StopDecision &d : EarlyStopping::decide(*asha, QStringLiteral("acc"), true, trials)) {
            stopped << d.index;
            QVERIFY2(d.reason.contains(QStringLiteral("at rung 4 is not in the best 2 of 4 trials there (cutoff 0.8)")),
                     qPrintable(d.reason));
        }
        QCOMPARE(stopped, (QList<int>{3, 4}));
    }

    void ashaDoesNotHalveTooFew()
    {
        // Reduction 3 keeps the best third: two trials at a rung are too few to cut.
        const auto asha = EarlyStopPolicy::parse(QStringLiteral("asha:reduction=3,after=1"));
        QVERIFY2(asha, qPrintable(asha.error()));
        QCOMPARE(EarlyStopping::decide(*asha, QStringLiteral("acc"), true, {{1, true, {0.1}}, {2, true, {0.9}}}).size(), 0);
        // Three are enough: the best one goes on.
        const auto three = EarlyStopping::decide(*asha, QStringLiteral("acc"), true,
                                                 {{1, true, {0.1}}, {2, true, {0.9}}, {3, true, {0.5}}});
        QCOMPARE(three.size(), 2);
    }

    void medianOverUnequalLengths()
    {
        const auto policy = EarlyStopPolicy::parse(QStringLiteral("median:after=1,min=2"));
        QVERIFY2(policy, qPrintable(policy.error()));
        // Trial 4 has 4 evaluations; two others reached 3 (the third, 2): it is judged at 3,
        // its best of the first 3 (0.2, not the later 0.99) against the two peers' averages
        // of their first 3 (0.5 and 0.5).
        const QList<TrialSeries> trials{{1, false, {0.5, 0.5, 0.5, 0.9, 0.9, 0.9}},
                                        {2, false, {0.4, 0.6, 0.5}},
                                        {3, false, {0.9, 0.9}},
                                        {4, true, {0.2, 0.2, 0.2, 0.99}}};
        const auto decisions = EarlyStopping::decide(*policy, QStringLiteral("acc"), true, trials);
        QCOMPARE(decisions.size(), 1);
        QCOMPARE(decisions[0].index, 4);
        QVERIFY2(decisions[0].reason.startsWith(QStringLiteral("acc 0.2 below the median 0.5 at evaluation 3")),
                 qPrintable(decisions[0].reason));
        QVERIFY2(decisions[0].reason.contains(QStringLiteral("of 2 peers")), qPrintable(decisions[0].reason));
    }

    // The HyperBand recipe (Batch AI's recipes/Hyperparameters/HyperBand): 16 random
    // configurations of its two parameters, eta 4, at most 16 epochs. Its most aggressive
    // bracket keeps 16, then 4, then 1 configuration at 1, 4 and 16 epochs: the same cut as
    // asha:reduction=4,after=1 over trials that report once an epoch (the guide's recipe).
    void theHyperBandRecipeAsASweep()
    {
        const QByteArray file = R"({"params": [
            {"paramType": "NumParam", "parameterName": "FEEDFORWARD_CONSTANT", "dataType": "REAL",
             "start": 0.001, "end": 10, "scale": "LOG"},
            {"paramType": "DiscreteParam", "parameterName": "HIDDEN_LAYERS_DIMENSION", "values": [100, 200, 300]}]})";
        const auto params = SweepParams::parseSpec(file);
        QVERIFY2(params, qPrintable(params.error()));
        const auto drawn = SweepSampler::trials(*params, SweepSampling::Random, 16, 7);
        QVERIFY2(drawn, qPrintable(drawn.error()));
        QCOMPARE(drawn->size(), 16);
        int belowOne = 0;
        for (const QJsonObject &t : *drawn) {
            const double c = t.value("FEEDFORWARD_CONSTANT").toDouble();
            QVERIFY(c >= 0.001 && c <= 10);
            belowOne += c < 1;  // log-uniform: 3 of the 4 decades lie below 1
            QVERIFY(QList<int>({100, 200, 300}).contains(t.value("HIDDEN_LAYERS_DIMENSION").toInt()));
        }
        QVERIFY2(belowOne >= 8, qPrintable(QString::number(belowOne)));  // uniform would give ~0

        const auto asha = EarlyStopPolicy::parse(QStringLiteral("asha:reduction=4,after=1"));
        QVERIFY2(asha, qPrintable(asha.error()));
        // Trial i learns at rate i: after epoch 1 every trial has run; the best 4 go on.
        QList<TrialSeries> trials;
        for (int i = 1; i <= 16; ++i)
            trials.append({i, true, {0.01 * i}});
        QList<int> goOn;
        const auto firstCut = EarlyStopping::decide(*asha, QStringLiteral("acc"), true, trials);
        for (TrialSeries &t : trials) {
            if (std::none_of(firstCut.begin(), firstCut.end(), [&](const StopDecision &d) { return d.index == t.index; }))
                goOn << t.index;
            else
                t.running = false;
        }
        QCOMPARE(goOn, (QList<int>{13, 14, 15, 16}));
        // The 4 reach epoch 4: only the best goes on to 16.
        for (TrialSeries &t : trials) {
            if (t.running)
                t.values = {0.01 * t.index, 0.02 * t.index, 0.03 * t.index, 0.04 * t.index};
        }
        QList<int> secondCut;
        for (const StopDecision &d : EarlyStopping::decide(*asha, QStringLiteral("acc"), true, trials))
            secondCut << d.index;
        QCOMPARE(secondCut, (QList<int>{13, 14, 15}));
    }

    void metricSeriesByName()
    {
        // val_acc from `val` records only (the `epoch` summary repeats it), never a rank's own.
        const QList<QByteArray> records{
            R"({"kind":"train","loss":2.0,"acc":0.1})", R"({"kind":"rank","rank":1,"loss":9.0,"acc":0.9})",
            R"({"kind":"val","val_acc":0.3})", R"({"kind":"epoch","val_acc":0.3,"acc":0.2})",
            R"({"kind":"train","loss":1.5,"acc":0.25})", R"({"kind":"val","val_acc":0.5})",
            R"({"kind":"epoch","val_acc":0.5})", R"({"kind":"custom","my_metric":7})"};
        QCOMPARE(TrialMetric::seriesOf(records, QStringLiteral("val_acc")), (QList<double>{0.3, 0.5}));
        QCOMPARE(TrialMetric::seriesOf(records, QStringLiteral("loss")), (QList<double>{2.0, 1.5}));
        QCOMPARE(TrialMetric::seriesOf(records, QStringLiteral("acc")), (QList<double>{0.1, 0.25}));
        QCOMPARE(TrialMetric::seriesOf(records, QStringLiteral("my_metric")), (QList<double>{7}));
    }

    void schedulerKeepsTheLimitAndResubmitsACutLaunch()
    {
        // The agent's part without the agent: the scheduler submits (queues) at most K trials;
        // a trial whose job failed before its script started (JobProcessVanished, no pid) is
        // submitted again under its own name, once.
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("traindesk.db")));
        QVERIFY(EmbeddedDefaults::ensure(store));
        SweepRequest r;
        r.workspace = "default";
        r.experiment = "demo";
        r.cluster = "local";
        r.name = "cut";
        r.spec = QStringLiteral(R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "%1",
            "customToolkitSettings": {"commandLine": "echo PARAM_I"}}})").arg(dir.filePath("jobs")).toUtf8();
        r.params = {*SweepParams::parseInline(QStringLiteral("I=1,2,3"))};
        r.maxConcurrent = 2;
        const auto sweep = SweepCreate::create(store, r);
        QVERIFY2(sweep, qPrintable(sweep.error()));
        JobRunner runner(store);
        SweepScheduler scheduler(store, runner);
        QCOMPARE(scheduler.tick(), 1);
        SweepStore sweeps(store);
        QList<SweepTrial> trials = sweeps.trials(sweep->id);
        QCOMPARE(toString(trials[0].status), QStringLiteral("submitted"));
        QCOMPARE(toString(trials[1].status), QStringLiteral("submitted"));
        QCOMPARE(toString(trials[2].status), QStringLiteral("pending"));  // the limit
        QCOMPARE(SweepScheduler::activeTrials(store, trials), 2);
        // Trial 1's job: claimed and then failed as JobRunner fails a launch that never started.
        auto job = store.jobById(trials[0].jobId);
        QVERIFY(job);
        QVERIFY(job->spec.contains("echo 1"));
        job->state = JobState::Failed;
        job->pid = 0;
        job->errors = {{QStringLiteral("JobProcessVanished"), QStringLiteral("the launch on localhost was begun but its script never started"), {}}};
        QVERIFY(store.updateJob(*job));
        const qint64 oldId = job->id;
        QCOMPARE(scheduler.tick(), 1);
        trials = sweeps.trials(sweep->id);
        QCOMPARE(toString(trials[0].status), QStringLiteral("submitted"));
        QVERIFY(trials[0].jobId != oldId);
        QVERIFY2(trials[0].reason.startsWith("submitted again: the launch on localhost"), qPrintable(trials[0].reason));
        const auto again = store.jobById(trials[0].jobId);
        QCOMPARE(again->name, QStringLiteral("cut-1"));
        QCOMPARE(toString(again->state), QStringLiteral("queued"));
        QVERIFY(!store.jobById(oldId));
        // Still 2 at once: trial 3 waits. A trial that failed by itself is not run again.
        QCOMPARE(toString(trials[2].status), QStringLiteral("pending"));
        auto second = store.jobById(trials[1].jobId);
        second->state = JobState::Failed;
        second->exitCode = 1;
        QVERIFY(store.updateJob(*second));
        QCOMPARE(scheduler.tick(), 1);
        trials = sweeps.trials(sweep->id);
        QCOMPARE(trials[1].jobId, second->id);
        QCOMPARE(toString(trials[2].status), QStringLiteral("submitted"));  // took the freed place
    }

    void aTrialsNameIsTheSweeps()
    {
        // `job create -n ad-3` while trial 3 of sweep ad waits: refused, naming the sweep
        // (before, the scheduler took that job for trial 3, and V=3 never ran).
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("traindesk.db")));
        QVERIFY(EmbeddedDefaults::ensure(store));
        const auto sweep = SweepCreate::create(store, echoSweep(dir, "ad", "I=1,2,3", 1));
        QVERIFY2(sweep, qPrintable(sweep.error()));
        JobRunner runner(store);
        const QByteArray spec = QStringLiteral(R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "%1",
            "customToolkitSettings": {"commandLine": "echo mine"}}})").arg(dir.filePath("jobs")).toUtf8();
        const auto taken = JobSubmission(store).submit({"default", "demo", "ad-3", "local", spec});
        QVERIFY(!taken);
        QVERIFY2(taken.error().contains("job name 'ad-3' is trial 3 of sweep 'ad'"), qPrintable(taken.error()));
        // Past its trials, or not a trial's spelling: anyone's.
        QVERIFY(JobSubmission(store).submit({"default", "demo", "ad-4", "local", spec}));
        QVERIFY(JobSubmission(store).submit({"default", "demo", "ad-03", "local", spec}));
        SweepScheduler scheduler(store, runner);
        QCOMPARE(scheduler.tick(), 1);
        const QList<SweepTrial> trials = SweepStore(store).trials(sweep->id);
        QCOMPARE(toString(trials[0].status), QStringLiteral("submitted"));
        QCOMPARE(toString(trials[2].status), QStringLiteral("pending"));
    }

    void aSweepWithNoSuccessFailed()
    {
        SweepBench bench;
        QVERIFY(bench.opened);
        const QTemporaryDir &dir = bench.dir;
        Store &store = bench.store;
        SweepScheduler &scheduler = bench.scheduler;
        SweepStore &sweeps = bench.sweeps;
        const auto bad = SweepCreate::create(store, echoSweep(dir, "bad", "I=1,2", 2));
        const auto good = SweepCreate::create(store, echoSweep(dir, "good", "I=1,2", 2));
        QVERIFY(bad && good);
        QCOMPARE(scheduler.tick(), 2);
        const QList<SweepTrial> badTrials = sweeps.trials(bad->id);
        const QList<SweepTrial> goodTrials = sweeps.trials(good->id);
        endJob(store, badTrials[0].jobId, JobState::Failed);
        endJob(store, badTrials[1].jobId, JobState::Failed);
        endJob(store, goodTrials[0].jobId, JobState::Failed);
        endJob(store, goodTrials[1].jobId, JobState::Succeeded);
        QCOMPARE(scheduler.tick(), 0);
        QCOMPARE(toString(sweeps.sweepById(bad->id)->state), QStringLiteral("failed"));
        QCOMPARE(toString(sweeps.sweepById(good->id)->state), QStringLiteral("completed"));
        // A trial whose job was deleted says so, not "submitted".
        QVERIFY(JobSubmission(store).remove(badTrials[0].jobId));
        const SweepSummary summary = SweepSummary::read(store, sweeps, *sweeps.sweepById(bad->id));
        QCOMPARE(summary.trials[0].state, QStringLiteral("deleted"));
        QCOMPARE(summary.trials[1].state, QStringLiteral("failed"));
    }

    // A metric no trial's records carry (a misspelt --metric): once a trial ended, the summary
    // says so and names the fields they do carry; not before, and not when one has it.
    void aMetricNoTrialWroteIsNamed()
    {
        SweepBench bench;
        QVERIFY(bench.opened);
        Store &store = bench.store;
        SweepStore &sweeps = bench.sweeps;
        SweepRequest r = echoSweep(bench.dir, "typo", "I=1,2", 2);
        r.metric = "valacc";
        const auto sweep = SweepCreate::create(store, r);
        QVERIFY2(sweep, qPrintable(sweep.error()));
        for (int i = 0; i < 3 && (sweeps.trials(sweep->id)[0].jobId == 0 || sweeps.trials(sweep->id)[1].jobId == 0); ++i)
            bench.scheduler.tick();
        const QList<SweepTrial> trials = sweeps.trials(sweep->id);
        QVERIFY(trials[0].jobId && trials[1].jobId);
        const QList<QByteArray> records{R"({"kind":"info","epochs":2,"lr":0.1})",
                                        R"({"kind":"train","time":1,"epoch":1,"step":4,"loss":2.0,"acc":0.1})",
                                        R"({"kind":"rank","rank":1,"loss":9.0,"my_rank_only":1})",
                                        R"({"kind":"val","epoch":1,"val_acc":0.3,"top5":0.8})"};
        QVERIFY(store.appendJobOutput(trials[0].jobId, "metrics.jsonl", 0, 100, records, {}));
        QVERIFY(SweepSummary::read(store, sweeps, *sweeps.sweepById(sweep->id)).missingMetricNote().isEmpty());
        endJob(store, trials[0].jobId, JobState::Succeeded);
        const SweepSummary ended = SweepSummary::read(store, sweeps, *sweeps.sweepById(sweep->id));
        QCOMPARE(ended.missingMetricNote(),
                 QStringLiteral("no trial's metric records have 'valacc'; they have: acc, loss, top5, val_acc"));
        QCOMPARE(ended.toJson("default", "demo", "local").value("metricNote").toString(), ended.missingMetricNote());
        // A trial that has it: ranked, no note.
        QVERIFY(store.appendJobOutput(trials[1].jobId, "metrics.jsonl", 0, 10, {R"({"kind":"val","valacc":0.4})"}, {}));
        const SweepSummary ranked = SweepSummary::read(store, sweeps, *sweeps.sweepById(sweep->id));
        QCOMPARE(ranked.bestIndex, 2);
        QVERIFY(ranked.missingMetricNote().isEmpty());
    }

    // The trial's job ends saying why (job show, the tree and the first notification read
    // the job as it ends): the rule's reason goes with the terminate request, not after.
    void anEarlyStoppedTrialsJobSaysWhy()
    {
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("traindesk.db")));
        QVERIFY(EmbeddedDefaults::ensure(store));
        SweepRequest r = echoSweep(dir, "es", "I=1,2", 1);
        r.spec = QStringLiteral(R"({"properties": {"nodeCount": 1, "stdOutErrPathPrefix": "%1",
            "customToolkitSettings": {"commandLine": "sleep 6PARAM_I"}}})").arg(dir.filePath("jobs")).toUtf8();
        r.metric = "val_acc";
        r.earlyStop = "median";
        const auto sweep = SweepCreate::create(store, r);
        QVERIFY2(sweep, qPrintable(sweep.error()));
        JobRunner runner(store);
        SweepScheduler scheduler(store, runner);
        SweepStore sweeps(store);
        QCOMPARE(scheduler.tick(), 1);
        const qint64 jobId = sweeps.trials(sweep->id)[0].jobId;
        runner.schedule(store.jobById(jobId)->clusterId);
        QTRY_VERIFY_WITH_TIMEOUT(runner.refresh(jobId)->state == JobState::Running, 60000);
        const QString why = "val_acc 0.104 below the median 0.65 at evaluation 3 (median rule: its best so far against "
                            "the averages of 3 peers)";
        // Stored as stopped early, then the scheduler's next look terminates the job (the
        // same path as an agent restarted between the two).
        QVERIFY(sweeps.setTrialStatus(sweep->id, 1, TrialStatus::EarlyStopped, why));
        scheduler.tick();
        // From here on only the runner looks: the job's first finished state already says why.
        std::optional<Job> ended;
        QTRY_VERIFY_WITH_TIMEOUT((ended = *runner.refresh(jobId), isFinished(ended->state)), 60000);
        QVERIFY(ended->state == JobState::Failed);
        QCOMPARE(ended->errors.size(), 1);
        QCOMPARE(ended->errors[0].code, QStringLiteral("JobTerminated"));
        QCOMPARE(ended->errors[0].message, "stopped early: " + why);
    }

    void sweepTables()
    {
        QTemporaryDir dir;
        Store store;
        QVERIFY(store.open(dir.filePath("traindesk.db")));
        const auto ws = store.createWorkspace("w");
        const auto exp = store.createExperiment(ws->id, "e");
        Cluster cluster;
        cluster.workspaceId = ws->id;
        cluster.name = "c";
        cluster.targetNodeCount = 1;
        cluster.mountRoot = dir.filePath("mnt");
        Node node;
        node.name = node.host = "localhost";
        const auto madeCluster = store.createCluster(cluster, {node});
        QVERIFY2(madeCluster, qPrintable(madeCluster.error()));
        Sweep s;
        s.experimentId = exp->id;
        s.clusterId = madeCluster->id;
        s.name = "lr";
        s.spec = "{}";
        s.params = {*SweepParams::parseInline(QStringLiteral("LR=0.1,0.01")),
                    *SweepParams::parseInline(QStringLiteral("N=loguniform(1,100,3)"))};
        s.maxConcurrent = 2;
        s.metric = "loss";
        s.maximize = false;
        SweepStore sweeps(store);
        const auto made = sweeps.create(s, {QJsonObject{{"LR", 0.1}}, QJsonObject{{"LR", 0.01}}});
        QVERIFY2(made, qPrintable(made.error()));
        QVERIFY(!sweeps.create(s, {}));  // the name is taken
        QCOMPARE(made->trialCount, 2);
        QCOMPARE(made->params.size(), 2);
        QCOMPARE(made->params[1].describe(), QStringLiteral("loguniform(1, 100, 3 values)"));
        QCOMPARE(made->maximize, false);
        QCOMPARE(sweeps.activeSweeps().size(), 1);
        // A trial is submitted once: the second setTrialJob finds it no longer pending.
        Job job;
        job.experimentId = exp->id;
        job.clusterId = madeCluster->id;
        job.name = "lr-1";
        job.spec = "{}";
        job.uuid = "u";
        const auto created = store.createJob(job);
        QVERIFY2(created, qPrintable(created.error()));
        QCOMPARE(*sweeps.setTrialJob(made->id, 1, created->id), true);
        QCOMPARE(*sweeps.setTrialJob(made->id, 1, created->id), false);
        QCOMPARE(toString(sweeps.trials(made->id)[0].status), QStringLiteral("submitted"));
        QCOMPARE(sweeps.sweepOfJob(created->id)->second, 1);
        // Deleting the job leaves the trial, without its job.
        QVERIFY(store.deleteJob(created->id));
        QCOMPARE(sweeps.trials(made->id)[0].jobId, 0);
        // Stop is asked once; a finished sweep is not active.
        QCOMPARE(*sweeps.requestStop(made->id), true);
        QCOMPARE(*sweeps.requestStop(made->id), false);
        QVERIFY(!sweeps.remove(made->id));  // still stopping
        QVERIFY(sweeps.finish(made->id, SweepState::Stopped));
        QCOMPARE(toString(sweeps.sweepById(made->id)->state), QStringLiteral("stopped"));
        QVERIFY(sweeps.activeSweeps().isEmpty());
        QVERIFY(sweeps.remove(made->id));
        QVERIFY(sweeps.trials(made->id).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSweeps)
#include "tst_sweeps.moc"

// What a sweep takes from outside, refused or put in safely: sizes counted before anything
// is made (a huge grid is refused at once, naming the parameter and the limit), values
// reaching a shell as one word (run through /bin/sh here), Batch AI's own parameter files
// with the service's errors, Python's range, and the median rule's minimum of peers.
#include "sweeps/EarlyStopping.h"
#include "sweeps/ParamSubstitution.h"
#include "sweeps/SweepParam.h"
#include "sweeps/SweepSampler.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace TrainDesk;

namespace {

QString commandLineOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object()["properties"].toObject()["customToolkitSettings"].toObject()["commandLine"]
        .toString();
}

// The template's commandLine with V put in, run by /bin/sh in `dir`: what it printed.
QString runWithValue(const QString &commandLine, const QString &value, const QString &dir)
{
    const QJsonObject spec{{"properties", QJsonObject{{"customToolkitSettings", QJsonObject{{"commandLine", commandLine}}},
                                                      {"environmentVariables",
                                                       QJsonArray{QJsonObject{{"name", "V"}, {"value", "PARAM_V"}}}}}}};
    const auto out = ParamSubstitution::apply(QJsonDocument(spec).toJson(), QJsonObject{{"V", value}});
    if (!out)
        return QStringLiteral("refused: ") + out.error();
    QProcess sh;
    sh.setWorkingDirectory(dir);
    // The trial's environment variable, as the job gets it.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("V"), QJsonDocument::fromJson(out->json).object()["properties"].toObject()
                                         ["environmentVariables"].toArray().at(0).toObject()["value"].toString());
    sh.setProcessEnvironment(env);
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), commandLineOf(out->json)});
    sh.waitForFinished(-1);
    return QString::fromUtf8(sh.readAllStandardOutput());
}

} // namespace

class TestSweepInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void hugeGridsAreCountedNotBuilt_data()
    {
        QTest::addColumn<QString>("param");
        QTest::newRow("20 million values") << "V=uniform(0,1,20000000)";
        QTest::newRow("2 billion values") << "V=uniform(0,1,2000000000)";
        QTest::newRow("1e18 whole numbers") << "V=randint(0,1e18)";
        QTest::newRow("a tiny step") << "V=range(0,1e300,1e-300)";
        QTest::newRow("LOG, 2^53 values") << "V=loguniform(1,10,9007199254740992)";
    }
    void hugeGridsAreCountedNotBuilt()
    {
        // Before: the values were made first (94 s and 2 GB for 20 million, bad_alloc or
        // an endless loop for the others); now the count refuses them.
        QFETCH(QString, param);
        const auto p = SweepParams::parseInline(param);
        QVERIFY2(p, qPrintable(p.error()));
        const auto size = SweepSampler::gridSize({*p});
        QVERIFY(!size);
        QVERIFY2(size.error().startsWith("parameter V: ") && size.error().contains("10,000 trials"), qPrintable(size.error()));
        QVERIFY(!p->gridValues());
        QVERIFY(!SweepSampler::trials({*p}, SweepSampling::Grid, 0, 1));
    }

    void aProductPastTheLimitNamesWhereItPassed()
    {
        const QList<SweepParam> params{*SweepParams::parseInline(QStringLiteral("A=range(0,200,1)")),
                                       *SweepParams::parseInline(QStringLiteral("B=range(0,51,1)")),
                                       *SweepParams::parseInline(QStringLiteral("C=uniform(0,1,2000000000)"))};
        const auto size = SweepSampler::gridSize(params);
        QVERIFY(!size);
        QVERIFY2(size.error().contains("more than 10,000 trials (at parameter B: 10200"), qPrintable(size.error()));
        QCOMPARE(*SweepSampler::gridSize({params[0]}), qint64(200));
    }

    void hugeRangesStillDrawAtRandom()
    {
        const auto p = SweepParams::parseInline(QStringLiteral("V=randint(0,1e18)"));
        const auto trials = SweepSampler::trials({*p}, SweepSampling::Random, 50, 3);
        QVERIFY2(trials, qPrintable(trials.error()));
        for (const QJsonObject &t : *trials)
            QVERIFY(t["V"].toDouble() >= 0 && t["V"].toDouble() <= 1e18);
        // Past what a trial's integer holds: refused at parsing, not undefined.
        const auto beyond = SweepParams::parseInline(QStringLiteral("V=randint(0,1e300)"));
        QVERIFY(!beyond);
        QVERIFY2(beyond.error().contains("within -1e18 and 1e18"), qPrintable(beyond.error()));
        const auto many = SweepParams::parseSpec(R"({"params":[{"paramType":"NumParam","parameterName":"V",
            "dataType":"REAL","start":0,"end":1,"scale":"LINEAR","numValues":1e30}]})");
        QVERIFY(!many);
        QVERIFY2(many.error().contains("params[0].numValues"), qPrintable(many.error()));
    }

    void aValueIsOneShellWord_data()
    {
        QTest::addColumn<QString>("commandLine");
        QTest::addColumn<QString>("expected");  // V stands for the value
        QTest::newRow("bare") << "printf '[%s]' PARAM_V \"$V\"" << "[V][V]";
        QTest::newRow("in single quotes") << "printf '[%s]' 'x PARAM_V y'" << "[x V y]";
        QTest::newRow("in double quotes") << "printf '[%s]' \"--v=PARAM_V\"" << "[--v=V]";
        QTest::newRow("glued") << "printf '[%s]' --v=PARAM_V" << "[--v=V]";
    }
    void aValueIsOneShellWord()
    {
        QFETCH(QString, commandLine);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        for (const QString &value : {QStringLiteral("a;touch X1"), QStringLiteral("$(touch X2)"), QStringLiteral("`touch X3`"),
                                     QStringLiteral("q'uo\"te"), QStringLiteral("two  words"), QStringLiteral("back\\slash $HOME"),
                                     QStringLiteral("0.001"), QString()}) {
            QString want = expected;
            QCOMPARE(runWithValue(commandLine, value, dir.path()), want.replace(QLatin1Char('V'), value));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList{});
    }

    void aValueMeantAsWordsGoesThroughAVariable()
    {
        // The documented form: the environment variable, which the shell splits, running nothing.
        QTemporaryDir dir;
        QCOMPARE(runWithValue(QStringLiteral("printf '<%s>' $V"), QStringLiteral("--depth 20 ;touch X"), dir.path()),
                 QStringLiteral("<--depth><20><;touch><X>"));
        QVERIFY(!QFileInfo::exists(dir.filePath("X")));
    }

    void aValueWhereNoQuoteHoldsItIsRefused()
    {
        QTemporaryDir dir;
        for (const QString &commandLine : {QStringLiteral("echo \\PARAM_V"), QStringLiteral("echo $(echo PARAM_V)"),
                                           QStringLiteral("echo `echo PARAM_V`")}) {
            const QString out = runWithValue(commandLine, QStringLiteral("a;touch X"), dir.path());
            QVERIFY2(out.startsWith("refused: properties.customToolkitSettings.commandLine: PARAM_V: the placeholder"),
                     qPrintable(out));
            // A number needs no quote: it goes in anywhere, as before.
            QVERIFY(!runWithValue(commandLine, QStringLiteral("3"), dir.path()).startsWith("refused"));
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("X")));
    }

    void theServicesParameterFile()
    {
        // As Batch AI's param_sweep_spec_schema.json has it.
        const auto params = SweepParams::parseSpec(R"({"params": [
            {"paramType": "NumParam", "parameterName": "LR", "dataType": "REAL", "start": 0.0001, "end": 0.1,
             "scale": "LOG", "numValues": 4},
            {"paramType": "NumParam", "parameterName": "EPOCHS", "dataType": "INTEGER", "start": 10, "end": 30,
             "scale": "LINEAR", "step": 10},
            {"paramType": "DiscreteParam", "parameterName": "OPT", "values": ["sgd", "adam"]},
            {"paramType": "DictParam", "parameterName": "NET", "values": [{"depth": 20, "width": 16}, {"depth": 56, "width": 32}]}
        ]})");
        QVERIFY2(params, qPrintable(params.error()));
        QCOMPARE(*SweepSampler::gridSize(*params), qint64(4 * 3 * 2 * 2));
        QCOMPARE(params->at(0).toJson()["paramType"].toString(), QStringLiteral("NumParam"));
        QVERIFY(!params->at(0).toJson().contains("type"));
        // TrainDesk's older "type" is read as paramType.
        QVERIFY(SweepParams::parseSpec(R"([{"type": "DiscreteParam", "parameterName": "OPT", "values": ["sgd"]}])"));
    }

    void theServicesErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("lower case") << QByteArray(R"([{"paramType":"DiscreteParam","parameterName":"lr","values":[1]}])")
                                    << "[0].parameterName: 'lr': a name is upper-case letters, digits and underscores";
        QTest::newRow("start = end") << QByteArray(R"([{"paramType":"NumParam","parameterName":"A","dataType":"REAL",
            "start":1,"end":1,"scale":"LINEAR","step":1}])") << "[0]: end 1 must be greater than start 1";
        QTest::newRow("LOG step") << QByteArray(R"([{"paramType":"NumParam","parameterName":"A","dataType":"REAL",
            "start":1,"end":100,"scale":"LOG","step":1}])") << "[0].step: a LOG NumParam's grid is numValues values";
        QTest::newRow("dict keys") << QByteArray(R"([{"paramType":"DictParam","parameterName":"N","values":[{"a":1},{"b":2}]}])")
                                   << "[0].values[1]: every object has the same keys as the first (a)";
        QTest::newRow("no paramType") << QByteArray(R"([{"parameterName":"N","values":[1]}])") << "[0].paramType: expected";
        QTest::newRow("foreign paramType") << QByteArray(R"([{"paramType":"ChoiceParam","parameterName":"N","values":[1]}])")
                                           << "[0].paramType: expected NumParam, DiscreteParam or DictParam, found 'ChoiceParam'";
    }
    void theServicesErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const auto parsed = SweepParams::parseSpec(json);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(message), qPrintable(parsed.error()));
    }

    void rangeIsPythons()
    {
        const auto p = SweepParams::parseInline(QStringLiteral("I=range(0,200,1)"));
        QVERIFY2(p, qPrintable(p.error()));
        const auto values = p->gridValues();
        QCOMPARE(values->size(), 200);
        QCOMPARE(values->first().toInteger(), 0);
        QCOMPARE(values->last().toInteger(), 199);
        QCOMPARE(p->gridValues()->size(), qsizetype(*SweepSampler::gridSize({*p})));
        QCOMPARE(*SweepParams::parseInline(QStringLiteral("M=range(0.5,0.9,0.2)"))->gridValues(), (QJsonArray{0.5, 0.7}));
        QCOMPARE(SweepParams::parseInline(QStringLiteral("N=range(1,10,4)"))->gridValues()->size(), 3);  // 1 5 9
        QVERIFY(!SweepParams::parseInline(QStringLiteral("N=range(5,5,1)")));  // empty, as Python's
    }

    void medianWaitsForEnoughPeers()
    {
        const auto policy = EarlyStopPolicy::parse(QStringLiteral("median"));
        QCOMPARE(policy->minPeers, 3);
        // Trial 4 cannot learn; with two peers at its evaluation it is not judged yet.
        QList<TrialSeries> series{{1, true, {0.2, 0.4, 0.6}}, {2, true, {0.3, 0.5, 0.7}}, {4, true, {0.1, 0.1, 0.1}}};
        QVERIFY(EarlyStopping::decide(*policy, QStringLiteral("val_acc"), true, series).isEmpty());
        // A third peer that is only at evaluation 2: judged at 2, the latest three others reached.
        series.append({3, true, {0.5, 0.6}});
        const auto decisions = EarlyStopping::decide(*policy, QStringLiteral("val_acc"), true, series);
        QCOMPARE(decisions.size(), 1);
        QCOMPARE(decisions[0].index, 4);
        // Averages at 2: 0.3, 0.4, 0.55; median 0.4.
        QCOMPARE(decisions[0].reason, QStringLiteral("val_acc 0.1 below the median 0.4 at evaluation 2 (median rule: its "
                                                     "best so far against the averages of 3 peers)"));
        const auto two = EarlyStopPolicy::parse(QStringLiteral("median:min=2"));
        QVERIFY2(two, qPrintable(two.error()));
        QCOMPARE(two->text(), QStringLiteral("median:after=1,min=2"));
        QCOMPARE(EarlyStopPolicy::parse(two->text())->minPeers, 2);
        QVERIFY(!EarlyStopPolicy::parse(QStringLiteral("median:min=0")));
    }
};

QTEST_GUILESS_MAIN(TestSweepInput)
#include "tst_sweepinput.moc"

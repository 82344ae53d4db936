#include "jobs/JobSpec.h"

#include <QFile>
#include <QTest>

using namespace TrainDesk;

class TestJobSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tutorialJobLoads()
    {
        // A copy of the tutorial's file (../shared/examples/tutorial-job.json), unchanged.
        QFile file(QStringLiteral(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const ParsedJobSpec parsed = parseJobSpec(file.readAll());
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join('\n')));
        QCOMPARE(parsed.spec.nodeCount, 4);
        QVERIFY(parsed.spec.horovodSettings.has_value());
        QCOMPARE(parsed.spec.processCount(), 4);
        QCOMPARE(parsed.spec.horovodSettings->pythonScriptFilePath,
                 QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/cifar_cnn_distributed.py"));
        QVERIFY(parsed.spec.jobPreparationCommandLine().has_value());
    }

    void bareProperties()
    {
        const ParsedJobSpec parsed = parseJobSpec(R"({"nodeCount": 2, "stdOutErrPathPrefix": "/tmp",
            "customMpiSettings": {"commandLine": "hostname", "processCount": 5}})");
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join('\n')));
        QCOMPARE(parsed.spec.nodeCount, 2);
        QCOMPARE(parsed.spec.processCount(), 5);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QByteArray("{\n  \"nodeCount\": 1,\n  oops\n}") << "$ (line 3, column";
        QTest::newRow("not an object") << QByteArray("[1]") << "expected an object";
        QTest::newRow("nodeCount string")
            << QByteArray(R"({"properties": {"nodeCount": "4", "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}}})")
            << "properties.nodeCount: expected an integer, found a string";
        QTest::newRow("nodeCount zero")
            << QByteArray(R"({"nodeCount": 0, "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}})")
            << "properties.nodeCount: expected an integer of at least 1, found 0";
        QTest::newRow("missing prefix")
            << QByteArray(R"({"customMpiSettings": {"commandLine": "a"}})")
            << "properties.stdOutErrPathPrefix: required field is missing";
        QTest::newRow("missing commandLine")
            << QByteArray(R"({"stdOutErrPathPrefix": "/x", "customMpiSettings": {}})")
            << "properties.customMpiSettings.commandLine: required field is missing";
        QTest::newRow("two toolkits")
            << QByteArray(R"({"stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}, "horovodSettings": {"pythonScriptFilePath": "b"}})")
            << "expected one toolkit setting, found customMpiSettings, horovodSettings";
        QTest::newRow("no toolkit") << QByteArray(R"({"stdOutErrPathPrefix": "/x"})") << "found none";
        QTest::newRow("bad priority")
            << QByteArray(R"({"stdOutErrPathPrefix": "/x", "schedulingPriority": "urgent", "customMpiSettings": {"commandLine": "a"}})")
            << "properties.schedulingPriority: expected one of low, normal, high, found 'urgent'";
        QTest::newRow("processCount fraction")
            << QByteArray(R"({"stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a", "processCount": 1.5}})")
            << "properties.customMpiSettings.processCount: expected an integer, found 1.5";
        QTest::newRow("output without id")
            << QByteArray(R"({"stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}, "outputDirectories": [{"pathPrefix": "/y"}]})")
            << "properties.outputDirectories[0].id: required field is missing";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const ParsedJobSpec parsed = parseJobSpec(json);
        QVERIFY(parsed.hasErrors());
        const QString all = parsed.errorTexts().join('\n');
        QVERIFY2(all.contains(expected), qPrintable(all));
    }
};

QTEST_GUILESS_MAIN(TestJobSpec)
#include "tst_jobspec.moc"

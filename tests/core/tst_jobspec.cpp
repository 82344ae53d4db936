// The job.json model: every field read and written, positions, durations, share names.
// (The corpus of whole specs and their messages is tst_jobspec_corpus.)
#include "jobspec/JobSpec.h"
#include "launch/JobSpecContext.h"
#include "jobspec/JsonLocator.h"
#include "jobspec/ShareMapping.h"
#include "jobspec/WallClockTime.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <ctime>

using namespace TrainDesk;

namespace {

qint64 cpuMsToValidate(int fields, int *unknown)
{
    QByteArray json = "{\"nodeCount\": 1, \"stdOutErrPathPrefix\": \"/tmp\", ";
    for (int i = 0; i < fields; ++i)
        json += "\"unknownField" + QByteArray::number(i) + "\": " + QByteArray::number(i) + ", ";
    json += "\"last\": 0}";
    // CPU time, not wall time: a busy machine makes the second larger, never the first.
    const std::clock_t start = std::clock();
    const ParsedJobSpec parsed = parseJobSpec(json);
    const qint64 ms = qint64(std::clock() - start) * 1000 / CLOCKS_PER_SEC;
    *unknown = 0;
    for (const SpecIssue &i : parsed.issues) {
        if (i.message.startsWith(QLatin1String("unknown field"))) {
            ++*unknown;
            if (i.line != 1 || i.column <= 1)
                return -1;
        }
    }
    return ms;
}

} // namespace

class TestJobSpec : public QObject
{
    Q_OBJECT

    static QByteArray readFile(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        return file.readAll();
    }

private Q_SLOTS:
    void tutorialJobLoads()
    {
        // A copy of the tutorial's file (../shared/examples/tutorial-job.json), unchanged.
        const ParsedJobSpec parsed = parseJobSpec(readFile(TRAINDESK_TEST_DATA "/tutorial-job.json"));
        QVERIFY2(parsed.issues.isEmpty(), qPrintable(parsed.errorTexts().join('\n')));
        const JobSpec &s = parsed.spec;
        QVERIFY(s.fileShape);
        QCOMPARE(s.schema.value_or(QString()),
                 QStringLiteral("https://raw.githubusercontent.com/Azure/BatchAI/master/schemas/2018-05-01/job.json"));
        QCOMPARE(s.nodeCount, 4);
        QCOMPARE(toString(s.toolkit()), QStringLiteral("horovodSettings"));
        QCOMPARE(s.processCount(), 4);
        QCOMPARE(s.horovodSettings->pythonScriptFilePath,
                 QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar/cifar_cnn_distributed.py"));
        QCOMPARE(s.horovodSettings->commandLineArgs.value_or(QString()), QStringLiteral("--dir=$AZ_BATCHAI_JOB_MOUNT_ROOT/myshare/cifar"));
        QVERIFY(!s.horovodSettings->pythonInterpreterPath.has_value());
        QVERIFY(s.jobPreparationCommandLine()->startsWith("apt update;"));
        // Written for the service's CLI: the share has no account name or key.
        QCOMPARE(s.mountVolumes->azureFileShares->size(), 1);
        const AzureFileShareReference &share = s.mountVolumes->azureFileShares->first();
        QVERIFY(!share.accountName && !share.credentials);
        QCOMPARE(lastSegment(share.azureFileUrl), QStringLiteral("myshare"));
        QCOMPARE(s.containerSettings->imageSourceRegistry.image, QStringLiteral("tensorflow/tensorflow:1.8.0-gpu"));
        QCOMPARE(s.priorityRank(), 1);
    }

    void bareProperties()
    {
        const ParsedJobSpec parsed = parseJobSpec(R"({"nodeCount": 2, "stdOutErrPathPrefix": "/tmp",
            "customMpiSettings": {"commandLine": "hostname", "processCount": 5}})");
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join('\n')));
        QVERIFY(!parsed.spec.fileShape);
        QCOMPARE(parsed.spec.nodeCount, 2);
        QCOMPARE(parsed.spec.processCount(), 5);
        // Written back in the same shape: no wrapper appears.
        QVERIFY(!QJsonDocument::fromJson(writeJobSpec(parsed.spec)).object().contains("properties"));
    }

    void everyFieldRoundTrips()
    {
        // One file with every JobBaseProperties field (one toolkit at a time is valid; the
        // model still keeps all of them) and every nested field, plus unknown ones.
        const QJsonObject keyVault{{"sourceVault", QJsonObject{{"id", "/vaults/kv"}}}, {"secretUrl", "https://kv/s"}};
        const QJsonObject credentials{{"accountKey", "k"}, {"accountKeySecretReference", keyVault}};
        const QJsonObject properties{
            {"schedulingPriority", "low"},
            {"cluster", QJsonObject{{"id", "/clusters/c"}, {"extraInCluster", 1}}},
            {"mountVolumes", QJsonObject{
                {"azureFileShares", QJsonArray{QJsonObject{{"accountName", "a"}, {"azureFileUrl", "https://a/s"},
                    {"credentials", credentials}, {"relativeMountPath", "s"}, {"fileMode", "0644"}, {"directoryMode", "0755"}}}},
                {"azureBlobFileSystems", QJsonArray{QJsonObject{{"accountName", "a"}, {"containerName", "c"},
                    {"credentials", credentials}, {"relativeMountPath", "b"}, {"mountOptions", "-o ro"}}}},
                {"fileServers", QJsonArray{QJsonObject{{"fileServer", QJsonObject{{"id", "/fileServers/f"}}},
                    {"sourceDirectory", "d"}, {"relativeMountPath", "f"}, {"mountOptions", "rw"}}}},
                {"unmanagedFileSystems", QJsonArray{QJsonObject{{"mountCommand", "mount x"}, {"relativeMountPath", "u"}}}}}},
            {"nodeCount", 3},
            {"containerSettings", QJsonObject{
                {"imageSourceRegistry", QJsonObject{{"serverUrl", "r.io"}, {"image", "i"},
                    {"credentials", QJsonObject{{"username", "u"}, {"password", "p"}, {"passwordSecretReference", keyVault}}}}},
                {"shmSize", "1g"}}},
            {"cntkSettings", QJsonObject{{"languageType", "Python"}, {"configFilePath", "c"}, {"pythonScriptFilePath", "p"},
                                         {"pythonInterpreterPath", "i"}, {"commandLineArgs", "a"}, {"processCount", 2}}},
            {"pyTorchSettings", QJsonObject{{"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"},
                                            {"commandLineArgs", "a"}, {"processCount", 2}, {"communicationBackend", "gloo"}}},
            {"tensorFlowSettings", QJsonObject{{"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"},
                                               {"masterCommandLineArgs", "m"}, {"workerCommandLineArgs", "w"},
                                               {"parameterServerCommandLineArgs", "s"}, {"workerCount", 2},
                                               {"parameterServerCount", 1}}},
            {"caffeSettings", QJsonObject{{"configFilePath", "c"}, {"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"},
                                          {"commandLineArgs", "a"}, {"processCount", 2}}},
            {"caffe2Settings", QJsonObject{{"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"}, {"commandLineArgs", "a"}}},
            {"chainerSettings", QJsonObject{{"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"},
                                            {"commandLineArgs", "a"}, {"processCount", 2}}},
            {"customToolkitSettings", QJsonObject{{"commandLine", "c"}}},
            {"customMpiSettings", QJsonObject{{"commandLine", "c"}, {"processCount", 2}}},
            {"horovodSettings", QJsonObject{{"pythonScriptFilePath", "p"}, {"pythonInterpreterPath", "i"},
                                            {"commandLineArgs", "a"}, {"processCount", 2}}},
            {"jobPreparation", QJsonObject{{"commandLine", "prep"}}},
            {"stdOutErrPathPrefix", "/out"},
            {"inputDirectories", QJsonArray{QJsonObject{{"id", "IN"}, {"path", "/in"}}}},
            {"outputDirectories", QJsonArray{QJsonObject{{"id", "OUT"}, {"pathPrefix", "/out"}, {"pathSuffix", "s"}}}},
            {"environmentVariables", QJsonArray{QJsonObject{{"name", "E"}, {"value", "v"}}}},
            {"secrets", QJsonArray{QJsonObject{{"name", "S"}, {"value", "v"}, {"valueSecretReference", keyVault}}}},
            {"constraints", QJsonObject{{"maxWallClockTime", "P1D"}}},
            {"futureField", QJsonArray{1, 2}}};
        const QJsonObject file{{"$schema", "x"}, {"properties", properties}, {"name", "j"}};
        const ParsedJobSpec parsed = parseJobSpec(QJsonDocument(file).toJson());
        // Only the unknown fields are mentioned as such (the rest of the issues are rules).
        QStringList unknown;
        for (const SpecIssue &i : parsed.issues) {
            if (i.message.startsWith("unknown field"))
                unknown << i.path;
        }
        QCOMPARE(unknown, (QStringList{"name", "properties.cluster.extraInCluster", "properties.futureField"}));
        QCOMPARE(QJsonDocument::fromJson(writeJobSpec(parsed.spec)).object(), file);
        QCOMPARE(jobSpecProperties(parsed.spec), properties);
        // The typed model has them all.
        const JobSpec &s = parsed.spec;
        QCOMPARE(s.mountVolumes->fileServers->first().sourceDirectory.value_or(QString()), QStringLiteral("d"));
        QCOMPARE(s.tensorFlowSettings->parameterServerCount.value_or(-1), 1);
        QCOMPARE(s.containerSettings->imageSourceRegistry.credentials->passwordSecretReference->secretUrl,
                 QStringLiteral("https://kv/s"));
        QCOMPARE(s.secrets->first().valueSecretReference->sourceVault.id, QStringLiteral("/vaults/kv"));
        QCOMPARE(s.constraints->maxWallClockTime.value_or(QString()), QStringLiteral("P1D"));
        QCOMPARE(s.cluster->extra.value("extraInCluster").toInt(), 1);
        QCOMPARE(s.priorityRank(), 0);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QByteArray("{\n  \"nodeCount\": 1,\n  oops\n}")
                                << "error: $ (line 3, column 3): invalid JSON: expected a member's name in double quotes, found 'o'";
        QTest::newRow("not an object") << QByteArray("[1]") << "error: $ (line 1, column 1): expected an object, found an array";
        QTest::newRow("nodeCount string")
            << QByteArray(R"({"properties": {"nodeCount": "4", "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}}})")
            << "error: properties.nodeCount (line 1, column 17): expected an integer, found a string";
        QTest::newRow("processCount fraction")
            << QByteArray(R"({"nodeCount": 1, "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a", "processCount": 1.5}})")
            << "error: properties.customMpiSettings.processCount (line 1, column 89): expected an integer, found 1.5";
        QTest::newRow("BOM and CRLF")
            << QByteArray("\xEF\xBB\xBF{\r\n \"nodeCount\": 0, \"stdOutErrPathPrefix\": \"/x\", \"customMpiSettings\": {\"commandLine\": \"a\"}}")
            << "error: properties.nodeCount (line 2, column 2): expected an integer of at least 1, found 0";
        QTest::newRow("escaped key")
            << QByteArray(R"({"node\u0043ount": "x", "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}})")
            << "error: properties.nodeCount (line 1, column 2): expected an integer, found a string";
        QTest::newRow("multibyte column")
            << QByteArray("{\"stdOutErrPathPrefix\": \"/é\", \"nodeCount\": -1, \"customMpiSettings\": {\"commandLine\": \"a\"}}")
            << "error: properties.nodeCount (line 1, column 31): expected an integer of at least 1, found -1";
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const ParsedJobSpec parsed = parseJobSpec(json);
        QVERIFY(parsed.hasErrors());
        const QString all = parsed.errorTexts().join('\n');
        QVERIFY2(all.startsWith(expected), qPrintable(all));
    }

    void contextChecks()
    {
        const QByteArray json = readFile(TRAINDESK_TEST_DATA "/tutorial-job.json");
        SpecContext context;
        context.workspace = "ws";
        context.cluster = "gpu";
        context.clusterNodeCount = 4;
        context.shareNames = QStringList{"myshare"};
        QVERIFY(!parseJobSpec(json, context).hasErrors());
        // Share names match case-insensitively when nothing matches exactly.
        context.shareNames = QStringList{"MyShare"};
        QVERIFY(!parseJobSpec(json, context).hasErrors());
        context.clusterNodeCount = 3;
        context.shareNames = QStringList{};
        const QStringList errors = parseJobSpec(json, context).errorTexts();
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors.at(0).startsWith("error: properties.nodeCount (line 4, column 9): expected at most 3 (the nodes of cluster 'gpu'), found 4"),
                 qPrintable(errors.at(0)));
        QVERIFY2(errors.at(1).contains("properties.mountVolumes.azureFileShares[0] (line 12, column 17): expected a share of workspace "
                                       "'ws' named 'myshare', found none (it has none)"),
                 qPrintable(errors.at(1)));

        // A share of another cluster: its nodes would not see it.
        Share local;
        local.name = "local";
        local.path = "/srv/local";
        Share nfs;
        nfs.name = "myshare";
        nfs.kind = ShareKind::ClusterPath;
        nfs.path = "/nfs/a";
        nfs.clusterId = 7;
        const auto clusterName = [](qint64 id) { return id == 7 ? QStringLiteral("gpu2") : QStringLiteral("gpu"); };
        Cluster gpu;
        gpu.id = 3;
        gpu.name = "gpu";
        gpu.kind = ClusterKind::Ssh;
        Cluster gpu2 = gpu;
        gpu2.id = 7;
        gpu2.name = "gpu2";
        Cluster here;
        here.id = 1;
        here.kind = ClusterKind::Local;
        Cluster slurmHere = gpu;
        slurmHere.kind = ClusterKind::Slurm;
        slurmHere.slurm.login = "local";
        // A local share is a folder of this machine: only a cluster on this machine sees it.
        QVERIFY(clusterSeesShare(local, here) && clusterSeesShare(local, slurmHere) && !clusterSeesShare(local, gpu));
        QVERIFY(clusterSeesShare(nfs, gpu2) && !clusterSeesShare(nfs, gpu) && !clusterSeesShare(nfs, here));
        context.clusterNodeCount = 4;
        setShares(context, {local, nfs}, gpu, clusterName);
        QCOMPARE(*context.shareNames, QStringList{});
        const QStringList elsewhere = parseJobSpec(json, context).errorTexts();
        QCOMPARE(elsewhere.size(), 1);
        QVERIFY2(elsewhere.at(0).contains("properties.mountVolumes.azureFileShares[0] (line 12, column 17): expected a share "
                                          "that the nodes of cluster 'gpu' see, found share 'myshare' of cluster 'gpu2'"),
                 qPrintable(elsewhere.at(0)));
        setShares(context, {local, nfs}, gpu2, clusterName);
        QVERIFY(!parseJobSpec(json, context).hasErrors());
    }

    // Issue #28: the Fashion-MNIST template (stdOutErrPathPrefix and its output under
    // $AZ_BATCHAI_JOB_MOUNT_ROOT/local) validated on an SSH cluster, then failed at once with
    // "cannot create directory .../local: permission denied".
    void aLocalShareOnSshNodesIsRefused()
    {
        const QByteArray json = readFile(TRAINDESK_TEST_DATA "/../../resources/jobs/fashion-mnist-demo.json");
        Share local;
        local.name = "local";
        local.path = "/srv/local";
        Cluster ssh;
        ssh.id = 3;
        ssh.name = "gpus";
        ssh.kind = ClusterKind::Ssh;
        SpecContext context;
        context.workspace = "default";
        context.cluster = "gpus";
        context.clusterNodeCount = 1;
        setShares(context, {local}, ssh, [](qint64) { return QString(); });
        const QStringList errors = parseJobSpec(json, context).errorTexts();
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors.at(0).contains("properties.stdOutErrPathPrefix") && errors.at(0).contains(
                     "expected a share that the nodes of cluster 'gpus' see, found share 'local', a folder of this machine"),
                 qPrintable(errors.join('\n')));
        QVERIFY2(errors.at(1).contains("properties.outputDirectories[0].pathPrefix"), qPrintable(errors.at(1)));
        Cluster here;
        here.kind = ClusterKind::Local;
        setShares(context, {local}, here, [](qint64) { return QString(); });
        QVERIFY2(!parseJobSpec(json, context).hasErrors(), qPrintable(parseJobSpec(json, context).errorTexts().join('\n')));
    }

    // Issue #28: a 200 KB environment value validated, then the job vanished with "Argument
    // list too long". Refused at its path, as is an environment past what a node passes.
    void environmentWithinTheNodesLimits()
    {
        const auto specWith = [](const QJsonArray &variables) {
            return QJsonDocument(QJsonObject{{"nodeCount", 1}, {"stdOutErrPathPrefix", "/tmp"},
                                             {"customToolkitSettings", QJsonObject{{"commandLine", "true"}}},
                                             {"environmentVariables", variables}})
                .toJson();
        };
        const QString big(200 * 1024, QLatin1Char('x'));
        QStringList errors = parseJobSpec(specWith({QJsonObject{{"name", "BIG"}, {"value", big}}})).errorTexts();
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.at(0).contains("properties.environmentVariables[0].value") && errors.at(0).contains("MAX_ARG_STRLEN")
                     && errors.at(0).contains("201 KiB"),
                 qPrintable(errors.at(0)));
        // Just under the limit for one variable: accepted.
        const QString fits(128 * 1024 - 1 - 4, QLatin1Char('x'));
        QVERIFY(!parseJobSpec(specWith({QJsonObject{{"name", "FIT"}, {"value", fits}}})).hasErrors());
        QJsonArray many;
        for (int i = 0; i < 10; ++i)
            many.append(QJsonObject{{"name", QStringLiteral("V%1").arg(i)}, {"value", fits.left(120 * 1024)}});
        errors = parseJobSpec(specWith(many)).errorTexts();
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.at(0).contains("properties.environmentVariables") && errors.at(0).contains("ARG_MAX"),
                 qPrintable(errors.at(0)));
    }

    void processCountAndPriority()
    {
        auto spec = [](const QString &toolkit, const QJsonObject &settings, int nodes = 3) {
            QJsonObject p{{"nodeCount", nodes}, {"stdOutErrPathPrefix", "/x"}, {toolkit, settings}};
            return parseJobSpec(QJsonDocument(p).toJson()).spec;
        };
        QCOMPARE(spec("chainerSettings", {{"pythonScriptFilePath", "a"}}).processCount(), 3);
        QCOMPARE(spec("cntkSettings", {{"configFilePath", "a"}, {"processCount", 6}}).processCount(), 6);
        QCOMPARE(spec("caffe2Settings", {{"pythonScriptFilePath", "a"}}).processCount(), 3);
        QCOMPARE(spec("customToolkitSettings", {{"commandLine", "a"}}).processCount(), 1);
        // TensorFlow: workers (default nodeCount) plus parameter servers (default 1).
        QCOMPARE(spec("tensorFlowSettings", {{"pythonScriptFilePath", "a"}}).processCount(), 4);
        QCOMPARE(spec("tensorFlowSettings", {{"pythonScriptFilePath", "a"}}, 1).processCount(), 1);
        QCOMPARE(spec("tensorFlowSettings", {{"pythonScriptFilePath", "a"}, {"workerCount", 5}, {"parameterServerCount", 2}}).processCount(), 7);
        for (const auto &[priority, rank] : {std::pair{"low", 0}, std::pair{"normal", 1}, std::pair{"high", 2}}) {
            QJsonObject p{{"nodeCount", 1}, {"stdOutErrPathPrefix", "/x"}, {"customMpiSettings", QJsonObject{{"commandLine", "a"}}},
                          {"schedulingPriority", priority}};
            QCOMPARE(parseJobSpec(QJsonDocument(p).toJson()).spec.priorityRank(), rank);
        }
    }

    void wallClockTime_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("milliseconds");
        QTest::newRow("default form") << "7.00:00:00" << 7LL * 86400 * 1000;
        QTest::newRow("hh:mm:ss") << "1:30:00" << 5400LL * 1000;
        QTest::newRow("hh:mm") << "02:00" << 7200LL * 1000;
        QTest::newRow("days") << "3" << 3LL * 86400 * 1000;
        QTest::newRow("fraction") << "0.00:00:01.5" << 1500LL;
        QTest::newRow("iso days") << "P7D" << 7LL * 86400 * 1000;
        QTest::newRow("iso time") << "PT1H30M" << 5400LL * 1000;
        QTest::newRow("iso both") << "P1DT12H" << 36LL * 3600 * 1000;
        QTest::newRow("iso seconds") << "PT90S" << 90LL * 1000;
        QTest::newRow("iso fraction") << "PT0.25S" << 250LL;
        QTest::newRow("iso week") << "P1W" << 7LL * 86400 * 1000;
        QTest::newRow("iso lower case") << "pt2h" << 7200LL * 1000;
        QTest::newRow("spaces") << " PT2S " << 2000LL;
        QTest::newRow("not a duration") << "2 hours" << -1LL;
        QTest::newRow("hours out of range") << "1.24:00:00" << -1LL;
        QTest::newRow("minutes out of range") << "10:60" << -1LL;
        QTest::newRow("iso nothing") << "P" << -1LL;
        QTest::newRow("iso empty time") << "P1DT" << -1LL;
        QTest::newRow("zero") << "PT0S" << -1LL;
        QTest::newRow("negative") << "-1.00:00:00" << -1LL;
        QTest::newRow("too long") << "P3651D" << -1LL;
        QTest::newRow("huge") << "P9999999Y" << -1LL;
        QTest::newRow("empty") << "" << -1LL;
    }

    void wallClockTime()
    {
        QFETCH(QString, text);
        QFETCH(qint64, milliseconds);
        QString error;
        const auto parsed = parseWallClockTime(text, &error);
        if (milliseconds < 0) {
            QVERIFY(!parsed);
            QVERIFY2(error.startsWith("expected ") && error.contains("found '" + text + "'"), qPrintable(error));
        } else {
            QVERIFY2(parsed, qPrintable(error));
            QCOMPARE(parsed->milliseconds, milliseconds);
        }
    }

    void wallClockTimeText()
    {
        QCOMPARE(WallClockTime::defaultLimit().toString(), QStringLiteral("7.00:00:00"));
        QCOMPARE(parseWallClockTime("PT1H30M5S")->toString(), QStringLiteral("0.01:30:05"));
        QCOMPARE(parseWallClockTime("PT0.25S")->seconds(), 1);
    }

    void locator()
    {
        const QByteArray text = "{\n  \"a\": [\n    {\"b\": 1},\n    {\"c\": \"x\\\"y\", \"d\": {}}\n  ],\n  \"a\": 2\n}";
        const JsonLocator l(text);
        auto at = [&](const QString &path) {
            const auto p = l.locate(path);
            return QStringLiteral("%1:%2").arg(p.line).arg(p.column);
        };
        QCOMPARE(at(""), QStringLiteral("1:1"));
        QCOMPARE(at("a[0]"), QStringLiteral("3:5"));
        QCOMPARE(at("a[0].b"), QStringLiteral("3:6"));
        QCOMPARE(at("a[1].d"), QStringLiteral("4:19"));
        // The nearest ancestor stands in for what the text does not have.
        QCOMPARE(at("a[1].d.missing"), QStringLiteral("4:19"));
        QCOMPARE(at("a[7]"), QStringLiteral("6:3"));
        QCOMPARE(l.duplicateKeys(), QStringList{"a"});
    }

    // locateAll agrees with locate, whatever the order of the paths.
    void locateAllAgrees()
    {
        const QByteArray text = "{\"x\": 1, \"\u00e9\": {\"y\": [1, {\"z\": 2}]}, \"w\": 3}\n{";
        const JsonLocator l(text);
        const QStringList paths{"w", "\u00e9.y[1].z", "", "x", "\u00e9.missing", "nowhere", "w"};
        const QList<JsonLocator::Position> all = l.locateAll(paths);
        QCOMPARE(all.size(), paths.size());
        for (qsizetype i = 0; i < paths.size(); ++i) {
            QCOMPARE(all.at(i).line, l.locate(paths.at(i)).line);
            QCOMPARE(all.at(i).column, l.locate(paths.at(i)).column);
        }
    }

    // Issue #28: 160k unknown fields on one line took 39 s to validate (each issue's column
    // counted from the line's start). The check is the growth, not a time: 8 times the fields
    // costs about 8 times the CPU when linear and 64 times when quadratic, on any machine and
    // under the sanitizers (an absolute bound failed under ASan on a slow CI machine).
    void manyUnknownFieldsAreLinear()
    {
        constexpr int small = 20000;
        constexpr int large = 8 * small;
        int unknownSmall = 0;
        int unknownLarge = 0;
        // The small run is repeated and its fastest kept: a single short timing is the noisy one.
        qint64 smallMs = cpuMsToValidate(small, &unknownSmall);
        for (int i = 0; i < 2; ++i)
            smallMs = std::min(smallMs, cpuMsToValidate(small, &unknownSmall));
        const qint64 largeMs = cpuMsToValidate(large, &unknownLarge);
        qInfo("%lld ms of CPU for %d unknown fields, %lld ms for %d", smallMs, small, largeMs, large);
        QVERIFY2(smallMs >= 0 && largeMs >= 0, "an unknown field's issue is not located on line 1 after its start");
        QCOMPARE(unknownSmall, small + 1);
        QCOMPARE(unknownLarge, large + 1);
        // 24 = three times linear growth, a third of quadratic; at least 10 ms keeps the
        // clock's granularity from deciding.
        QVERIFY2(largeMs <= 24 * std::max<qint64>(smallMs, 10),
                 qPrintable(QStringLiteral("%1 ms for %2 fields but %3 ms for %4: not linear")
                                .arg(smallMs).arg(small).arg(largeMs).arg(large)));
    }

    void shareNames()
    {
        QCOMPARE(lastSegment("https://<AZURE_BATCHAI_STORAGE_ACCOUNT>.file.core.windows.net/myshare"), QStringLiteral("myshare"));
        QCOMPARE(lastSegment("https://acct.file.core.windows.net/myshare/?sv=2017"), QStringLiteral("myshare"));
        QCOMPARE(lastSegment("/subscriptions/s/resourceGroups/g/providers/Microsoft.BatchAI/workspaces/w/fileServers/nfs"),
                 QStringLiteral("nfs"));
        const QJsonObject volumes{
            {"azureFileShares", QJsonArray{QJsonObject{{"azureFileUrl", "https://a/<SHARE>"}, {"relativeMountPath", "data"}}}},
            {"azureBlobFileSystems", QJsonArray{QJsonObject{{"containerName", "blobs"}, {"relativeMountPath", "b"}}}}};
        const JobSpec spec = parseJobSpec(QJsonDocument(QJsonObject{{"mountVolumes", volumes}}).toJson()).spec;
        const QList<MountReference> refs = mountReferences(spec);
        QCOMPARE(refs.size(), 2);
        // A placeholder in the URL names no share: relativeMountPath does.
        QCOMPARE(matchShare(refs.at(0), {"data", "other"}), QStringLiteral("data"));
        QCOMPARE(matchShare(refs.at(1), {"b", "blobs"}), QStringLiteral("blobs"));
        QCOMPARE(matchShare(refs.at(1), {"other"}), QString());
    }
};

QTEST_GUILESS_MAIN(TestJobSpec)
#include "tst_jobspec.moc"

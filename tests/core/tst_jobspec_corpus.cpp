// The job.json corpus (tests/data/specs): every spec with the exact issues it must produce
// (severity, JSON path, line and column, message), its round trip, and its launch plan.
//
// Each <name>.json has a <name>.expected beside it:
//   # comment
//   context: workspace=ws cluster=gpu nodes=4 shares=myshare,logs   (checks against a cluster)
//   error: <SpecIssue::text()>       warning: <SpecIssue::text()>      (all of them, in order)
//   plan-error: <the whole reason buildLaunchPlan refuses>
//   plan-command: <text the plan's command line contains>
//   plan-script: <text the launch script (as shown) contains>
//   plan-lacks: <text neither the command line nor the launch script contains>
//   plan-job-dir: <the job directory>
#include "jobspec/JobSpec.h"
#include "launch/LaunchPlan.h"
#include "jobspec/Secrets.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace TrainDesk;

namespace {

struct Expectation
{
    bool hasContext = false;
    SpecContext context;
    int nodes = 4;
    QStringList shares;
    QStringList issues;
    QString planError;
    QStringList planCommand;
    QStringList planScript;
    QStringList planLacks;
    QString planJobDir;
};

Expectation readExpectation(const QString &path)
{
    Expectation e;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing %s", qPrintable(path));
    for (const QString &raw : QString::fromUtf8(file.readAll()).split('\n')) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype colon = line.indexOf(':');
        const QString key = line.left(colon);
        const QString value = line.mid(colon + 1).trimmed();
        if (key == "context") {
            e.hasContext = true;
            e.context.workspace = "ws";
            e.context.cluster = "gpu";
            for (const QString &pair : value.split(' ', Qt::SkipEmptyParts)) {
                const QString name = pair.section('=', 0, 0);
                const QString v = pair.section('=', 1);
                if (name == "workspace")
                    e.context.workspace = v;
                else if (name == "cluster")
                    e.context.cluster = v;
                else if (name == "nodes")
                    e.nodes = v.toInt();
                else if (name == "shares")
                    e.shares = v.split(',', Qt::SkipEmptyParts);
            }
            e.context.clusterNodeCount = e.nodes;
            e.context.shareNames = e.shares;
        } else if (key == "error" || key == "warning") {
            e.issues << line;
        } else if (key == "plan-error") {
            e.planError = value;
        } else if (key == "plan-command") {
            e.planCommand << value;
        } else if (key == "plan-script") {
            e.planScript << value;
        } else if (key == "plan-lacks") {
            e.planLacks << value;
        } else if (key == "plan-job-dir") {
            e.planJobDir = value;
        } else {
            qFatal("%s: unknown line %s", qPrintable(path), qPrintable(line));
        }
    }
    return e;
}

LaunchContext launchContext(const Expectation &e)
{
    LaunchContext c;
    c.workspace = "ws";
    c.experiment = "exp";
    c.job = "job1";
    c.uuid = "1234";
    c.mountRoot = "/mnt/batch";
    c.trainerDirectory = "/opt/traindesk";
    for (int i = 0; i < e.nodes; ++i) {
        Node n;
        n.name = QStringLiteral("node%1").arg(i);
        n.host = QStringLiteral("10.0.0.%1").arg(i + 1);
        n.slotCount = 2;
        c.nodes.append(n);
    }
    for (const QString &name : e.shares) {
        Share s;
        s.name = name;
        s.path = "/srv/shares/" + name;
        c.shares.append(s);
    }
    return c;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// Secret values in the corpus: none may appear in a message, a description or a JSON plan.
const QStringList corpusSecrets{"hunter2-registry", "s3cr3t-t0ken", "c3RvcmFnZS1rZXk=", "do-not-print-me", "482913"};

} // namespace

class TestJobSpecCorpus : public QObject
{
    Q_OBJECT

    QStringList specFiles(const QString &kind)
    {
        const QDir dir(QStringLiteral(TRAINDESK_TEST_DATA "/specs/") + kind);
        QStringList files;
        for (const QString &name : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
            files << dir.filePath(name);
        return files;
    }

    void addRows(const QString &kind)
    {
        for (const QString &file : specFiles(kind))
            QTest::newRow(qPrintable(kind + "/" + QFileInfo(file).completeBaseName())) << file << (kind == "valid");
    }

private Q_SLOTS:
    void corpusIsLarge()
    {
        const qsizetype valid = specFiles("valid").size();
        const qsizetype invalid = specFiles("invalid").size();
        QVERIFY2(valid >= 20 && invalid >= 40, qPrintable(QStringLiteral("%1 valid, %2 invalid").arg(valid).arg(invalid)));
        for (const QString &file : specFiles("valid") + specFiles("invalid"))
            QVERIFY2(QFile::exists(file.chopped(5) + ".expected"), qPrintable(file));
    }

    void tutorialCopyIsUnchanged()
    {
        // The corpus copy is the tutorial's file byte for byte (../shared/examples/tutorial-job.json).
        QCOMPARE(readFile(TRAINDESK_TEST_DATA "/specs/valid/tutorial.json"), readFile(TRAINDESK_TEST_DATA "/tutorial-job.json"));
    }

    void issues_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("valid");
        addRows("valid");
        addRows("invalid");
    }

    void issues()
    {
        QFETCH(QString, file);
        QFETCH(bool, valid);
        const Expectation e = readExpectation(file.chopped(5) + ".expected");
        const ParsedJobSpec parsed = parseJobSpec(readFile(file), e.hasContext ? e.context : SpecContext{});
        QStringList actual;
        for (const SpecIssue &i : parsed.issues)
            actual << i.text();
        if (actual != e.issues)
            QFAIL(qPrintable("issues differ; actual:\n" + actual.join('\n') + "\nexpected:\n" + e.issues.join('\n')));
        QCOMPARE(parsed.hasErrors(), !valid);
        if (!valid)
            QVERIFY2(!parsed.errors().isEmpty(), "an invalid spec must have an error");
        for (const SpecIssue &i : parsed.issues) {
            QVERIFY2(!i.path.isEmpty() && !i.message.isEmpty(), qPrintable(i.text()));
            QVERIFY2(i.line > 0 && i.column > 0, qPrintable("no position: " + i.text()));
            for (const QString &secret : corpusSecrets)
                QVERIFY2(!i.text().contains(secret), qPrintable(i.text()));
        }
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("valid");
        addRows("valid");
    }

    void roundTrip()
    {
        QFETCH(QString, file);
        const QByteArray original = readFile(file);
        const ParsedJobSpec parsed = parseJobSpec(original);
        QVERIFY(!parsed.hasErrors());
        const QByteArray written = writeJobSpec(parsed.spec);
        // Every field, known or not, comes back with its value; the shape too.
        QCOMPARE(QJsonDocument::fromJson(written).object(), QJsonDocument::fromJson(original).object());
        const ParsedJobSpec again = parseJobSpec(written);
        // The same issues (a duplicate key is gone: the written file has each key once).
        auto summary = [](const ParsedJobSpec &p) {
            QStringList lines;
            for (const SpecIssue &i : p.issues) {
                if (!i.message.startsWith("given more than once"))
                    lines << i.path + ": " + i.message;
            }
            lines.sort();  // keys are written in another order, so issues come in another order
            return lines;
        };
        QCOMPARE(summary(again), summary(parsed));
        QCOMPARE(jobSpecProperties(again.spec), jobSpecProperties(parsed.spec));
        QCOMPARE(writeJobSpec(again.spec), written);
    }

    void plans_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("valid");
        addRows("valid");
    }

    void plans()
    {
        QFETCH(QString, file);
        const Expectation e = readExpectation(file.chopped(5) + ".expected");
        const ParsedJobSpec parsed = parseJobSpec(readFile(file));
        QVERIFY(!parsed.hasErrors());
        // Every valid spec says what its plan must be (or why there is none).
        QVERIFY2(!e.planError.isEmpty() || !e.planCommand.isEmpty(), "no plan-command or plan-error in its .expected");
        const auto plan = buildLaunchPlan(parsed.spec, launchContext(e));
        if (!e.planError.isEmpty()) {
            QVERIFY2(!plan, "the plan should be refused");
            QCOMPARE(plan.error(), e.planError);
            return;
        }
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        for (const QString &part : e.planCommand)
            QVERIFY2(plan->commandLine.contains(part), qPrintable(plan->commandLine + "\nlacks\n" + part));
        for (const QString &part : e.planScript)
            QVERIFY2(plan->launchScriptShown.contains(part), qPrintable(plan->launchScriptShown + "\nlacks\n" + part));
        for (const QString &part : e.planLacks)
            QVERIFY2(!plan->commandLine.contains(part) && !plan->launchScriptShown.contains(part), qPrintable(part));
        if (!e.planJobDir.isEmpty())
            QCOMPARE(plan->jobDir, e.planJobDir);
        // What is shown holds no secret, nor does the launch script; the secrets file the
        // script reads (and removes) has them all.
        const QString shown = plan->describe() + QJsonDocument(plan->toJson()).toJson() + plan->launchScriptShown;
        for (const QString &secret : corpusSecrets)
            QVERIFY2(!shown.contains(secret), qPrintable(secret));
        if (parsed.spec.secrets) {
            for (const auto &secret : *parsed.spec.secrets)
                QVERIFY(plan->secretsFile.contains("export " + secret.name + "=" + *secret.value + "\n")
                        && !plan->launchScript.contains(*secret.value));
        }
        const auto &registry = parsed.spec.containerSettings ? parsed.spec.containerSettings->imageSourceRegistry.credentials
                                                             : std::nullopt;
        if (registry)
            QVERIFY(plan->secretsFile.contains(*registry->password) && !plan->launchScript.contains(*registry->password));
        // Storage account keys are not needed to run: they stay out of the script.
        QVERIFY(!plan->launchScript.contains("c3RvcmFnZS1rZXk="));
    }
};

QTEST_GUILESS_MAIN(TestJobSpecCorpus)
#include "tst_jobspec_corpus.moc"

// Secrets of a job.json: sealed before the spec goes into the database, opened only for the
// launch script, never in a message, a listing or a plan that is shown.
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "jobspec/Secrets.h"
#include "store/Store.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "LocalClusterFixture.h"
#include <QThread>

using namespace TrainDesk;

namespace {

const QString token = QStringLiteral("tok-3f9a1c77e2");
const QString storageKey = QStringLiteral("storage-key-81d0");
const QString registryPassword = QStringLiteral("registry-pw-55ab");

QByteArray specWithSecrets(const QString &command, bool container = false)
{
    QJsonObject properties{
        {"nodeCount", 1},
        {"customMpiSettings", QJsonObject{{"commandLine", command}}},
        {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/share"},
        {"secrets", QJsonArray{QJsonObject{{"name", "API_TOKEN"}, {"value", token}}}},
        {"mountVolumes", QJsonObject{{"azureFileShares", QJsonArray{QJsonObject{
            {"azureFileUrl", "https://acct.file.core.windows.net/share"}, {"relativeMountPath", "share"},
            {"accountName", "acct"}, {"credentials", QJsonObject{{"accountKey", storageKey}}}}}}}}};
    if (container) {
        properties.insert("containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{
            {"image", "team/img"}, {"credentials", QJsonObject{{"username", "u"}, {"password", registryPassword}}}}}});
    }
    return QJsonDocument(QJsonObject{{"properties", properties}}).toJson();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.exists() || !f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class TestJobSpecSecrets : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Store m_store;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_store.open(m_dir.filePath("traindesk.db")).ok());
        const auto created = Testing::createLocalCluster(m_store, m_dir);
        QVERIFY2(created.ok(), qPrintable(created.error()));
    }

    void keyIsMadeOnceAndPrivate()
    {
        const QString path = m_dir.filePath("keys/secrets.key");
        const auto first = SecretKey::loadOrCreate(path);
        QVERIFY2(first.ok(), qPrintable(first.error()));
        QCOMPARE(QFileInfo(path).size(), 32);
        QCOMPARE(QFileInfo(path).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup
                                                  | QFileDevice::WriteOther), QFileDevice::Permissions());
        const auto second = SecretKey::loadOrCreate(path);
        QVERIFY(second.ok());
        const auto sealed = first->seal("hello");
        QVERIFY(sealed.ok());
        QVERIFY(Secrets::isSealed(*sealed));
        QVERIFY(!sealed->contains("hello"));
        QCOMPARE(*second->unseal(*sealed), QStringLiteral("hello"));
        // The same value sealed twice reads differently (a fresh nonce each time).
        QVERIFY(*first->seal("hello") != *sealed);
        QCOMPARE(SecretKey::pathFor("/data/traindesk.db"), QStringLiteral("/data/secrets.key"));
    }

    void wrongKeyOrTamperingIsRefused()
    {
        const auto key = SecretKey::loadOrCreate(m_dir.filePath("a.key"));
        const auto other = SecretKey::loadOrCreate(m_dir.filePath("b.key"));
        const QString sealed = *key->seal(token);
        QVERIFY(!other->unseal(sealed));
        QString tampered = sealed;
        const qsizetype last = tampered.size() - 3;
        tampered[last] = tampered[last] == QLatin1Char('A') ? QLatin1Char('B') : QLatin1Char('A');
        const auto opened = key->unseal(tampered);
        QVERIFY(!opened);
        QVERIFY2(opened.error().contains("does not open with this key"), qPrintable(opened.error()));
        QVERIFY(!key->unseal("traindesk-sealed:v1:AAAA"));
        QFile damaged(m_dir.filePath("short.key"));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("short");
        damaged.close();
        const auto bad = SecretKey::loadOrCreate(damaged.fileName());
        QVERIFY(!bad);
        QVERIFY2(bad.error().contains("expected 32 bytes, found 5"), qPrintable(bad.error()));
    }

    void everySecretFieldIsSealed()
    {
        const ParsedJobSpec parsed = parseJobSpec(specWithSecrets("true", true));
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join('\n')));
        QCOMPARE(Secrets::values(parsed.spec), (QStringList{token, storageKey, registryPassword}));
        const auto key = SecretKey::loadOrCreate(m_dir.filePath("c.key"));
        const auto text = Secrets::sealedText(specWithSecrets("true", true), parsed.spec, *key);
        QVERIFY(text.ok());
        for (const QString &secret : {token, storageKey, registryPassword})
            QVERIFY(!text->contains(secret.toUtf8()));
        // What is stored still reads as a valid spec, and opens to the original.
        const ParsedJobSpec stored = parseJobSpec(*text);
        QVERIFY(!stored.hasErrors());
        const auto opened = Secrets::unseal(stored.spec, *key);
        QVERIFY(opened.ok());
        QCOMPARE(jobSpecProperties(*opened), jobSpecProperties(parsed.spec));
        // Sealing what is sealed changes nothing; a spec without secrets is stored as given.
        QCOMPARE(*Secrets::sealedText(*text, stored.spec, *key), *text);
        const QByteArray plain = R"({"nodeCount": 1, "stdOutErrPathPrefix": "/x", "customMpiSettings": {"commandLine": "a"}})";
        QCOMPARE(*Secrets::sealForStore(plain, parseJobSpec(plain).spec, m_dir.filePath("none/traindesk.db")), plain);
        QVERIFY(!QFileInfo::exists(m_dir.filePath("none/secrets.key")));
        const JobSpec shown = Secrets::redacted(parsed.spec);
        QCOMPARE(Secrets::values(shown), (QStringList{"<secret>", "<secret>", "<secret>"}));
    }

    void storedJobHasNoSecretInClear()
    {
        JobRunner runner(m_store);
        const auto job = JobSubmission(m_store).submit({"ws", "exp", "secret-job", "local", specWithSecrets("sh -c 'echo length=${#API_TOKEN}'")});
        QVERIFY2(job.ok(), qPrintable(job.error()));
        QVERIFY(!job->spec.contains(token.toUtf8()));
        QVERIFY(!job->spec.contains(storageKey.toUtf8()));
        QVERIFY(job->spec.contains("traindesk-sealed:v1:"));
        QVERIFY(QFileInfo::exists(m_dir.filePath("secrets.key")));
        // Nor anywhere in the database's files.
        for (const QString &file : QDir(m_dir.path()).entryList({"traindesk.db*"}, QDir::Files)) {
            const QByteArray bytes = readFile(m_dir.filePath(file));
            QVERIFY2(!bytes.contains(token.toUtf8()) && !bytes.contains(storageKey.toUtf8()), qPrintable(file));
        }
        // The plan of the stored job opens them for the launch script only.
        const auto plan = JobSubmission(m_store).planOf(*job);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QVERIFY(plan->secretsFile.contains("export API_TOKEN=" + token + "\n"));
        QVERIFY(!plan->launchScript.contains(token));
        QVERIFY(!plan->launchScriptShown.contains(token));
        QVERIFY(!plan->describe().contains(token));
        QVERIFY(!plan->launchScript.contains(storageKey));
        // The job got its secret.
        QElapsedTimer timer;
        timer.start();
        Job done = *job;
        while (!isFinished(done.state) && timer.elapsed() < 60000) {
            QThread::msleep(100);
            runner.refreshAll();
            done = *m_store.jobById(job->id);
        }
        QCOMPARE(toString(done.state), toString(JobState::Succeeded));
        const QByteArray out = readFile(done.jobDir + "/stdouterr/stdout.txt");
        QVERIFY2(out.contains("length=" + QByteArray::number(token.size())), out.constData());
        QVERIFY(!out.contains(token.toUtf8()));
        QVERIFY(!readFile(done.jobDir + "/stdouterr/execution-localhost.log").contains(token.toUtf8()));
        // No copy is left in any file of the job's folders (launch.sh holds none; the secrets
        // file was removed before the job started).
        QDirIterator files(done.jobDir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        int looked = 0;
        while (files.hasNext()) {
            const QString file = files.next();
            ++looked;
            QVERIFY2(!readFile(file).contains(token.toUtf8()), qPrintable(file));
        }
        QVERIFY(looked >= 3);
        QVERIFY(!QFileInfo::exists(done.jobDir + "/secrets.env"));
    }

    void refusedSubmitDoesNotEchoSecrets()
    {
        QByteArray bad = specWithSecrets("true");
        bad.replace("\"nodeCount\": 1", "\"nodeCount\": 5");
        const auto job = JobSubmission(m_store).submit({"ws", "exp", "too-big", "local", bad});
        QVERIFY(!job);
        QVERIFY2(job.error().contains("properties.nodeCount") && job.error().contains("expected at most 1"),
                 qPrintable(job.error()));
        QVERIFY(!job.error().contains(token));
    }
};

QTEST_GUILESS_MAIN(TestJobSpecSecrets)
#include "tst_jobspec_secrets.moc"

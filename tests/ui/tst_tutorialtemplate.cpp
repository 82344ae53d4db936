// The new-job wizard's tutorial template (the bundled trainer on CIFAR-10 from a share) on a
// real Backend, with the data set served by the test's own HTTP server on loopback
// (DataSetMirrorServer.h): the Data set page shows the share does not hold it, the job.json
// validates and points at the share's cifar10 folder, Submit fetches the data set first and
// then submits, and the job trains on it. A draft is saved without fetching, and when it is
// started with the share still empty its job preparation fails it, saying how to fetch the
// data set; the check, run by /bin/sh, passes once the files are there. Cancel during the
// fetch before a submit stops it and submits nothing.
#include "BackendFixture.h"
#include "DataSetMirrorServer.h"
#include "Grab.h"
#include "TestHome.h"
#include "editor/JobEditor.h"
#include "jobspec/JobSpec.h"
#include "wizards/JobDataPage.h"
#include "wizards/JobEditPage.h"
#include "wizards/JobSourcePage.h"
#include "wizards/JobTargetPage.h"
#include "wizards/JobTemplates.h"
#include "wizards/NewJobWizard.h"

#include <QAbstractButton>
#include <QPushButton>
#include <QProcess>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLineEdit>
#include <QJsonObject>
#include <QSignalSpy>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestTutorialTemplate : public QObject
{
    Q_OBJECT

private:
    static int tutorialRow()
    {
        const QList<JobTemplate> templates = jobTemplates();
        for (int i = 0; i < templates.size(); ++i) {
            if (templates[i].dataSet == QLatin1String("cifar10"))
                return i;
        }
        return -1;
    }

    static QJsonObject properties(const QByteArray &spec)
    {
        return QJsonDocument::fromJson(spec).object().value(QLatin1String("properties")).toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
        QVERIFY2(m_mirror.writeArchives(), "cannot write the test archives (python3 with numpy)");
        QVERIFY(m_mirror.start());
        QVERIFY(tutorialRow() > 0);  // the Fashion-MNIST demo stays first, the default
    }

    void cleanupTestCase() { m_backend.reset(); }

    void fetchesThenSubmits()
    {
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        wizard.sourcePage()->selectTemplate(tutorialRow());
        wizard.next();
        QCOMPARE(wizard.targetPage()->jobName(), QStringLiteral("cifar10-tutorial"));
        QCOMPARE(wizard.targetPage()->clusterName(), QStringLiteral("local"));
        JobDataPage *data = wizard.dataPage();
        QSignalSpy stateRead(data, &JobDataPage::stateRead);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(NewJobWizard::DataPageId));
        QVERIFY(stateRead.wait(10000));
        QCOMPARE(data->dataSetName(), QStringLiteral("cifar10"));
        QCOMPARE(data->shareName(), QStringLiteral("local"));
        QVERIFY(!data->dataReady());
        QVERIFY(data->fetchButton()->isEnabled());
        saveGrab(&wizard, QStringLiteral("wizard-data-set"));

        wizard.next();
        QCOMPARE(wizard.currentId(), int(NewJobWizard::EditPageId));
        JobEditor *editor = wizard.editPage()->editor();
        QVERIFY2(!editor->hasErrors(), qPrintable(editor->summaryText()));
        const QByteArray spec = editor->text();
        // Valid as JobSubmission::submit checks it: the local cluster and the workspace's shares.
        const ParsedJobSpec parsed = parseJobSpec(spec, m_backend->snapshot().specContext(wizard.targetPage()->workspaceId(),
                                                                                        wizard.targetPage()->clusterId()));
        QVERIFY2(!parsed.hasErrors(), qPrintable(parsed.errorTexts().join(QLatin1Char('\n'))));
        // Only the template's own TrainDesk extensions (its progress timeout) are marked.
        for (const SpecIssue &w : parsed.warnings())
            QVERIFY2(w.message.startsWith(QLatin1String("TrainDesk extension")), qPrintable(w.path + ": " + w.message));
        const QJsonObject props = properties(spec);
        const QString command = props.value(QLatin1String("customMpiSettings")).toObject().value(QLatin1String("commandLine")).toString();
        QVERIFY2(command.startsWith(QStringLiteral("traindesk-trainer --format cifar10 --data $AZ_BATCHAI_JOB_MOUNT_ROOT/local/cifar10 ")),
                 qPrintable(command));
        QCOMPARE(props.value(QLatin1String("customMpiSettings")).toObject().value(QLatin1String("processCount")).toInt(), 4);
        QVERIFY(!spec.contains('@'));  // every placeholder filled in
        // A short run for the test: one epoch.
        QString json = editor->text();
        json.replace(QStringLiteral("--dir $AZ_BATCHAI_OUTPUT_MODEL"), QStringLiteral("--epochs 1 --dir $AZ_BATCHAI_OUTPUT_MODEL"));
        editor->setText(json.toUtf8());
        QVERIFY(!editor->hasErrors());

        // Submit: the data set is fetched first, then the job goes in.
        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        QSignalSpy fetched(data, &JobDataPage::fetchFinished);
        wizard.button(QWizard::FinishButton)->click();
        QVERIFY(submitted.isEmpty());
        QVERIFY(data->fetching());
        QVERIFY2(wizard.editPage()->statusText().startsWith(QStringLiteral("Fetching")), qPrintable(wizard.editPage()->statusText()));
        QVERIFY(fetched.wait(60000));
        QCOMPARE(fetched.first().first().toString(), QString());
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 10000);
        const QString archive = m_backend->snapshot().workspaces.first().shares.first().path
            + QStringLiteral("/cifar10/cifar-10-python.tar.gz");
        QVERIFY(QFileInfo(archive).isFile());
        QCOMPARE(QFileInfo(archive).size(), QFileInfo(m_mirror.archive(QStringLiteral("cifar10/cifar-10-python.tar.gz"))).size());

        // The job trains on what was fetched: its preparation finds the files, the trainer reads them.
        const qint64 jobId = submitted.first().first().toLongLong();
        m_backend->watchJob(jobId);
        const auto finished = [this, jobId] {
            const Job *job = m_backend->snapshot().findJob(jobId);
            return job && isFinished(job->state);
        };
        QVERIFY(QTest::qWaitFor(finished, 180000));
        const Job *job = m_backend->snapshot().findJob(jobId);
        QStringList errors;
        for (const JobError &e : job->errors)
            errors << e.code + QStringLiteral(": ") + e.message + QLatin1Char(' ') + e.details.join(QLatin1Char(' '));
        QFile stderrFile(job->jobDir + QStringLiteral("/stdouterr/stderr.txt"));
        if (stderrFile.open(QIODevice::ReadOnly))
            errors << QString::fromUtf8(stderrFile.readAll().right(2000));
        QVERIFY2(job->state == JobState::Succeeded, qPrintable(toString(job->state) + QLatin1Char(' ') + errors.join(QLatin1Char('\n'))));
    }

    void draftWithoutDataFailsInPreparation()
    {
        // A share that does not hold CIFAR-10; a draft is saved without fetching it.
        Share empty;
        empty.workspaceId = m_backend->snapshot().workspaces.first().workspace.id;
        empty.name = QStringLiteral("empty");
        empty.kind = ShareKind::Local;
        empty.path = m_home.filePath(QStringLiteral("empty-share"));
        QVERIFY(QDir().mkpath(empty.path));
        QVERIFY(m_store.createShare(empty));
        m_backend->pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(m_backend->snapshot().workspaces.first().shares.size(), 2, 10000);

        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.sourcePage()->selectTemplate(tutorialRow());
        wizard.next();
        wizard.targetPage()->nameEdit()->setText(QStringLiteral("no-data"));
        wizard.targetPage()->draftCheck()->setChecked(true);
        JobDataPage *data = wizard.dataPage();
        QSignalSpy stateRead(data, &JobDataPage::stateRead);
        wizard.next();
        QVERIFY(stateRead.wait(10000));
        const int index = data->shareCombo()->findText(QStringLiteral("empty"));
        QVERIFY(index >= 0);
        if (data->shareCombo()->currentIndex() != index) {
            data->shareCombo()->setCurrentIndex(index);
            QVERIFY(stateRead.wait(10000));
        }
        QCOMPARE(data->shareName(), QStringLiteral("empty"));
        QVERIFY(!data->dataReady());
        wizard.next();
        QVERIFY(wizard.editPage()->editor()->text().contains("$AZ_BATCHAI_JOB_MOUNT_ROOT/empty/cifar10"));
        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        const int requests = m_mirror.requests();
        wizard.button(QWizard::FinishButton)->click();
        QVERIFY(!data->fetching());
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 10000);
        QCOMPARE(m_mirror.requests(), requests);

        // Started later, with nothing in the share: the preparation stops it, saying why.
        const qint64 jobId = submitted.first().first().toLongLong();
        m_backend->queueJob(jobId);
        QVERIFY(QTest::qWaitFor([this, jobId] {
            const Job *job = m_backend->snapshot().findJob(jobId);
            return job && isFinished(job->state);
        }, 120000));
        const Job *job = m_backend->snapshot().findJob(jobId);
        QCOMPARE(toString(job->state), QStringLiteral("failed"));
        QVERIFY(!job->errors.isEmpty());
        QCOMPARE(job->errors.first().code, QStringLiteral("JobPreparationFailed"));
        // The preparation's own stderr, per node (the local cluster's one node).
        QFile stderrFile(job->jobDir + QStringLiteral("/stdouterr/stderr-job_prep-localhost.txt"));
        QVERIFY2(stderrFile.open(QIODevice::ReadOnly), qPrintable(stderrFile.fileName()));
        const QByteArray text = stderrFile.readAll();
        QVERIFY2(text.contains("CIFAR-10 (python version) is not in share empty")
                     && text.contains("traindesk data fetch cifar10 --share empty"),
                 text.constData());
    }

    void cancelWhileFetchingSubmitsNothing()
    {
        QVERIFY(m_mirror.start({QStringLiteral("--stall-after"), QStringLiteral("50000")}));
        Share slow;
        slow.workspaceId = m_backend->snapshot().workspaces.first().workspace.id;
        slow.name = QStringLiteral("slow");
        slow.kind = ShareKind::Local;
        slow.path = m_home.filePath(QStringLiteral("slow-share"));
        QVERIFY(QDir().mkpath(slow.path));
        QVERIFY(m_store.createShare(slow));
        m_backend->pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(m_backend->snapshot().workspaces.first().shares.size(), 3, 10000);

        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.sourcePage()->selectTemplate(tutorialRow());
        wizard.next();
        wizard.targetPage()->nameEdit()->setText(QStringLiteral("cancelled"));
        JobDataPage *data = wizard.dataPage();
        QSignalSpy stateRead(data, &JobDataPage::stateRead);
        wizard.next();
        QVERIFY(stateRead.wait(10000));
        const int index = data->shareCombo()->findText(QStringLiteral("slow"));
        if (data->shareCombo()->currentIndex() != index) {
            data->shareCombo()->setCurrentIndex(index);
            QVERIFY(stateRead.wait(10000));
        }
        wizard.next();
        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        QSignalSpy fetched(data, &JobDataPage::fetchFinished);
        wizard.button(QWizard::FinishButton)->click();
        const QString part = slow.path + QStringLiteral("/cifar10/.cifar-10-python.tar.gz.download.traindesk-part");
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(part).size() >= 50000, 20000);
        wizard.reject();
        QVERIFY(fetched.wait(20000));
        QVERIFY2(fetched.first().first().toString().contains(QStringLiteral("cancelled")),
                 qPrintable(fetched.first().first().toString()));
        QTest::qWait(500);  // a submit would have gone out by now
        QVERIFY(submitted.isEmpty());
        m_backend->pollNow();
        QTest::qWait(500);
        for (const auto &exp : m_backend->snapshot().workspaces.first().experiments) {
            for (const Job &job : exp.jobs)
                QVERIFY(job.name != QLatin1String("cancelled"));
        }
        QVERIFY(QFileInfo(part).size() >= 50000);  // kept for the next fetch
        QVERIFY(m_mirror.start());
    }

    void preparationRefusesAMissingDataSet()
    {
        const QJsonObject props = properties(dataSetJobSpec(jobTemplates().value(tutorialRow()), QStringLiteral("data"),
                                                            QStringLiteral("cifar10")));
        const QString check = props.value(QLatin1String("jobPreparation")).toObject().value(QLatin1String("commandLine")).toString();
        QVERIFY(!check.isEmpty());
        const QString root = m_home.filePath(QStringLiteral("mount-root"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/data/cifar10")));
        const auto run = [&] {
            QProcess shell;  // as the launch script runs a job preparation: /bin/sh -c
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("AZ_BATCHAI_JOB_MOUNT_ROOT"), root);
            shell.setProcessEnvironment(env);
            shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), check});
            shell.waitForFinished(10000);
            return std::make_pair(shell.exitCode(), QString::fromUtf8(shell.readAllStandardError()));
        };
        const auto [missingCode, missingText] = run();
        QCOMPARE(missingCode, 1);
        QVERIFY2(missingText.contains(QStringLiteral("CIFAR-10 (python version) is not in share data"))
                     && missingText.contains(QStringLiteral("traindesk data fetch cifar10 --share data")),
                 qPrintable(missingText));
        QVERIFY(QFile::copy(m_mirror.archive(QStringLiteral("cifar10/cifar-10-python.tar.gz")),
                            root + QStringLiteral("/data/cifar10/cifar-10-python.tar.gz")));
        const auto [presentCode, presentText] = run();
        QCOMPARE(presentCode, 0);
        QCOMPARE(presentText, QString());
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
    DataSetMirrorServer m_mirror{m_home.filePath(QStringLiteral("mirror-work"))};
};

QTEST_MAIN(TestTutorialTemplate)
#include "tst_tutorialtemplate.moc"

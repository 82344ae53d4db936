// The New job wizard on a real Backend: a template to a submitted draft, the editor's
// checks holding Submit back, a clone, an imported file, export, the name checks, and a
// refusal from JobSubmission::submit shown on the page with the wizard left open.
#include "BackendFixture.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "editor/JobEditor.h"
#include "editor/JobSpecForm.h"
#include "session/Backend.h"
#include "store/Store.h"
#include "wizards/JobEditPage.h"
#include "wizards/JobSourcePage.h"
#include "wizards/JobTargetPage.h"
#include "wizards/NewJobWizard.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestNewJobWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY(startBackend(m_store, m_backend));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void templateToDraft()
    {
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        QCOMPARE(wizard.currentId(), int(NewJobWizard::SourcePageId));
        QCOMPARE(wizard.sourcePage()->templateList()->count(), 3);
        QVERIFY(wizard.sourcePage()->isComplete());
        QCOMPARE(wizard.sourcePage()->spec(), EmbeddedDefaults::demoJobSpec());

        wizard.next();
        QCOMPARE(wizard.currentId(), int(NewJobWizard::TargetPageId));
        JobTargetPage *target = wizard.targetPage();
        QCOMPARE(target->workspaceName(), QStringLiteral("default"));
        QCOMPARE(target->experimentName(), QStringLiteral("demo"));
        QCOMPARE(target->clusterName(), QStringLiteral("local"));
        QCOMPARE(target->jobName(), QStringLiteral("fashion-mnist"));
        QVERIFY(target->isComplete());
        target->draftCheck()->setChecked(true);
        QCOMPARE(wizard.buttonText(QWizard::FinishButton), QStringLiteral("Sa&ve draft"));

        wizard.next();
        QCOMPARE(wizard.currentId(), int(NewJobWizard::EditPageId));
        JobEditor *editor = wizard.editPage()->editor();
        QCOMPARE(editor->text(), EmbeddedDefaults::demoJobSpec());
        QVERIFY(!editor->hasErrors());
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        editor->form()->commandLineEdit()->setText(QStringLiteral("traindesk-trainer --format idx --epochs 1 --dir $AZ_BATCHAI_OUTPUT_MODEL"));

        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        QSignalSpy accepted(&wizard, &QDialog::accepted);
        wizard.button(QWizard::FinishButton)->click();
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());  // busy until the worker answers
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 10000);
        QCOMPARE(accepted.count(), 1);
        const Job *job = m_backend->snapshot().findJob(submitted.at(0).at(0).toLongLong());
        QVERIFY(job);
        QCOMPARE(job->name, QStringLiteral("fashion-mnist"));
        QCOMPARE(toString(job->state), QStringLiteral("draft"));
        QVERIFY(job->spec.contains("--epochs 1"));
        QCOMPARE(wizard.submittedJobId(), job->id);
    }

    void checksHoldSubmitBack()
    {
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.sourcePage()->selectTemplate(2);  // the Horovod tutorial: 4 nodes, share myshare
        QVERIFY(wizard.sourcePage()->spec().contains("horovodSettings"));
        wizard.next();
        QCOMPARE(wizard.targetPage()->jobName(), QStringLiteral("cifar-horovod"));
        wizard.next();
        JobEditor *editor = wizard.editPage()->editor();
        // The cluster has one node and the workspace no share myshare: two errors, no Submit.
        QVERIFY(editor->hasErrors());
        QVERIFY(!wizard.editPage()->isComplete());
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());
        QVERIFY2(editor->summaryText().startsWith(QStringLiteral("2 errors")), qPrintable(editor->summaryText()));
        editor->form()->nodeCountSpin()->setValue(1);
        QVERIFY(editor->summaryText().startsWith(QStringLiteral("1 error")));
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());
        // Point the job at the share "local" in the JSON pane: valid, Submit on.
        const QString json = editor->jsonEdit()->toPlainText().replace(QStringLiteral("myshare"), QStringLiteral("local"));
        editor->jsonEdit()->setPlainText(json);
        QVERIFY2(!editor->hasErrors(), qPrintable(editor->summaryText()));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        QCOMPARE(editor->form()->scriptEdit()->text(), QStringLiteral("$AZ_BATCHAI_JOB_MOUNT_ROOT/local/cifar/cifar_cnn_distributed.py"));

        // Back and forth keeps the edits; another source replaces them.
        wizard.back();
        wizard.next();
        QVERIFY(!editor->hasErrors());
        wizard.back();
        wizard.back();
        wizard.sourcePage()->selectTemplate(0);
        wizard.next();
        wizard.next();
        QCOMPARE(editor->text(), EmbeddedDefaults::demoJobSpec());
    }

    void runWithoutTheContainer()
    {
        // The tutorial's job with its image and the preparation that ran in it; the editor's
        // switch submits it without both, for nodes with neither docker nor apptainer.
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.sourcePage()->selectTemplate(2);
        wizard.next();
        wizard.targetPage()->nameEdit()->setText(QStringLiteral("no-image"));
        wizard.targetPage()->draftCheck()->setChecked(true);
        wizard.next();
        JobEditor *editor = wizard.editPage()->editor();
        QJsonObject root = QJsonDocument::fromJson(editor->text()).object();
        QJsonObject properties = root.value("properties").toObject();
        properties.insert("nodeCount", 1);
        properties.insert("containerSettings", QJsonObject{{"imageSourceRegistry", QJsonObject{{"image", "tensorflow/tensorflow:1.8.0-gpu"}}}});
        properties.insert("jobPreparation", QJsonObject{{"commandLine", "pip install keras horovod"}});
        root.insert("properties", properties);
        editor->jsonEdit()->setPlainText(QString::fromUtf8(QJsonDocument(root).toJson()).replace("myshare", "local"));
        QVERIFY2(!editor->hasErrors(), qPrintable(editor->summaryText()));
        QVERIFY(!editor->runWithoutContainer());
        editor->noContainerSwitch()->setChecked(true);
        QVERIFY(editor->runWithoutContainer());
        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_COMPARE_WITH_TIMEOUT(submitted.count(), 1, 10000);
        const Job *job = m_backend->snapshot().findJob(submitted.at(0).at(0).toLongLong());
        QVERIFY(job);
        const QJsonObject stored = QJsonDocument::fromJson(job->spec).object().value("properties").toObject();
        QVERIFY2(!stored.contains("containerSettings") && !stored.contains("jobPreparation"), job->spec.constData());
        QVERIFY(stored.contains("horovodSettings"));
    }

    void refusedSubmitKeepsTheWizardOpen()
    {
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.next();
        wizard.targetPage()->nameEdit()->setText(QStringLiteral("raced"));
        wizard.targetPage()->draftCheck()->setChecked(true);
        wizard.next();
        // Someone else (the CLI) takes the name between the check and the submit.
        const auto exp = m_store.experiment(m_store.workspace(QStringLiteral("default"))->id, QStringLiteral("demo"));
        Job other;
        other.experimentId = exp->id;
        other.clusterId = m_store.cluster(exp->workspaceId, QStringLiteral("local"))->id;
        other.name = QStringLiteral("raced");
        other.spec = EmbeddedDefaults::demoJobSpec();
        other.state = JobState::Draft;
        QVERIFY(m_store.createJob(other));
        QSignalSpy rejected(&wizard, &QDialog::rejected);
        QSignalSpy submitted(&wizard, &NewJobWizard::jobSubmitted);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.editPage()->statusText().contains(QStringLiteral("already exists")), 10000);
        QVERIFY(wizard.editPage()->statusText().contains(QStringLiteral("Not submitted")));
        QVERIFY(wizard.isVisible());
        QCOMPARE(submitted.count(), 0);
        QCOMPARE(wizard.result(), 0);
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());  // free to change and retry
        QVERIFY(wizard.editPage()->editor()->isEnabled());
    }

    void cloneStartsOnTheTarget()
    {
        const ResourceSnapshot &snapshot = m_backend->snapshot();
        const Job *demo = nullptr;
        for (const auto &exp : snapshot.workspaces.first().experiments) {
            for (const Job &j : exp.jobs) {
                if (j.name == QLatin1String(EmbeddedDefaults::demoJobName))
                    demo = &j;
            }
        }
        QVERIFY(demo);
        const qint64 demoId = demo->id;
        const QByteArray demoSpec = demo->spec;
        NewJobWizard wizard(m_backend.get());
        wizard.startClone(demoId);
        wizard.show();
        QCOMPARE(wizard.currentId(), int(NewJobWizard::TargetPageId));
        QCOMPARE(wizard.sourcePage()->source(), JobSourcePage::Source::Clone);
        QCOMPARE(wizard.sourcePage()->cloneJobId(), demoId);
        QCOMPARE(wizard.targetPage()->experimentName(), QStringLiteral("demo"));
        QCOMPARE(wizard.targetPage()->jobName(), QStringLiteral("fashion-mnist-demo-2"));
        wizard.next();
        QCOMPARE(wizard.editPage()->editor()->text(), demoSpec);
    }

    void cloneNames()
    {
        // The guide's `name-2`: "lr-001" is a name of its own, not copy 1 of "lr" (issue 43);
        // a copy of a copy is numbered from the original.
        QSet<QString> jobs{QStringLiteral("lr-001")};
        const auto taken = [&jobs](const QString &name) { return jobs.contains(name); };
        QCOMPARE(JobTargetPage::freeName(QStringLiteral("lr-001"), taken), QStringLiteral("lr-001-2"));
        jobs << QStringLiteral("lr-001-2");
        QCOMPARE(JobTargetPage::freeName(QStringLiteral("lr-001"), taken), QStringLiteral("lr-001-3"));
        QCOMPARE(JobTargetPage::freeName(QStringLiteral("lr-001-2"), taken), QStringLiteral("lr-001-3"));
        QCOMPARE(JobTargetPage::freeName(QStringLiteral("fresh"), taken), QStringLiteral("fresh"));
    }

    void importAndExport()
    {
        const QString path = m_home.filePath(QStringLiteral("my job.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"nodeCount\": 1, \"customToolkitSettings\": {\"commandLine\": \"hostname\"},"
                   " \"stdOutErrPathPrefix\": \"$AZ_BATCHAI_JOB_MOUNT_ROOT/local\"}");
        file.close();

        NewJobWizard wizard(m_backend.get());
        wizard.startImport();
        wizard.show();
        JobSourcePage *source = wizard.sourcePage();
        QCOMPARE(source->source(), JobSourcePage::Source::Import);
        QVERIFY(!source->isComplete());
        QSignalSpy read(source, &JobSourcePage::importRead);
        source->selectImport(m_home.filePath(QStringLiteral("missing.json")));
        QTRY_COMPARE_WITH_TIMEOUT(read.count(), 1, 10000);
        QVERIFY(source->importStatus().contains(QStringLiteral("missing.json")));
        QVERIFY(!source->isComplete());
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        // The path typed, then Enter: read by the worker.
        source->importPathEdit()->setText(path);
        QTest::keyClick(source->importPathEdit(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(read.count(), 2, 10000);
        QCOMPARE(read.at(1).at(0).toString(), QString());
        QVERIFY(source->isComplete());
        QCOMPARE(source->suggestedName(), QStringLiteral("my-job"));
        wizard.next();
        QCOMPARE(wizard.targetPage()->jobName(), QStringLiteral("my-job"));
        wizard.next();
        JobEditor *editor = wizard.editPage()->editor();
        QVERIFY2(!editor->hasErrors(), qPrintable(editor->summaryText()));
        QCOMPARE(editor->form()->toolkitCombo()->currentData().toString(), QStringLiteral("customToolkitSettings"));

        editor->form()->nodeCountSpin()->setValue(1);
        editor->form()->preparationEdit()->setText(QStringLiteral("uname -a"));
        QSignalSpy exported(wizard.editPage(), &JobEditPage::exported);
        const QString out = m_home.filePath(QStringLiteral("exported.json"));
        wizard.editPage()->exportTo(out);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 10000);
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QCOMPARE(text, editor->text());
        QCOMPARE(QJsonDocument::fromJson(text).object().value(QLatin1String("jobPreparation")).toObject()
                     .value(QLatin1String("commandLine")).toString(), QStringLiteral("uname -a"));
        QVERIFY(wizard.editPage()->statusText().contains(QStringLiteral("Exported")));
    }

    void nameChecks()
    {
        NewJobWizard wizard(m_backend.get());
        wizard.show();
        wizard.next();
        JobTargetPage *target = wizard.targetPage();
        target->nameEdit()->setText(QStringLiteral("bad name"));
        QVERIFY(!target->isComplete());
        QVERIFY(target->nameProblem().contains(QStringLiteral("letters, digits")));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        target->nameEdit()->setText(QString::fromLatin1(EmbeddedDefaults::demoJobName));
        QVERIFY(target->nameProblem().contains(QStringLiteral("already")));
        QVERIFY(!target->isComplete());
        target->nameEdit()->setText(QStringLiteral("fresh_name-1"));
        QVERIFY(target->isComplete());
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        // Mnemonic labels lead to the fields (Alt+N is Next: the name is Alt+M).
        wizard.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&wizard));
        target->workspaceCombo()->setFocus();
        QTest::keyClick(&wizard, Qt::Key_M, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(target->nameEdit()));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestNewJobWizard)
#include "tst_newjobwizard.moc"

// The workspace and experiment wizard on a real Backend: names checked as typed (the
// core's rule and what exists), a new workspace with its first experiment, an experiment
// in an existing workspace, and a refusal shown with the wizard left open.
#include "BackendFixture.h"
#include "TestHome.h"
#include "common/DataPaths.h"
#include "defaults/EmbeddedDefaults.h"
#include "session/Backend.h"
#include "store/Store.h"
#include "tree/ResourceTreeModel.h"
#include "wizards/WorkspaceWizard.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QLineEdit>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace TrainDesk;
using namespace TrainDesk::Ui;

class TestWorkspaceWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // Generous waits: the worker thread runs at nice 5 and a loaded 2-core machine can starve it.
        QVERIFY(startBackend(m_store, m_backend, 30000));
    }

    void cleanupTestCase() { m_backend.reset(); }

    void newWorkspaceWithExperiment()
    {
        WorkspaceWizard wizard(m_backend.get(), WorkspaceWizard::Mode::NewWorkspace);
        wizard.show();
        QVERIFY(wizard.newWorkspace());
        QAbstractButton *finish = wizard.button(QWizard::FinishButton);
        QVERIFY(!finish->isEnabled());  // no name yet
        wizard.workspaceEdit()->setText(QStringLiteral("default"));
        QVERIFY(wizard.problem().contains(QStringLiteral("exists")));
        QVERIFY(!finish->isEnabled());
        wizard.workspaceEdit()->setText(QStringLiteral("my workspace"));
        QVERIFY(wizard.problem().contains(QStringLiteral("letters, digits")));
        wizard.workspaceEdit()->setText(QStringLiteral("tutorial"));
        QCOMPARE(wizard.problem(), QString());
        QVERIFY(finish->isEnabled());  // the experiment is optional with a new workspace
        wizard.experimentEdit()->setText(QStringLiteral("cifar!"));
        QVERIFY(!finish->isEnabled());
        wizard.experimentEdit()->setText(QStringLiteral("cifar"));
        QVERIFY(finish->isEnabled());

        QSignalSpy created(&wizard, &WorkspaceWizard::created);
        QSignalSpy accepted(&wizard, &QDialog::accepted);
        finish->click();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 30000);
        QCOMPARE(accepted.count(), 1);
        const QString key = created.at(0).at(0).toString();
        QVERIFY(key.startsWith(QStringLiteral("exp:")));
        const auto *exp = m_backend->snapshot().findExperiment(key.mid(4).toLongLong());
        QVERIFY(exp);
        QCOMPARE(exp->experiment.name, QStringLiteral("cifar"));
        QCOMPARE(m_backend->snapshot().findWorkspace(exp->experiment.workspaceId)->workspace.name, QStringLiteral("tutorial"));
    }

    void newExperimentInExistingWorkspace()
    {
        qint64 tutorial = 0;
        for (const auto &ws : m_backend->snapshot().workspaces) {
            if (ws.workspace.name == QLatin1String("tutorial"))
                tutorial = ws.workspace.id;
        }
        QVERIFY(tutorial);
        WorkspaceWizard wizard(m_backend.get(), WorkspaceWizard::Mode::NewExperiment);
        wizard.presetWorkspace(tutorial);
        wizard.show();
        QVERIFY(!wizard.newWorkspace());
        QVERIFY(!wizard.workspaceEdit()->isEnabled());
        QCOMPARE(wizard.workspaceName(), QStringLiteral("tutorial"));
        QVERIFY(!wizard.button(QWizard::FinishButton)->isEnabled());  // the experiment is required here
        wizard.experimentEdit()->setText(QStringLiteral("cifar"));
        QVERIFY(wizard.problem().contains(QStringLiteral("already")));
        wizard.experimentEdit()->setText(QStringLiteral("mnist"));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        QSignalSpy created(&wizard, &WorkspaceWizard::created);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 30000);
        const auto *exp = m_backend->snapshot().findExperiment(created.at(0).at(0).toString().mid(4).toLongLong());
        QVERIFY(exp);
        QCOMPARE(exp->experiment.name, QStringLiteral("mnist"));
        QCOMPARE(exp->experiment.workspaceId, tutorial);
    }

    void refusalKeepsTheWizardOpen()
    {
        WorkspaceWizard wizard(m_backend.get(), WorkspaceWizard::Mode::NewWorkspace);
        wizard.show();
        wizard.workspaceEdit()->setText(QStringLiteral("raced"));
        wizard.experimentEdit()->setText(QStringLiteral("first"));
        // The CLI makes the workspace meanwhile: the request is refused and the wizard says so.
        QVERIFY(m_store.createWorkspace(QStringLiteral("raced")));
        QSignalSpy created(&wizard, &WorkspaceWizard::created);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.statusText().contains(QStringLiteral("already exists")), 30000);
        QVERIFY(wizard.statusText().contains(QStringLiteral("Not created")));
        QVERIFY(wizard.isVisible());
        QCOMPARE(created.count(), 0);
        // Now the snapshot knows it: the wizard asks for another name.
        QTRY_VERIFY_WITH_TIMEOUT(wizard.problem().contains(QStringLiteral("exists")), 30000);
    }

    void experimentRefusedAfterItsWorkspace()
    {
        // The experiment's name is taken by the time the workspace exists. Connected before the
        // wizard is made, this runs before the wizard hears of its workspace and asks for the
        // experiment (after it, the worker thread could make the experiment first).
        const auto takeTheName = connect(m_backend.get(), &Backend::requestFinished, this, [this](int, qint64 id, const QString &) {
            for (const Workspace &ws : m_store.workspaces()) {
                if (ws.id == id && ws.name == QLatin1String("second"))
                    QVERIFY(m_store.createExperiment(id, QStringLiteral("exp")));
            }
        });
        WorkspaceWizard wizard(m_backend.get(), WorkspaceWizard::Mode::NewWorkspace);
        wizard.show();
        wizard.workspaceEdit()->setText(QStringLiteral("second"));
        wizard.experimentEdit()->setText(QStringLiteral("exp"));
        QSignalSpy created(&wizard, &WorkspaceWizard::created);
        QSignalSpy finished(m_backend.get(), &Backend::requestFinished);
        wizard.button(QWizard::FinishButton)->click();
        QTRY_VERIFY_WITH_TIMEOUT(wizard.statusText().contains(QStringLiteral("Not created")), 30000);
        disconnect(takeTheName);
        QCOMPARE(created.count(), 0);
        // It goes on from the workspace that was made: chosen, and the experiment asked again.
        QVERIFY(!wizard.newWorkspace());
        QCOMPARE(wizard.workspaceName(), QStringLiteral("second"));
        wizard.experimentEdit()->setText(QStringLiteral("exp2"));
        QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
        wizard.button(QWizard::FinishButton)->click();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 30000);
        QVERIFY(created.at(0).at(0).toString().startsWith(QStringLiteral("exp:")));
    }

private:
    TestHome m_home;
    Store m_store;
    std::unique_ptr<Backend> m_backend;
};

QTEST_MAIN(TestWorkspaceWizard)
#include "tst_workspacewizard.moc"

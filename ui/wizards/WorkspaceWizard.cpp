#include "WorkspaceWizard.h"
#include "common/ScreenFit.h"
#include "common/ErrorText.h"

#include "common/Icons.h"
#include "session/Backend.h"
#include "store/Names.h"
#include "tree/ResourceTreeModel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QVBoxLayout>

namespace TrainDesk::Ui {

// The one page: complete when the wizard says there is no problem.
class WorkspaceWizard::Page : public QWizardPage
{
public:
    explicit Page(WorkspaceWizard *wizard) : QWizardPage(wizard), m_wizard(wizard) {}
    bool isComplete() const override { return m_busy ? false : m_wizard->problem().isEmpty(); }
    void changed() { Q_EMIT completeChanged(); }
    bool m_busy = false;

private:
    WorkspaceWizard *m_wizard;
};

WorkspaceWizard::WorkspaceWizard(Backend *backend, Mode mode, QWidget *parent)
    : QWizard(parent),
      m_backend(backend),
      m_page(new Page(this)),
      m_group(new QButtonGroup(this)),
      m_newRadio(new QRadioButton(tr("A new &workspace:"), m_page)),
      m_existingRadio(new QRadioButton(tr("An &existing workspace:"), m_page)),
      m_workspaceName(new QLineEdit(m_page)),
      m_workspaces(new QComboBox(m_page)),
      m_experimentName(new QLineEdit(m_page)),
      m_problem(new QLabel(m_page)),
      m_status(new QLabel(m_page))
{
    setObjectName(QStringLiteral("workspaceWizard"));
    const bool newWorkspace = mode == Mode::NewWorkspace;
    setWindowTitle(newWorkspace ? tr("New workspace") : tr("New experiment"));
    setWindowIcon(appIcon(newWorkspace ? QStringLiteral("new-workspace") : QStringLiteral("new-experiment")));
    m_page->setTitle(newWorkspace ? tr("New workspace") : tr("New experiment"));
    m_page->setSubTitle(tr("A workspace holds experiments, clusters and shares; an experiment groups jobs."));
    addPage(m_page);
    setButtonText(QWizard::FinishButton, tr("&Create"));
    setOption(QWizard::NoBackButtonOnStartPage);

    m_group->addButton(m_newRadio);
    m_group->addButton(m_existingRadio);
    m_workspaceName->setObjectName(QStringLiteral("workspaceName"));
    m_workspaceName->setPlaceholderText(tr("e.g. tutorial"));
    m_workspaceName->setToolTip(tr("Letters, digits, '-' and '_', at most 64 characters"));
    m_workspaces->setObjectName(QStringLiteral("workspaceCombo"));
    m_workspaces->setToolTip(tr("The workspace the experiment goes into"));
    m_experimentName->setObjectName(QStringLiteral("experimentName"));
    m_experimentName->setPlaceholderText(newWorkspace ? tr("optional: e.g. cifar") : tr("e.g. cifar"));
    m_experimentName->setToolTip(tr("Letters, digits, '-' and '_', at most 64 characters; unique in the workspace"));
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    ErrorText::mark(m_problem);
    m_status->setWordWrap(true);
    fillWorkspaces();

    auto *form = new QFormLayout;
    form->addRow(m_newRadio, m_workspaceName);
    form->addRow(m_existingRadio, m_workspaces);
    auto *experimentLabel = new QLabel(tr("E&xperiment:"), m_page);
    experimentLabel->setBuddy(m_experimentName);
    form->addRow(experimentLabel, m_experimentName);
    auto *layout = new QVBoxLayout(m_page);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addStretch();
    setTabOrder(m_newRadio, m_workspaceName);
    setTabOrder(m_workspaceName, m_existingRadio);
    setTabOrder(m_existingRadio, m_workspaces);
    setTabOrder(m_workspaces, m_experimentName);

    (newWorkspace || m_workspaces->count() == 0 ? m_newRadio : m_existingRadio)->setChecked(true);
    connect(m_group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (on)
            check();
    });
    connect(m_workspaceName, &QLineEdit::textChanged, this, &WorkspaceWizard::check);
    connect(m_workspaces, &QComboBox::currentIndexChanged, this, &WorkspaceWizard::check);
    connect(m_experimentName, &QLineEdit::textChanged, this, &WorkspaceWizard::check);
    connect(m_backend, &Backend::requestFinished, this, &WorkspaceWizard::onRequestFinished);
    check();
    ScreenFit::resizeWithin(this, {560, 360});
}

void WorkspaceWizard::fillWorkspaces()
{
    const QSignalBlocker blocker(m_workspaces);
    m_workspaces->clear();
    for (const auto &ws : m_backend->snapshot().workspaces)
        m_workspaces->addItem(ws.workspace.name, ws.workspace.id);
    m_existingRadio->setEnabled(m_workspaces->count() > 0);
}

void WorkspaceWizard::presetWorkspace(qint64 workspaceId)
{
    if (const int index = m_workspaces->findData(workspaceId); index >= 0) {
        m_workspaces->setCurrentIndex(index);
        m_existingRadio->setChecked(true);
    }
}

bool WorkspaceWizard::newWorkspace() const
{
    return m_newRadio->isChecked();
}

QString WorkspaceWizard::workspaceName() const
{
    return newWorkspace() ? m_workspaceName->text().trimmed() : m_workspaces->currentText();
}

QString WorkspaceWizard::experimentName() const
{
    return m_experimentName->text().trimmed();
}

QString WorkspaceWizard::problem() const
{
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    if (newWorkspace()) {
        if (auto valid = validateName(tr("workspace"), workspaceName()); !valid)
            return valid.error();
        for (const auto &ws : snapshot.workspaces) {
            if (ws.workspace.name == workspaceName())
                return tr("workspace '%1' exists already").arg(workspaceName());
        }
        if (experimentName().isEmpty())
            return {};
    }
    if (auto valid = validateName(tr("experiment"), experimentName()); !valid)
        return valid.error();
    if (!newWorkspace()) {
        if (const auto *ws = snapshot.findWorkspace(m_workspaces->currentData().toLongLong())) {
            for (const auto &exp : ws->experiments) {
                if (exp.experiment.name == experimentName())
                    return tr("workspace '%1' has an experiment '%2' already").arg(workspaceName(), experimentName());
            }
        }
    }
    return {};
}

void WorkspaceWizard::check()
{
    m_workspaceName->setEnabled(newWorkspace());
    m_workspaces->setEnabled(!newWorkspace());
    m_problem->setText(ErrorText::untouched({newWorkspace() ? m_workspaceName : m_experimentName}) ? QString() : problem());
    m_page->changed();
}

QString WorkspaceWizard::statusText() const
{
    return m_status->text();
}

void WorkspaceWizard::accept()
{
    if (m_request || !problem().isEmpty())
        return;
    m_page->m_busy = true;
    m_page->changed();
    m_status->setText(tr("Creating…"));
    if (newWorkspace()) {
        m_creatingWorkspace = true;
        m_request = m_backend->createWorkspace(workspaceName());
    } else {
        m_creatingWorkspace = false;
        m_request = m_backend->createExperiment(workspaceName(), experimentName());
    }
}

void WorkspaceWizard::onRequestFinished(int requestId, qint64 id, const QString &error)
{
    if (requestId != m_request)
        return;
    m_request = 0;
    if (!error.isEmpty()) {
        m_page->m_busy = false;
        m_status->setText(tr("<b>Not created:</b> %1").arg(error.toHtmlEscaped()));
        if (m_workspaceId) {
            // The workspace was made before the experiment failed: go on from it.
            fillWorkspaces();
            presetWorkspace(m_workspaceId);
        }
        check();
        return;
    }
    using Kind = ResourceTreeModel::Kind;
    if (m_creatingWorkspace) {
        m_workspaceId = id;
        m_creatingWorkspace = false;
        if (!experimentName().isEmpty()) {
            // The workspace exists now: a failure below leaves it, and says so.
            m_request = m_backend->createExperiment(workspaceName(), experimentName());
            return;
        }
        Q_EMIT created(ResourceTreeModel::keyFor(Kind::Workspace, id));
    } else {
        Q_EMIT created(ResourceTreeModel::keyFor(Kind::Experiment, id));
    }
    QWizard::accept();
}

} // namespace TrainDesk::Ui

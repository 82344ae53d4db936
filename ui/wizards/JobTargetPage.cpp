#include "JobTargetPage.h"

#include "common/ErrorText.h"
#include "common/StateStyle.h"
#include "session/Backend.h"
#include "store/Names.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>

namespace TrainDesk::Ui {

JobTargetPage::JobTargetPage(Backend *backend, QWidget *parent)
    : QWizardPage(parent),
      m_backend(backend),
      m_workspace(new QComboBox(this)),
      m_experiment(new QComboBox(this)),
      m_cluster(new QComboBox(this)),
      m_name(new QLineEdit(this)),
      m_nameProblem(new QLabel(this)),
      m_draft(new QCheckBox(tr("Sa&ve as a draft: start it later with Start job"), this))
{
    setTitle(tr("Where the job runs"));
    setSubTitle(tr("The job belongs to an experiment of a workspace and runs on one of its clusters."));
    m_workspace->setObjectName(QStringLiteral("workspaceCombo"));
    m_experiment->setObjectName(QStringLiteral("experimentCombo"));
    m_cluster->setObjectName(QStringLiteral("clusterCombo"));
    m_name->setObjectName(QStringLiteral("jobNameEdit"));
    m_workspace->setToolTip(tr("The workspace: its clusters and shares are the job's"));
    m_experiment->setToolTip(tr("The experiment that groups this job with others"));
    m_cluster->setToolTip(tr("The nodes the job runs on: it waits until nodeCount of them are idle"));
    m_name->setToolTip(tr("Letters, digits, '-' and '_', at most 64; unique in the experiment"));
    m_draft->setToolTip(tr("A draft is saved but not queued"));
    m_nameProblem->setObjectName(QStringLiteral("nameProblem"));
    ErrorText::mark(m_nameProblem);

    auto *form = new QFormLayout(this);
    const auto addRow = [this, form](const QString &label, QWidget *field) {
        auto *l = new QLabel(label, this);
        l->setBuddy(field);
        form->addRow(l, field);
    };
    addRow(tr("&Workspace:"), m_workspace);
    addRow(tr("E&xperiment:"), m_experiment);
    addRow(tr("C&luster:"), m_cluster);
    addRow(tr("Job na&me:"), m_name);
    form->addRow(QString(), m_nameProblem);
    form->addRow(QString(), m_draft);

    connect(m_workspace, &QComboBox::currentIndexChanged, this, [this] {
        fillChildren();
        Q_EMIT completeChanged();
    });
    connect(m_experiment, &QComboBox::currentIndexChanged, this, [this] {
        checkName();
        Q_EMIT completeChanged();
    });
    connect(m_cluster, &QComboBox::currentIndexChanged, this, &JobTargetPage::completeChanged);
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_namedByUser = true; });
    connect(m_name, &QLineEdit::textChanged, this, [this] {
        checkName();
        Q_EMIT completeChanged();
    });
    fillWorkspaces();
}

void JobTargetPage::initializePage()
{
    fillWorkspaces();
}

void JobTargetPage::fillWorkspaces()
{
    const qint64 current = workspaceId();
    const QSignalBlocker blocker(m_workspace);
    m_workspace->clear();
    for (const auto &ws : m_backend->snapshot().workspaces)
        m_workspace->addItem(ws.workspace.name, ws.workspace.id);
    const int index = m_workspace->findData(current);
    m_workspace->setCurrentIndex(index >= 0 ? index : 0);
    fillChildren();
}

void JobTargetPage::fillChildren()
{
    const qint64 experiment = experimentId();
    const qint64 cluster = clusterId();
    const QSignalBlocker blockExperiments(m_experiment);
    const QSignalBlocker blockClusters(m_cluster);
    m_experiment->clear();
    m_cluster->clear();
    if (const auto *ws = m_backend->snapshot().findWorkspace(workspaceId())) {
        for (const auto &exp : ws->experiments)
            m_experiment->addItem(exp.experiment.name, exp.experiment.id);
        for (const auto &c : ws->clusters)
            m_cluster->addItem(QStringLiteral("%1 (%2)").arg(c.cluster.name, countOf(c.nodes.size(), tr("node"), tr("nodes"))),
                               c.cluster.id);
    }
    m_experiment->setCurrentIndex(qMax(0, m_experiment->findData(experiment)));
    m_cluster->setCurrentIndex(qMax(0, m_cluster->findData(cluster)));
    checkName();
}

void JobTargetPage::preset(qint64 experimentId, qint64 clusterId)
{
    const ResourceSnapshot &snapshot = m_backend->snapshot();
    fillWorkspaces();
    if (const auto *exp = snapshot.findExperiment(experimentId)) {
        m_workspace->setCurrentIndex(m_workspace->findData(exp->experiment.workspaceId));
        m_experiment->setCurrentIndex(m_experiment->findData(experimentId));
    }
    if (clusterId) {
        if (const int index = m_cluster->findData(clusterId); index >= 0)
            m_cluster->setCurrentIndex(index);
    }
}

bool JobTargetPage::nameTaken(const QString &name) const
{
    if (const auto *exp = m_backend->snapshot().findExperiment(experimentId())) {
        for (const Job &job : exp->jobs) {
            if (job.name == name)
                return true;
        }
    }
    return false;
}

void JobTargetPage::suggestName(const QString &base)
{
    if (m_namedByUser && !m_name->text().isEmpty())
        return;
    m_name->setText(freeName(base, [this](const QString &name) { return nameTaken(name); }));
}

QString JobTargetPage::freeName(const QString &base, const std::function<bool(const QString &)> &taken)
{
    // Copies of a copy are numbered from the original: "job-3", not "job-2-2". A number is
    // a copy's only where the original is there: "lr-001" is a name of its own ("lr-001-2").
    QString stem = base;
    static const QRegularExpression numbered(QStringLiteral("^(.*)-\\d+$"));
    if (const auto match = numbered.match(base); match.hasMatch() && taken(base) && taken(match.captured(1)))
        stem = match.captured(1);
    if (!taken(stem))
        return stem;
    for (int n = 2;; ++n) {
        const QString candidate = QStringLiteral("%1-%2").arg(stem).arg(n);
        if (!taken(candidate))
            return candidate;
    }
}

QString JobTargetPage::nameProblem() const
{
    const QString name = jobName();
    if (auto valid = validateName(tr("job"), name); !valid)
        return valid.error();
    if (nameTaken(name))
        return tr("experiment '%1' has a job named '%2' already").arg(experimentName(), name);
    return {};
}

void JobTargetPage::checkName()
{
    m_nameProblem->setText(ErrorText::untouched({m_name}) ? QString() : nameProblem());
}

bool JobTargetPage::isComplete() const
{
    return workspaceId() && experimentId() && clusterId() && nameProblem().isEmpty();
}

qint64 JobTargetPage::workspaceId() const { return m_workspace->currentData().toLongLong(); }
qint64 JobTargetPage::experimentId() const { return m_experiment->currentData().toLongLong(); }
qint64 JobTargetPage::clusterId() const { return m_cluster->currentData().toLongLong(); }
QString JobTargetPage::workspaceName() const { return m_workspace->currentText(); }
QString JobTargetPage::experimentName() const { return m_experiment->currentText(); }
QString JobTargetPage::jobName() const { return m_name->text().trimmed(); }
bool JobTargetPage::draft() const { return m_draft->isChecked(); }

QString JobTargetPage::clusterName() const
{
    if (const auto *c = m_backend->snapshot().findCluster(clusterId()))
        return c->cluster.name;
    return {};
}

} // namespace TrainDesk::Ui

#include "NewJobWizard.h"

#include "JobEditPage.h"
#include "JobSourcePage.h"
#include "JobTargetPage.h"
#include "common/Icons.h"
#include "editor/JobEditor.h"
#include "session/Backend.h"

#include <QCheckBox>

namespace TrainDesk::Ui {

NewJobWizard::NewJobWizard(Backend *backend, QWidget *parent)
    : QWizard(parent),
      m_backend(backend),
      m_source(new JobSourcePage(backend, this)),
      m_target(new JobTargetPage(backend, this)),
      m_edit(new JobEditPage(backend, this))
{
    setObjectName(QStringLiteral("newJobWizard"));
    setWindowTitle(tr("New job"));
    setWindowIcon(appIcon(QStringLiteral("new-job")));
    setPage(SourcePageId, m_source);
    setPage(TargetPageId, m_target);
    setPage(EditPageId, m_edit);
    setOption(QWizard::NoBackButtonOnStartPage);
    setButtonText(QWizard::FinishButton, tr("&Submit"));
    resize(1200, 780);
    connect(m_backend, &Backend::requestFinished, this, &NewJobWizard::onRequestFinished);
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == TargetPageId)
            m_target->suggestName(m_source->suggestedName());
    });
    connect(m_target->draftCheck(), &QAbstractButton::toggled, this, [this](bool draft) {
        setButtonText(QWizard::FinishButton, draft ? tr("Sa&ve draft") : tr("&Submit"));
    });
}

void NewJobWizard::startClone(qint64 jobId)
{
    m_source->selectClone(jobId);
    if (const Job *job = m_backend->snapshot().findJob(jobId))
        m_target->preset(job->experimentId, job->clusterId);
    setStartId(TargetPageId);
}

void NewJobWizard::startImport(const QString &path)
{
    m_source->selectImport(path);  // an empty path only picks the option
    setStartId(SourcePageId);
}

void NewJobWizard::presetTarget(qint64 experimentId, qint64 clusterId)
{
    m_target->preset(experimentId, clusterId);
}

void NewJobWizard::accept()
{
    if (m_jobId) {
        QWizard::accept();
        return;
    }
    if (m_request || m_edit->editor()->hasErrors())
        return;
    SubmitRequest request;
    request.workspace = m_target->workspaceName();
    request.experiment = m_target->experimentName();
    request.job = m_target->jobName();
    request.cluster = m_target->clusterName();
    request.spec = m_edit->editor()->text();
    request.draft = m_target->draft();
    m_edit->setBusy(true, request.draft ? tr("Saving the draft…") : tr("Submitting…"));
    m_request = m_backend->submitJob(request);
}

void NewJobWizard::onRequestFinished(int requestId, qint64 id, const QString &error)
{
    if (requestId != m_request)
        return;
    m_request = 0;
    m_edit->setBusy(false);
    if (!error.isEmpty()) {
        m_edit->showError(error);
        return;
    }
    m_jobId = id;
    Q_EMIT jobSubmitted(id);
    QWizard::accept();
}

} // namespace TrainDesk::Ui

#include "NewJobWizard.h"
#include "common/ScreenFit.h"

#include "JobDataPage.h"
#include "JobEditPage.h"
#include "JobSourcePage.h"
#include "JobTargetPage.h"
#include "JobTemplates.h"
#include "common/Icons.h"
#include "editor/JobEditor.h"
#include "session/Backend.h"

#include <QCheckBox>
#include <QListWidget>

namespace TrainDesk::Ui {

NewJobWizard::NewJobWizard(Backend *backend, QWidget *parent)
    : QWizard(parent),
      m_backend(backend),
      m_source(new JobSourcePage(backend, this)),
      m_target(new JobTargetPage(backend, this)),
      m_edit(new JobEditPage(backend, this)),
      m_data(new JobDataPage(backend, this))
{
    setObjectName(QStringLiteral("newJobWizard"));
    setWindowTitle(tr("New job"));
    setWindowIcon(appIcon(QStringLiteral("new-job")));
    setPage(SourcePageId, m_source);
    setPage(TargetPageId, m_target);
    setPage(EditPageId, m_edit);
    setPage(DataPageId, m_data);
    setOption(QWizard::NoBackButtonOnStartPage);
    setButtonText(QWizard::FinishButton, tr("&Submit"));
    ScreenFit::resizeWithin(this, {1200, 780});  // Submit stays on a 1024x700 screen
    connect(m_backend, &Backend::requestFinished, this, &NewJobWizard::onRequestFinished);
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == TargetPageId)
            m_target->suggestName(m_source->suggestedName());
    });
    connect(m_data, &JobDataPage::fetchStatus, this, [this](const QString &text) {
        if (m_fetchingBeforeSubmit)
            m_edit->setBusy(true, text);
    });
    connect(m_data, &JobDataPage::fetchFinished, this, [this](const QString &error) {
        if (!m_fetchingBeforeSubmit)
            return;
        m_fetchingBeforeSubmit = false;
        m_edit->setBusy(false);
        if (error.isEmpty())
            submit();
        else
            m_edit->showError(error);
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

QString NewJobWizard::templateDataSet() const
{
    if (m_source->source() != JobSourcePage::Source::Template)
        return {};
    return jobTemplates().value(m_source->templateList()->currentRow()).dataSet;
}

QByteArray NewJobWizard::sourceSpec() const
{
    if (templateDataSet().isEmpty())
        return m_source->spec();
    return dataSetJobSpec(jobTemplates().value(m_source->templateList()->currentRow()), m_data->shareName(),
                          m_data->dataSetName());
}

QString NewJobWizard::sourceKey() const
{
    if (templateDataSet().isEmpty())
        return m_source->sourceKey();
    return QStringLiteral("%1:%2:%3").arg(m_source->sourceKey(), m_data->shareName(), m_data->dataSetName());
}

int NewJobWizard::nextId() const
{
    // Source -> Target -> (Data set) -> Edit: the ids follow the order pages were added in, not this one.
    switch (currentId()) {
    case SourcePageId:
        return TargetPageId;
    case TargetPageId:
        return templateDataSet().isEmpty() ? EditPageId : DataPageId;
    case DataPageId:
        return EditPageId;
    default:
        return -1;
    }
}

void NewJobWizard::accept()
{
    if (m_jobId) {
        QWizard::accept();
        return;
    }
    if (m_request || m_fetchingBeforeSubmit || m_edit->editor()->hasErrors())
        return;
    // The job reads its data set from the share: it goes there first (a draft waits for a later run).
    if (!templateDataSet().isEmpty() && !m_target->draft() && !m_data->dataReady()) {
        m_fetchingBeforeSubmit = true;
        m_edit->setBusy(true, tr("Fetching %1 into share %2 before submitting…").arg(m_data->dataSetName(), m_data->shareName()));
        m_data->fetch();
        return;
    }
    submit();
}

void NewJobWizard::reject()
{
    if (m_fetchingBeforeSubmit) {
        m_fetchingBeforeSubmit = false;
        m_data->stopFetch();
        m_edit->setBusy(false);
    }
    QWizard::reject();
}

void NewJobWizard::submit()
{
    SubmitRequest request;
    request.workspace = m_target->workspaceName();
    request.experiment = m_target->experimentName();
    request.job = m_target->jobName();
    request.cluster = m_target->clusterName();
    request.spec = m_edit->editor()->text();
    request.draft = m_target->draft();
    m_savedAsDraft = request.draft;
    request.noContainer = m_edit->editor()->runWithoutContainer();
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

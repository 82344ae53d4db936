#pragma once

#include <QWizard>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class JobEditPage;
class JobSourcePage;
class JobTargetPage;

// New job: where its job.json comes from, where it runs, the job.json itself; Submit
// goes through the Backend to JobRunner::submit in the worker, and the wizard closes
// only when that succeeded (a refusal is shown on the last page).
class NewJobWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { SourcePageId, TargetPageId, EditPageId };

    explicit NewJobWizard(Backend *backend, QWidget *parent = nullptr);

    // A copy of `jobId`, into its experiment and cluster: starts on the target page.
    void startClone(qint64 jobId);
    // Import: starts on the source page with the file option chosen.
    void startImport(const QString &path = {});
    // Preselects where the job goes (the tree's selection).
    void presetTarget(qint64 experimentId, qint64 clusterId);

    JobSourcePage *sourcePage() const { return m_source; }
    JobTargetPage *targetPage() const { return m_target; }
    JobEditPage *editPage() const { return m_edit; }
    qint64 submittedJobId() const { return m_jobId; }

    void accept() override;

Q_SIGNALS:
    void jobSubmitted(qint64 jobId);

private:
    void onRequestFinished(int requestId, qint64 id, const QString &error);

    Backend *m_backend;
    JobSourcePage *m_source;
    JobTargetPage *m_target;
    JobEditPage *m_edit;
    int m_request = 0;
    qint64 m_jobId = 0;
};

} // namespace TrainDesk::Ui

#pragma once

#include <QWizard>

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

class JobDataPage;
class JobEditPage;
class JobSourcePage;
class JobTargetPage;

// New job: where its job.json comes from, where it runs, the job.json itself; Submit
// goes through the Backend to JobSubmission::submit in the worker, and the wizard closes
// only when that succeeded (a refusal is shown on the last page). A template that trains on a
// data set gets a Data set page after the target page, and Submit fetches the data set into
// its share first when the share does not hold it (a draft is saved without it).
class NewJobWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { SourcePageId, TargetPageId, EditPageId, DataPageId };

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
    JobDataPage *dataPage() const { return m_data; }
    qint64 submittedJobId() const { return m_jobId; }
    // Whether Finish saved a draft (nothing queued) rather than submitting the job.
    bool savedAsDraft() const { return m_savedAsDraft; }

    // The chosen template's data set (empty: none, or not a template).
    QString templateDataSet() const;
    // The job.json the editor starts from (a data set template's filled in for the Data set
    // page's choices), and a key that changes when it does.
    QByteArray sourceSpec() const;
    QString sourceKey() const;
    int nextId() const override;
    void accept() override;
    // Cancel while the data set is fetched before a submit: the fetch stops (its partial
    // file stays for the next one) and nothing is submitted.
    void reject() override;

Q_SIGNALS:
    void jobSubmitted(qint64 jobId);

private:
    void onRequestFinished(int requestId, qint64 id, const QString &error);
    void submit();

    Backend *m_backend;
    JobSourcePage *m_source;
    JobTargetPage *m_target;
    JobEditPage *m_edit;
    JobDataPage *m_data;
    bool m_fetchingBeforeSubmit = false;
    int m_request = 0;
    qint64 m_jobId = 0;
    bool m_savedAsDraft = false;
};

} // namespace TrainDesk::Ui

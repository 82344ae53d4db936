#pragma once

#include <QWizardPage>

class QLabel;
class QPlainTextEdit;

namespace TrainDesk::Ui {

class ClusterWizard;

// 5: what will be created. Finish creates the cluster on the worker (keys deployed, host
// keys trusted as accepted in the test, setup task run) and shows errors here.
class ClusterSummaryPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit ClusterSummaryPage(ClusterWizard *wizard);

    void initializePage() override;
    bool validatePage() override;
    bool isComplete() const override;

private:
    void finished(int requestId, qint64 clusterId, const QString &error);

    ClusterWizard *m_wizard;
    QLabel *m_summary;
    QPlainTextEdit *m_log;
    QLabel *m_error;
    int m_requestId = 0;
    qint64 m_createdId = 0;  // set once created: QWizard::done() validates the page again
};

} // namespace TrainDesk::Ui

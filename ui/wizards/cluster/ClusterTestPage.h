#pragma once

#include "cluster/NodeProbeResult.h"
#include "transport/SshParameters.h"

#include <QHash>
#include <QWizardPage>

class QCheckBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace TrainDesk::Ui {

class ClusterWizard;
class HostKeyPrompt;
class ProbeCheckList;

// 4: the connection test. ClusterService::testNodes runs on the wizard's worker; each
// check appears as it completes, new host keys wait for Accept or Reject (one prompt per
// key: a node showing a key already asked about gets the same answer), and Next opens
// when every check passed or the user accepts the failures.
class ClusterTestPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit ClusterTestPage(ClusterWizard *wizard);

    void initializePage() override;
    void cleanupPage() override;
    bool isComplete() const override;

    bool isRunning() const { return m_requestId != 0; }
    // A new host key to accept or reject: a prompt above the checks (the worker's
    // question; tests ask it directly).
    void askHostKey(int questionId, const HostKeyQuestion &question);

private:
    void run();
    void cancel();
    void addCheck(const ProbeCheck &check);
    void finish(bool passed, const QString &error);

    ClusterWizard *m_wizard;
    ProbeCheckList *m_checks;
    QWidget *m_hostKeys;
    QVBoxLayout *m_hostKeyLayout;
    // Per host key (ClusterWorker::hostKeyId): the open prompt and the questions that wait
    // for it; once answered, the answer (the prompt becomes a line of the check list).
    QHash<QString, HostKeyPrompt *> m_prompts;
    QHash<QString, QList<int>> m_waiting;
    QHash<QString, bool> m_answers;
    QLabel *m_status;
    QPushButton *m_rerun;
    QPushButton *m_cancel;
    QCheckBox *m_acceptFailures;
    int m_requestId = 0;
    bool m_done = false;
    bool m_passed = false;
};

} // namespace TrainDesk::Ui

#pragma once

#include <QWizardPage>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// Where a new job goes: workspace, experiment, cluster and the job's name (checked as
// typed with the core's naming rule and against the experiment's jobs), and whether it
// is queued at once or saved as a draft.
class JobTargetPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit JobTargetPage(Backend *backend, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

    // Picks the experiment's workspace, the experiment and the cluster (0: leave as is).
    void preset(qint64 experimentId, qint64 clusterId);
    // Sets the name field to `base`, or base-2, base-3... if a job has that name.
    void suggestName(const QString &base);
    // The name proposed for a copy of `base`: `base` when free, else `base-2`, `base-3`, ...;
    // a copy of "job-2" (a copy of "job") is "job-3".
    static QString freeName(const QString &base, const std::function<bool(const QString &)> &taken);

    qint64 workspaceId() const;
    qint64 experimentId() const;
    qint64 clusterId() const;
    QString workspaceName() const;
    QString experimentName() const;
    QString clusterName() const;
    QString jobName() const;
    bool draft() const;
    QString nameProblem() const;

    QComboBox *workspaceCombo() const { return m_workspace; }
    QComboBox *experimentCombo() const { return m_experiment; }
    QComboBox *clusterCombo() const { return m_cluster; }
    QLineEdit *nameEdit() const { return m_name; }
    QCheckBox *draftCheck() const { return m_draft; }

private:
    void fillWorkspaces();
    void fillChildren();
    bool nameTaken(const QString &name) const;
    void checkName();

    Backend *m_backend;
    QComboBox *m_workspace;
    QComboBox *m_experiment;
    QComboBox *m_cluster;
    QLineEdit *m_name;
    QLabel *m_nameProblem;
    QCheckBox *m_draft;
    bool m_namedByUser = false;
};

} // namespace TrainDesk::Ui

#pragma once

#include <QWizard>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// New workspace and/or experiment. One page: a new workspace (name) or one that exists,
// and an experiment to create in it (optional with a new workspace). Names are checked
// as typed with the core's rule and against what exists; Finish creates them through the
// Backend and closes when the worker said yes.
class WorkspaceWizard : public QWizard
{
    Q_OBJECT

public:
    enum class Mode { NewWorkspace, NewExperiment };

    WorkspaceWizard(Backend *backend, Mode mode, QWidget *parent = nullptr);

    // For NewExperiment: the workspace chosen at first.
    void presetWorkspace(qint64 workspaceId);

    bool newWorkspace() const;
    QString workspaceName() const;
    QString experimentName() const;
    // Why Finish is off ("" when it is on).
    QString problem() const;
    QString statusText() const;

    QRadioButton *newWorkspaceRadio() const { return m_newRadio; }
    QRadioButton *existingWorkspaceRadio() const { return m_existingRadio; }
    QLineEdit *workspaceEdit() const { return m_workspaceName; }
    QComboBox *workspaceCombo() const { return m_workspaces; }
    QLineEdit *experimentEdit() const { return m_experimentName; }

    void accept() override;

Q_SIGNALS:
    // The key of what to select in the tree: the experiment, else the workspace.
    void created(const QString &treeKey);

private:
    void onRequestFinished(int requestId, qint64 id, const QString &error);
    void check();
    void fillWorkspaces();

    class Page;
    Backend *m_backend;
    Page *m_page;
    QButtonGroup *m_group;
    QRadioButton *m_newRadio;
    QRadioButton *m_existingRadio;
    QLineEdit *m_workspaceName;
    QComboBox *m_workspaces;
    QLineEdit *m_experimentName;
    QLabel *m_problem;
    QLabel *m_status;
    int m_request = 0;
    qint64 m_workspaceId = 0;
    bool m_creatingWorkspace = false;
};

} // namespace TrainDesk::Ui

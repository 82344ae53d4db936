#pragma once

#include "store/Entities.h"

#include <QWizardPage>

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// The share: a new one (name, kind, folder or path on the nodes, and for cluster and
// replicated shares the cluster; created when Next is pressed) or one of the workspace's.
class SharePage : public QWizardPage
{
    Q_OBJECT

public:
    explicit SharePage(Backend *backend, QWidget *parent = nullptr);

    bool isComplete() const override;
    // Creates the new share first (asynchronously): Next goes on once the worker made it.
    bool validatePage() override;

    void presetWorkspace(qint64 workspaceId);
    void selectShare(qint64 shareId);

    qint64 workspaceId() const;
    QString workspaceName() const;
    bool newShare() const;
    ShareKind kind() const;
    // The share chosen or created (0 before a new one exists).
    qint64 shareId() const;
    QString problem() const;
    QString statusText() const;

    QRadioButton *newShareRadio() const { return m_newRadio; }
    QRadioButton *existingShareRadio() const { return m_existingRadio; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *folderEdit() const { return m_folder; }
    QComboBox *kindCombo() const { return m_kind; }
    QComboBox *clusterCombo() const { return m_cluster; }
    QComboBox *shareCombo() const { return m_shares; }

private:
    // The constructor's steps.
    void setUpFields();
    void layOut();
    void connectFields();
    void followNameAndKind();
    void shareCreated(int id, qint64 shareId, const QString &error);

    void fillShares();
    void fillClusters();
    void check();
    QString defaultFolder() const;

    Backend *m_backend;
    QComboBox *m_workspace;
    QButtonGroup *m_group;
    QRadioButton *m_newRadio;
    QRadioButton *m_existingRadio;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QComboBox *m_cluster;
    QLabel *m_folderLabel;
    QLineEdit *m_folder;
    QPushButton *m_browse;
    QComboBox *m_shares;
    QLabel *m_problem;
    QLabel *m_status;
    bool m_folderEdited = false;
    int m_request = 0;
    qint64 m_createdId = 0;
    QString m_createdName;
};

} // namespace TrainDesk::Ui

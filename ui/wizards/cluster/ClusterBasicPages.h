#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

namespace TrainDesk::Ui {

// 1: the cluster's name, its workspace, and its kind (this machine or SSH nodes).
class ClusterNamePage : public QWizardPage
{
    Q_OBJECT

public:
    explicit ClusterNamePage(const QStringList &workspaces, QWidget *parent = nullptr);

    void setWorkspace(const QString &workspace);
    QString workspace() const;
    QString name() const;
    bool isLocal() const;
    bool isSlurm() const;

    bool isComplete() const override;
    int nextId() const override;
    // The name field takes the first keys typed (the workspace is chosen already).
    void initializePage() override;

protected:
    void showEvent(QShowEvent *event) override;

private:
    QString problem() const;
    void revalidate();

    QComboBox *m_workspace;
    QLineEdit *m_name;
    QRadioButton *m_ssh;
    QRadioButton *m_local;
    QRadioButton *m_slurm;
    QLabel *m_error;
};

// 2: the nodes, one [NAME=]user@host[:port] a line, each checked as it is typed, and the
// head node (rank 0).
class ClusterNodesPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit ClusterNodesPage(QWidget *parent = nullptr);

    QStringList nodes() const;
    QString headNode() const;
    bool isComplete() const override;
    int nextId() const override;

private:
    void revalidate();

    QPlainTextEdit *m_nodes;
    QComboBox *m_head;
    QLabel *m_errors;
    bool m_valid = false;
};

// 3: how TrainDesk logs in (a key file, a key it generates and deploys with a password
// given once, or a password), where shares appear, and the setup task.
class ClusterCredentialsPage : public QWizardPage
{
    Q_OBJECT

public:
    enum class Mode { KeyFile, GenerateKey, Password };

    explicit ClusterCredentialsPage(QWidget *parent = nullptr);

    Mode mode() const;
    QString keyFile() const;
    QString passphrase() const;
    QString password() const;
    QString mountRoot() const;
    QString setupTask() const;
    bool isComplete() const override;

private:
    QString problem() const;
    void revalidate();

    QRadioButton *m_keyMode;
    QRadioButton *m_generateMode;
    QRadioButton *m_passwordMode;
    QLineEdit *m_keyFile;
    QLineEdit *m_passphrase;
    QLineEdit *m_password;
    QLineEdit *m_mountRoot;
    QLineEdit *m_setupTask;
    QLabel *m_error;
};

} // namespace TrainDesk::Ui

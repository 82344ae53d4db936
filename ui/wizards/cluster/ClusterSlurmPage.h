#pragma once

#include "store/Entities.h"

#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace TrainDesk::Ui {

class ClusterWizard;

// 2 (Slurm): the login node (this machine, or user@host[:port] logged in to over SSH)
// and the defaults of the jobs' sbatch options; "List partitions" asks sinfo on the login
// node. The connection test then checks the login and the partition.
class ClusterSlurmPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit ClusterSlurmPage(ClusterWizard *wizard);

    SlurmSettings settings() const;
    bool isComplete() const override;
    int nextId() const override;

private:
    QString problem() const;
    void revalidate();
    void listPartitions();

    ClusterWizard *m_wizard;
    QCheckBox *m_loginIsLocal;
    QLineEdit *m_login;
    QComboBox *m_partition;
    QPushButton *m_list;
    QLineEdit *m_account;
    QLineEdit *m_qos;
    QSpinBox *m_gpus;
    QLabel *m_status;
    int m_request = -1;
};

} // namespace TrainDesk::Ui

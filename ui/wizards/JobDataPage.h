#pragma once

#include "datasets/DataSetPresence.h"
#include "store/Entities.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QPushButton;

namespace TrainDesk {
class Backend;
class DataSetWorker;
}

namespace TrainDesk::Ui {

class DataSetFetchBar;

// For a template that trains on a data set: which data set, from which share (those the
// chosen cluster's nodes see), and whether the share holds it. Fetch now (or From file…)
// places it there; NewJobWizard fetches it before submitting when it is still missing.
class JobDataPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit JobDataPage(Backend *backend, QWidget *parent = nullptr);
    ~JobDataPage() override;

    // The template's data set is the first choice; the shares are those of the target
    // workspace that the target cluster's nodes see.
    void initializePage() override;
    bool isComplete() const override;

    QString dataSetName() const;
    QString shareName() const;
    // Whether the share holds the data set, verified, as last read.
    bool dataReady() const { return m_known && m_state == DataSetPresence::State::Fetched; }
    bool fetching() const;
    // Fetches the chosen data set into the chosen share (`from`: files given by hand).
    void fetch(const QStringList &from = {});
    void stopFetch();

    QComboBox *dataSetCombo() const { return m_dataSet; }
    QComboBox *shareCombo() const { return m_share; }
    QPushButton *fetchButton() const;

Q_SIGNALS:
    void stateRead();
    // While a fetch runs: a line for the user.
    void fetchStatus(const QString &text);
    void fetchFinished(const QString &error);

private:
    void readState();
    const Share *chosenShare() const;

    Backend *m_backend;
    DataSetWorker *m_worker;
    QComboBox *m_dataSet;
    QComboBox *m_share;
    QLabel *m_stateLabel;
    DataSetFetchBar *m_bar;
    QString m_preparedFor;  // template data set, workspace and cluster the choices were made for
    int m_statesRequest = 0;
    bool m_known = false;
    DataSetPresence::State m_state = DataSetPresence::State::Absent;
};

} // namespace TrainDesk::Ui

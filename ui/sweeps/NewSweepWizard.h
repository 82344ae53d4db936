#pragma once

#include "common/Result.h"
#include "sweeps/SweepRequest.h"

#include <QPointer>
#include <QWizard>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QMessageBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace TrainDesk {
class Backend;
}

namespace TrainDesk::Ui {

// New sweep from a job: page 1 picks the job, the sweep's name and cluster, and the fields
// that vary (a string field of the job.json, the text in it that varies, the parameter's
// name and its values or range); page 2 the search (grid or random, trials, seed, the
// limit, the metric and early stopping) and shows how many trials that makes before
// anything is submitted.
class NewSweepWizard : public QWizard
{
    Q_OBJECT

public:
    NewSweepWizard(Backend *backend, QWidget *parent = nullptr);

    // The job the sweep starts from (its experiment and cluster come with it).
    void presetJob(qint64 jobId);
    // One varied field: row of the parameters table (tests and the user fill the same cells).
    void addParameter(const QString &fieldPath, const QString &text, const QString &name, const QString &values);

    // The request the pages describe now, or why there is none.
    Result<SweepRequest> request() const;
    QString trialCountText() const;
    int previewedTrials() const { return m_previewTrials; }

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *samplingBox() const { return m_sampling; }
    QSpinBox *trialsBox() const { return m_trials; }
    QSpinBox *limitBox() const { return m_limit; }
    // The metric: a chooser of those the job reported (its run summary), or the bundled
    // trainer's when it has not run; editable for any other name.
    QComboBox *metricBox() const { return m_metric; }
    QLineEdit *metricEdit() const;
    QComboBox *goalBox() const { return m_goal; }
    QComboBox *earlyStopBox() const { return m_earlyStop; }
    QTableWidget *parameterTable() const { return m_params; }
    // Finish: creates the sweep (sweepCreated, then the wizard closes) once the trial count is known.
    void accept() override;
    // Esc, Cancel or the window's close past the first page (or with parameters) asks before
    // the sweep described is thrown away: pendingQuestion() until answered.
    void reject() override;
    QMessageBox *pendingQuestion() const { return m_question; }

Q_SIGNALS:
    void sweepCreated(qint64 sweepId);
    void previewed();  // the trial count was worked out again

protected:
    bool validateCurrentPage() override;

private:
    // The constructor's steps.
    QWizardPage *createFieldsPage();
    QWizardPage *createSearchPage();
    void connectInputs();
    void connectBackend();
    void jobChosen();

    void fillJobs();
    void schedulePreview();
    void preview();

    Backend *m_backend;
    QComboBox *m_job;
    QComboBox *m_cluster;
    QLineEdit *m_name;
    QTableWidget *m_params;
    QLabel *m_paramsError;
    QComboBox *m_sampling;
    QSpinBox *m_trials;
    QSpinBox *m_seed;
    QSpinBox *m_limit;
    QComboBox *m_metric;
    QComboBox *m_goal;
    bool m_goalChosen = false;  // the user set the goal: a metric chosen no longer sets it
    int m_metricsRequest = -1;
    void fillMetrics(const QStringList &names);
    void requestMetrics(qint64 jobId);
    QComboBox *m_earlyStop;
    QLabel *m_count;
    QTimer *m_previewTimer;
    QPointer<QMessageBox> m_question;
    bool m_discard = false;
    int m_previewRequest = -1;
    int m_previewTrials = 0;
    int m_createRequest = -1;
};

} // namespace TrainDesk::Ui

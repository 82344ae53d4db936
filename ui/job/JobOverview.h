#pragma once

#include "store/Entities.h"
#include "store/ReliabilityRecords.h"

#include <QTimer>
#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;

namespace TrainDesk::Ui {

// The job's facts: state, times, exit code, errors, nodes and what it runs, with Start
// for a draft and Terminate for a job that has not ended.
class JobOverview : public QWidget
{
    Q_OBJECT

public:
    explicit JobOverview(QWidget *parent = nullptr);

    void setJob(const Job &job, const QString &experiment, const QString &cluster);
    QString stateText() const;
    // Why a queued job waits (QueueReason); empty hides the row.
    void setWaitReason(const QString &reason);
    QString waitReason() const;
    // The attempts before this one of a retried job, and its silent ranks ("" when none):
    // rows shown only when there is something to say.
    void setReliability(const QList<JobAttempt> &attempts, const QString &silence);

    // What the job runs, read from its job.json (empty when it cannot be told).
    static QString commandOf(const QByteArray &spec);

Q_SIGNALS:
    void startRequested(qint64 jobId);
    void terminateRequested(qint64 jobId);
    void cloneRequested(qint64 jobId);

private:
    void updateDuration();
    QLabel *addRow(const QString &label);

    Job m_job;
    QFormLayout *m_form;
    QLabel *m_name, *m_experiment, *m_cluster, *m_state, *m_created, *m_started, *m_ended, *m_duration,
        *m_exitCode, *m_nodes, *m_command, *m_jobDir, *m_errors, *m_waiting, *m_attempts, *m_silence;
    QPushButton *m_start;
    QPushButton *m_terminate;
    QPushButton *m_clone;
    QTimer m_clock;  // the duration of a running job grows
};

} // namespace TrainDesk::Ui

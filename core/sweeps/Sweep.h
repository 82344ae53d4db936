#pragma once

#include "SweepParam.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace TrainDesk {

enum class SweepSampling { Grid, Random };
// Completed: every trial ended and one or more succeeded (or was stopped early, judged);
// Failed: every trial ended and none did.
enum class SweepState { Running, Stopping, Stopped, Completed, Failed };
QString toString(SweepSampling sampling);
QString toString(SweepState state);
std::optional<SweepSampling> sweepSamplingFromString(const QString &text);
std::optional<SweepState> sweepStateFromString(const QString &text);

// A hyperparameter sweep: one job.json template run once per trial with the trial's
// parameter values put in (ParamSubstitution), every trial a job of the sweep's experiment
// named "<sweep>-<n>". The trials' values are drawn when the sweep is made and stored with
// it, so the agent only starts what is written down (a restart draws nothing again).
struct Sweep
{
    qint64 id = 0;
    qint64 experimentId = 0;
    qint64 clusterId = 0;
    QString name;
    QByteArray spec;             // the job.json template (secrets sealed, as a job's)
    QList<SweepParam> params;
    SweepSampling sampling = SweepSampling::Grid;
    int trialCount = 0;
    qint64 seed = 0;             // random sampling: the draws come from this
    int maxConcurrent = 1;       // trials queued or running at once
    QString metric;              // the series that ranks trials (and early stopping reads)
    bool maximize = true;        // --goal max|min
    QString earlyStop;           // EarlyStopPolicy's text; "" for none
    bool noContainer = false;    // trials run without the template's container
    SweepState state = SweepState::Running;
    QDateTime created;
    QDateTime ended;

    bool active() const { return state == SweepState::Running || state == SweepState::Stopping; }
    QString trialJobName(int index) const { return QStringLiteral("%1-%2").arg(name).arg(index); }
};

// A trial's own bookkeeping; its execution state is its job's.
enum class TrialStatus {
    Pending,       // not submitted yet
    Submitted,     // its job exists (job_id; 0 when the job was deleted since)
    Refused,       // its job.json was refused at submit (reason says why); the sweep goes on
    EarlyStopped,  // ended by the early-stopping policy (reason says why)
    Stopped,       // ended by `sweep stop`
    Skipped,       // the sweep was stopped before the trial started
};
QString toString(TrialStatus status);
std::optional<TrialStatus> trialStatusFromString(const QString &text);

struct SweepTrial
{
    qint64 sweepId = 0;
    int index = 0;               // 1-based: the job is "<sweep>-<index>"
    QJsonObject params;          // NAME -> value (an object for a DictParam)
    qint64 jobId = 0;
    TrialStatus status = TrialStatus::Pending;
    QString reason;
};

} // namespace TrainDesk

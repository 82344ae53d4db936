#pragma once

#include "common/Result.h"

#include <QList>
#include <QString>

namespace TrainDesk {

// When a running trial is ended before its time, decided from the metric series the agent
// stores (one value per evaluation, in order: the n-th evaluation of every trial is compared
// with the n-th of the others, whatever the clock says).
//   median[:after=N,min=K]     HyperDrive's median stopping: a trial whose best value so far is
//                              worse than the median of the other trials' running averages,
//                              judged only once K other trials (default 3, as Ray Tune's
//                              min_samples_required) reached that evaluation
//   bandit:slack=S[,after=N]   a trial whose last value is worse than the best by more than
//                              the factor 1+S
//   asha[:reduction=R,after=N] successive halving, asynchronous: at N, N*R, N*R^2, ...
//                              evaluations only the best 1/R of the trials that got there go on
// `after`: no trial is judged before N evaluations (median, bandit) or N is the first rung (asha).
struct EarlyStopPolicy
{
    enum class Kind { None, Median, Bandit, Asha };
    Kind kind = Kind::None;
    int after = 1;
    double slack = 0.1;
    int reduction = 3;
    int minPeers = 3;       // median: other trials at the evaluation before any judgement

    static Result<EarlyStopPolicy> parse(const QString &text);
    QString text() const;  // the canonical spelling ("" for none)
};

struct TrialSeries
{
    int index = 0;          // the trial's
    bool running = false;   // only running trials are judged; every trial counts as a peer
    QList<double> values;   // the metric, one per evaluation
};

struct StopDecision
{
    int index = 0;
    // "acc 0.09 below the median 0.41 at evaluation 6 (median rule, 3 peers)": what a
    // stopped trial's job says after "stopped early: ".
    QString reason;
};

namespace EarlyStopping {

// The running trials to end now, each with why. `metric` only names it in the reasons.
QList<StopDecision> decide(const EarlyStopPolicy &policy, const QString &metric, bool maximize,
                           const QList<TrialSeries> &trials);

} // namespace EarlyStopping
} // namespace TrainDesk

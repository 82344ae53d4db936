#pragma once

#include "Sweep.h"

#include <QJsonObject>

#include <optional>

namespace TrainDesk {

class Store;
class SweepStore;
class TrialMetric;

// A sweep as people look at it (CLI `sweep show`, the GUI's sweep view): each trial with
// its values, its job's state and its metric's last and best value, and the best trial.
struct TrialRow
{
    int index = 0;
    QString job;              // "<sweep>-<n>"
    qint64 jobId = 0;         // 0: not submitted (or its job was deleted)
    QString state;            // the job's state, else the trial's status (pending, refused, skipped)
    TrialStatus status = TrialStatus::Pending;
    QString reason;           // why it was refused or stopped
    QJsonObject params;
    std::optional<double> last;
    std::optional<double> best;
    int evaluations = 0;      // values of the metric so far
    QString jobDir;
};

struct SweepSummary
{
    Sweep sweep;
    QList<TrialRow> trials;
    int bestIndex = 0;        // the trial with the best metric value; 0: none has one yet
    // Set when no trial's records carry the metric and at least one trial ended: the number
    // fields they do carry (none when they wrote no records).
    std::optional<QStringList> metricFieldsInstead;

    // `metric`: the sweep's metric series kept from an earlier read (only new records are
    // read then), or none (all of them are read).
    static SweepSummary read(const Store &store, const SweepStore &sweeps, const Sweep &sweep,
                             TrialMetric *metric = nullptr);
    const TrialRow *bestTrial() const;
    int countIn(const QStringList &states) const;
    // The parameter columns: one per parameter, "NAME.key" per key of a DictParam.
    QStringList parameterColumns() const;
    // Why no trial has a metric value although trials ended (a misspelt --metric, a script
    // that writes no records), naming the fields they have; empty otherwise.
    QString missingMetricNote() const;
    static QJsonValue parameterValue(const QJsonObject &params, const QString &column);
    QJsonObject toJson(const QString &workspace, const QString &experiment, const QString &cluster) const;

private:
    static void noteMissingMetric(SweepSummary &summary, const TrialMetric &metric);
};

} // namespace TrainDesk

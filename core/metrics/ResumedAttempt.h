#pragma once

#include "metrics/MetricRecord.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// The one rule for a retried job's records (jobs/JobRetry): its next attempt resumes at the
// epoch after its checkpoint and does that epoch again, so from the epoch it resumed at its
// records replace the earlier attempts' records of the kinds that count epochs. The epoch it
// resumed at is that of its first train record with a global step (marksResumption): the first
// step that goes back. The agent applies the rule to the stored rows (in SQL,
// MetricRows::removeRepeated: the attempt's first row that marksResumptionSql picks); the charts
// to the records they hold (resumption, withoutReplaced), so both show each epoch once.
namespace ResumedAttempt {

// The kinds a resumed attempt replaces: train, val, rank and epoch records.
const QStringList &replacedKinds();
// Whether the resumed attempt's records replace `earlier`, one of the earlier attempts'.
bool replaces(int resumedEpoch, const MetricRecord &earlier);
// The records of `earlier` that stay.
QList<MetricRecord> withoutReplaced(const QList<MetricRecord> &earlier, int resumedEpoch);

// Whether `r` can mark where an attempt resumed: a train record with a global step. A new
// attempt's first such record holds the epoch it resumed at.
bool marksResumption(const MetricRecord &r);

// Where a new attempt starts in `arriving`: at its first record that marksResumption and goes
// back to (or before) the last such step held, `lastGlobalStep` before it, the ones of
// `arriving` after it (the records before it are the earlier attempt's end); none when
// nothing is held (lastGlobalStep < 0) or no step goes back. The charts see no attempts:
// the step going back is how they know one.
struct Resumption
{
    qsizetype from = 0;  // arriving[from] is the new attempt's first record that marksResumption
    int epoch = -1;      // its epoch: where the attempt resumed
};
std::optional<Resumption> resumption(const QList<MetricRecord> &arriving, qint64 lastGlobalStep);

// replaces()'s kinds in SQL over job_metrics (MetricRecordSql): a row of a replaced kind.
QString replacedKindSql();
// marksResumption() in SQL over job_metrics: the store takes the epoch of the attempt's first
// row (lowest id) it picks.
QString marksResumptionSql();

} // namespace ResumedAttempt
} // namespace TrainDesk

#pragma once

#include "metrics/MetricRecord.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// The one rule for a retried job's records (jobs/JobRetry): its next attempt resumes at the
// epoch after its checkpoint and does that epoch again, so from the epoch it resumed at its
// records replace the earlier attempts' records of the kinds that count epochs. The agent
// applies it to the stored rows (in SQL, MetricRows::removeRepeated); the charts to the records they hold
// (withoutReplaced), so both show each epoch once.
namespace ResumedAttempt {

// The kinds a resumed attempt replaces: train, val, rank and epoch records.
const QStringList &replacedKinds();
// Whether the resumed attempt's records replace `earlier`, one of the earlier attempts'.
bool replaces(int resumedEpoch, const MetricRecord &earlier);
// The records of `earlier` that stay.
QList<MetricRecord> withoutReplaced(const QList<MetricRecord> &earlier, int resumedEpoch);

// The epoch `arriving` resumes at when it is a new attempt's: its first train record goes back
// to (or before) `lastGlobalStep`, the global step of the last train record held; none else.
std::optional<int> resumedEpoch(const QList<MetricRecord> &arriving, qint64 lastGlobalStep);

// replaces()'s kinds in SQL over job_metrics (MetricRecordSql): a row of a replaced kind.
QString replacedKindSql();

} // namespace ResumedAttempt
} // namespace TrainDesk

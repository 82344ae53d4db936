#pragma once

#include <QLatin1StringView>

namespace TrainDesk::MetricRecordSql {

// The fields of a stored metric row (the store's job_metrics.record) that SQL reads, as
// SQLite's JSON functions read them: the same fields MetricRecord::fromJson decodes as
// `kind`, `epoch` and `globalStep`. The store holds rows and knows no record; a rule over records that must
// run in SQL (ResumedAttempt) is written with these, so a field is named in one place.
inline constexpr QLatin1StringView kind{"json_extract(record, '$.kind')"};
inline constexpr QLatin1StringView epoch{"json_extract(record, '$.epoch')"};
inline constexpr QLatin1StringView globalStep{"json_extract(record, '$.global_step')"};

} // namespace TrainDesk::MetricRecordSql

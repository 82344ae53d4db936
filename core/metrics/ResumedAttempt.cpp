#include "ResumedAttempt.h"

#include "MetricRecordSql.h"

#include <algorithm>

namespace TrainDesk::ResumedAttempt {

const QStringList &replacedKinds()
{
    static const QStringList kinds{QStringLiteral("train"), QStringLiteral("rank"), QStringLiteral("val"),
                                   QStringLiteral("epoch")};
    return kinds;
}

bool replaces(int resumedEpoch, const MetricRecord &earlier)
{
    return replacedKinds().contains(earlier.kind) && earlier.epoch >= resumedEpoch;
}

QList<MetricRecord> withoutReplaced(const QList<MetricRecord> &earlier, int resumedEpoch)
{
    QList<MetricRecord> kept;
    kept.reserve(earlier.size());
    for (const MetricRecord &r : earlier) {
        if (!replaces(resumedEpoch, r))
            kept.append(r);
    }
    return kept;
}

std::optional<int> resumedEpoch(const QList<MetricRecord> &arriving, qint64 lastGlobalStep)
{
    const auto firstTrain = std::find_if(arriving.cbegin(), arriving.cend(), [](const MetricRecord &r) {
        return r.kind == QLatin1String("train") && r.globalStep >= 0;
    });
    if (lastGlobalStep < 0 || firstTrain == arriving.cend() || firstTrain->globalStep > lastGlobalStep)
        return std::nullopt;
    return firstTrain->epoch;
}

QString replacedKindSql()
{
    return QStringLiteral("%1 IN ('%2')").arg(MetricRecordSql::kind, replacedKinds().join(QStringLiteral("', '")));
}

} // namespace TrainDesk::ResumedAttempt

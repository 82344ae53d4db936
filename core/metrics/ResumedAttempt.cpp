#include "ResumedAttempt.h"

#include "MetricRecordSql.h"

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

bool marksResumption(const MetricRecord &r)
{
    return r.kind == QLatin1String("train") && r.globalStep >= 0;
}

std::optional<Resumption> resumption(const QList<MetricRecord> &arriving, qint64 lastGlobalStep)
{
    if (lastGlobalStep < 0)
        return std::nullopt;
    // The last step held grows with the arriving records until one goes back: a batch may
    // hold the earlier attempt's last records and the new one's first.
    for (qsizetype i = 0; i < arriving.size(); ++i) {
        const MetricRecord &r = arriving.at(i);
        if (!marksResumption(r))
            continue;
        if (r.globalStep <= lastGlobalStep)
            return Resumption{i, r.epoch};
        lastGlobalStep = r.globalStep;
    }
    return std::nullopt;
}

QString replacedKindSql()
{
    return QStringLiteral("%1 IN ('%2')").arg(MetricRecordSql::kind, replacedKinds().join(QStringLiteral("', '")));
}

QString marksResumptionSql()
{
    return QStringLiteral("%1 = 'train' AND %2 >= 0").arg(MetricRecordSql::kind, MetricRecordSql::globalStep);
}

} // namespace TrainDesk::ResumedAttempt

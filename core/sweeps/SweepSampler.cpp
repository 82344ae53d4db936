#include "SweepSampler.h"

#include <QLocale>

namespace TrainDesk::SweepSampler {

Result<qint64> gridSize(const QList<SweepParam> &params)
{
    // Counted in doubles (an overflow is inf, still above the limit), stopping at the first
    // parameter past it; only then are the values made, at most maxTrials of each.
    double bound = 1;
    for (const SweepParam &p : params) {
        const auto count = p.gridCount();
        if (!count)
            return count.failure();
        if (*count > double(maxTrials))
            return fail(SweepParams::tooManyValues(p, *count));
        bound *= *count;
        if (bound > double(maxTrials))
            return fail(QStringLiteral("the grid has more than %1 trials (at parameter %2: %3 combinations so far); "
                                       "give fewer values or sample at random (--sampling random --trials N)")
                            .arg(QLocale(QLocale::English).toString(maxTrials), p.name,
                                 SweepParams::numberText(bound)));
    }
    // INTEGER rounding may merge values: the exact size from the values themselves.
    qint64 size = 1;
    for (const SweepParam &p : params) {
        const auto values = p.gridValues();
        if (!values)
            return values.failure();
        size *= values->size();
    }
    return size;
}

Result<QList<QJsonObject>> trials(const QList<SweepParam> &params, SweepSampling sampling, int count, qint64 seed)
{
    if (params.isEmpty())
        return fail(QStringLiteral("a sweep needs one or more parameters (--params FILE or --param NAME=...)"));
    QList<QJsonObject> result;
    if (sampling == SweepSampling::Random) {
        if (count < 1 || count > maxTrials)
            return fail(QStringLiteral("--trials: random sampling needs 1 to %1 trials, found %2").arg(maxTrials).arg(count));
        std::mt19937_64 random{quint64(seed)};
        for (int t = 0; t < count; ++t) {
            QJsonObject values;
            for (const SweepParam &p : params)
                values.insert(p.name, p.draw(random));
            result << values;
        }
        return result;
    }
    const auto size = gridSize(params);
    if (!size)
        return size.failure();
    QList<QJsonArray> axes;
    for (const SweepParam &p : params)
        axes << *p.gridValues();
    for (qint64 n = 0; n < *size; ++n) {
        QJsonObject values;
        qint64 rest = n;
        for (qsizetype i = axes.size() - 1; i >= 0; --i) {
            values.insert(params[i].name, axes[i].at(rest % axes[i].size()));
            rest /= axes[i].size();
        }
        result << values;
    }
    return result;
}

} // namespace TrainDesk::SweepSampler

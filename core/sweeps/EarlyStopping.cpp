#include "EarlyStopping.h"

#include "SweepParam.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace TrainDesk {

namespace {

bool better(double a, double b, bool maximize) { return maximize ? a > b : a < b; }

double bestOf(const QList<double> &values, qsizetype count, bool maximize)
{
    double best = values.first();
    for (qsizetype i = 1; i < count; ++i)
        best = better(values[i], best, maximize) ? values[i] : best;
    return best;
}

double averageOf(const QList<double> &values, qsizetype count)
{
    return std::accumulate(values.begin(), values.begin() + count, 0.0) / double(count);
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

QString num(double v) { return QString::number(v, 'g', 4); }

// The evaluation at which `trial` is compared with its peers: its own latest one, or the
// latest that some other trial has reached too (a trial that started first waits for peers).
qsizetype comparablePoint(const TrialSeries &trial, const QList<TrialSeries> &all)
{
    qsizetype point = 0;
    for (const TrialSeries &peer : all) {
        if (peer.index != trial.index)
            point = std::max(point, std::min(peer.values.size(), trial.values.size()));
    }
    return point;
}

// The latest evaluation of `trial` that `peers` other trials reached too; 0 when fewer
// than that many others have any.
qsizetype pointWithPeers(const TrialSeries &trial, const QList<TrialSeries> &all, int peers)
{
    QList<qsizetype> lengths;
    for (const TrialSeries &peer : all) {
        if (peer.index != trial.index)
            lengths << peer.values.size();
    }
    if (lengths.size() < peers)
        return 0;
    std::sort(lengths.begin(), lengths.end(), std::greater<>());
    return std::min(trial.values.size(), lengths[peers - 1]);
}

std::optional<QString> medianRule(const EarlyStopPolicy &policy, const QString &metric, bool maximize,
                                  const TrialSeries &trial, const QList<TrialSeries> &all)
{
    // A median of one or two others is noise (a slow machine made a learning trial look
    // bad against one fast peer): judged only with minPeers others at the same evaluation.
    const qsizetype at = pointWithPeers(trial, all, policy.minPeers);
    if (at < policy.after || at == 0)
        return std::nullopt;
    QList<double> averages;
    for (const TrialSeries &peer : all) {
        if (peer.index != trial.index && peer.values.size() >= at)
            averages << averageOf(peer.values, at);
    }
    const double m = median(averages);
    const double best = bestOf(trial.values, at, maximize);
    if (!better(m, best, maximize))
        return std::nullopt;
    return QStringLiteral("%1 %2 %3 the median %4 at evaluation %5 (median rule: its best so far against the averages "
                          "of %6 peers)")
        .arg(metric, num(best), maximize ? QStringLiteral("below") : QStringLiteral("above"), num(m))
        .arg(at).arg(averages.size());
}

std::optional<QString> banditRule(const EarlyStopPolicy &policy, const QString &metric, bool maximize,
                                  const TrialSeries &trial, const QList<TrialSeries> &all)
{
    const qsizetype at = comparablePoint(trial, all);
    if (at < policy.after || at == 0)
        return std::nullopt;
    double best = trial.values[at - 1];
    for (const TrialSeries &peer : all) {
        if (peer.values.size() >= at)
            best = better(bestOf(peer.values, at, maximize), best, maximize) ? bestOf(peer.values, at, maximize) : best;
    }
    const double value = trial.values[at - 1];
    const bool outside = maximize ? value * (1 + policy.slack) < best : value > best * (1 + policy.slack);
    if (!outside)
        return std::nullopt;
    return QStringLiteral("bandit: %1 %2 at evaluation %3 is outside slack %4 of the best %5")
        .arg(metric, num(value)).arg(at).arg(num(policy.slack), num(best));
}

std::optional<QString> ashaRule(const EarlyStopPolicy &policy, const QString &metric, bool maximize,
                                const TrialSeries &trial, const QList<TrialSeries> &all)
{
    // The highest rung the trial reached.
    qsizetype rung = policy.after;
    if (trial.values.size() < rung)
        return std::nullopt;
    while (rung * policy.reduction <= trial.values.size())
        rung *= policy.reduction;
    QList<double> atRung;
    for (const TrialSeries &peer : all) {
        if (peer.values.size() >= rung)
            atRung << bestOf(peer.values, rung, maximize);
    }
    if (atRung.size() < policy.reduction)
        return std::nullopt;  // too few to halve yet
    std::sort(atRung.begin(), atRung.end(), [maximize](double a, double b) { return better(a, b, maximize); });
    const qsizetype keep = std::max<qsizetype>(1, atRung.size() / policy.reduction);
    const double cutoff = atRung[keep - 1];
    const double mine = bestOf(trial.values, rung, maximize);
    if (!better(cutoff, mine, maximize))
        return std::nullopt;
    return QStringLiteral("asha: %1 %2 at rung %3 is not in the best %4 of %5 trials there (cutoff %6)")
        .arg(metric, num(mine)).arg(rung).arg(keep).arg(atRung.size()).arg(num(cutoff));
}

} // namespace

Result<EarlyStopPolicy> EarlyStopPolicy::parse(const QString &text)
{
    EarlyStopPolicy policy;
    if (text.trimmed().isEmpty() || text == QLatin1String("none"))
        return policy;
    const QString kind = text.section(QLatin1Char(':'), 0, 0).trimmed();
    const QString options = text.section(QLatin1Char(':'), 1);
    const QString usage = QStringLiteral("--early-stop '%1': expected median[:after=N,min=K], bandit:slack=S[,after=N] or "
                                         "asha[:reduction=R,after=N]").arg(text);
    if (kind == QLatin1String("median"))
        policy.kind = Kind::Median;
    else if (kind == QLatin1String("bandit"))
        policy.kind = Kind::Bandit;
    else if (kind == QLatin1String("asha"))
        policy.kind = Kind::Asha;
    else
        return fail(usage);
    bool slackGiven = false;
    for (const QString &option : options.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = option.section(QLatin1Char('='), 0, 0).trimmed();
        const QString value = option.section(QLatin1Char('='), 1).trimmed();
        bool ok = false;
        if (key == QLatin1String("after")) {
            policy.after = value.toInt(&ok);
            if (!ok || policy.after < 1)
                return fail(QStringLiteral("--early-stop '%1': after is a whole number of evaluations, 1 or more").arg(text));
        } else if (key == QLatin1String("min") && policy.kind == Kind::Median) {
            policy.minPeers = value.toInt(&ok);
            if (!ok || policy.minPeers < 1)
                return fail(QStringLiteral("--early-stop '%1': min is a whole number of other trials, 1 or more").arg(text));
        } else if (key == QLatin1String("slack") && policy.kind == Kind::Bandit) {
            policy.slack = value.toDouble(&ok);
            slackGiven = true;
            if (!ok || !(policy.slack > 0) || !std::isfinite(policy.slack))
                return fail(QStringLiteral("--early-stop '%1': slack is a number above 0").arg(text));
        } else if (key == QLatin1String("reduction") && policy.kind == Kind::Asha) {
            policy.reduction = value.toInt(&ok);
            if (!ok || policy.reduction < 2)
                return fail(QStringLiteral("--early-stop '%1': reduction is a whole number, 2 or more").arg(text));
        } else {
            return fail(QStringLiteral("%1 (unknown option '%2')").arg(usage, key));
        }
    }
    if (policy.kind == Kind::Bandit && !slackGiven)
        return fail(QStringLiteral("--early-stop '%1': bandit needs slack=S (0.1: within 10 % of the best)").arg(text));
    return policy;
}

QString EarlyStopPolicy::text() const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::Median:
        // min only when not the default, so that older sweeps' text reads the same.
        return minPeers == 3 ? QStringLiteral("median:after=%1").arg(after)
                             : QStringLiteral("median:after=%1,min=%2").arg(after).arg(minPeers);
    case Kind::Bandit:
        return QStringLiteral("bandit:slack=%1,after=%2").arg(SweepParams::numberText(slack)).arg(after);
    case Kind::Asha:
        return QStringLiteral("asha:reduction=%1,after=%2").arg(reduction).arg(after);
    }
    return {};
}

QList<StopDecision> EarlyStopping::decide(const EarlyStopPolicy &policy, const QString &metric, bool maximize,
                                          const QList<TrialSeries> &trials)
{
    QList<StopDecision> decisions;
    if (policy.kind == EarlyStopPolicy::Kind::None)
        return decisions;
    for (const TrialSeries &trial : trials) {
        if (!trial.running || trial.values.isEmpty())
            continue;
        std::optional<QString> why;
        switch (policy.kind) {
        case EarlyStopPolicy::Kind::Median:
            why = medianRule(policy, metric, maximize, trial, trials);
            break;
        case EarlyStopPolicy::Kind::Bandit:
            why = banditRule(policy, metric, maximize, trial, trials);
            break;
        case EarlyStopPolicy::Kind::Asha:
            why = ashaRule(policy, metric, maximize, trial, trials);
            break;
        case EarlyStopPolicy::Kind::None:
            break;
        }
        if (why)
            decisions.append({trial.index, *why});
    }
    return decisions;
}

} // namespace TrainDesk

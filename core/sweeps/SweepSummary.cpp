#include "SweepSummary.h"

#include "SweepStore.h"
#include "TrialMetric.h"
#include "store/Store.h"

#include <QJsonArray>

#include <algorithm>

namespace TrainDesk {

SweepSummary SweepSummary::read(const Store &store, const SweepStore &sweeps, const Sweep &sweep, TrialMetric *kept)
{
    SweepSummary summary;
    summary.sweep = sweep;
    TrialMetric own(sweep.metric);
    TrialMetric &metric = kept ? *kept : own;
    for (const SweepTrial &t : sweeps.trials(sweep.id)) {
        TrialRow row;
        row.index = t.index;
        row.job = sweep.trialJobName(t.index);
        row.status = t.status;
        row.reason = t.reason;
        row.params = t.params;
        row.state = toString(t.status);
        // Its job was made and deleted since (the store cleared job_id): not "submitted".
        if (t.jobId == 0 && (t.status == TrialStatus::Submitted || t.status == TrialStatus::EarlyStopped
                             || t.status == TrialStatus::Stopped))
            row.state = QStringLiteral("deleted");
        if (t.jobId) {
            if (const auto job = store.jobById(t.jobId)) {
                row.jobId = job->id;
                row.state = toString(job->state);
                row.jobDir = job->jobDir;
                if (!sweep.metric.isEmpty()) {
                    const QList<double> &series = metric.series(store, job->id);
                    row.evaluations = int(series.size());
                    if (!series.isEmpty())
                        row.last = series.last();
                    row.best = TrialMetric::best(series, sweep.maximize);
                }
            } else {
                row.state = QStringLiteral("deleted");
            }
        }
        summary.trials << row;
    }
    const TrialRow *best = nullptr;
    for (const TrialRow &row : summary.trials) {
        if (row.best && (!best || (sweep.maximize ? *row.best > *best->best : *row.best < *best->best)))
            best = &row;
    }
    summary.bestIndex = best ? best->index : 0;
    noteMissingMetric(summary, metric);
    return summary;
}

void SweepSummary::noteMissingMetric(SweepSummary &summary, const TrialMetric &metric)
{
    const bool anyEnded = std::any_of(summary.trials.begin(), summary.trials.end(), [](const TrialRow &r) {
        return r.jobId && (r.state == QLatin1String("succeeded") || r.state == QLatin1String("failed"));
    });
    if (summary.sweep.metric.isEmpty() || summary.bestIndex || !anyEnded)
        return;
    QSet<QString> fields;
    for (const TrialRow &r : std::as_const(summary.trials)) {
        if (r.jobId) {
            for (const QString &f : metric.fieldsInstead(r.jobId))
                fields.insert(f);
        }
    }
    QStringList sorted(fields.begin(), fields.end());
    sorted.sort();
    summary.metricFieldsInstead = sorted;
}

QString SweepSummary::missingMetricNote() const
{
    if (!metricFieldsInstead)
        return {};
    if (metricFieldsInstead->isEmpty())
        return QStringLiteral("no trial wrote a metric record (docs/METRICS.md: how a script writes them), so none "
                              "has '%1' to rank by")
            .arg(sweep.metric);
    return QStringLiteral("no trial's metric records have '%1'; they have: %2")
        .arg(sweep.metric, metricFieldsInstead->join(QStringLiteral(", ")));
}

const TrialRow *SweepSummary::bestTrial() const
{
    for (const TrialRow &row : trials) {
        if (row.index == bestIndex)
            return &row;
    }
    return nullptr;
}

int SweepSummary::countIn(const QStringList &states) const
{
    return int(std::count_if(trials.begin(), trials.end(), [&](const TrialRow &r) { return states.contains(r.state); }));
}

QStringList SweepSummary::parameterColumns() const
{
    QStringList columns;
    for (const SweepParam &p : sweep.params) {
        if (p.kind != SweepParam::Kind::Dict) {
            columns << p.name;
            continue;
        }
        for (const QJsonValue &v : p.values) {
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QString column = p.name + QLatin1Char('.') + it.key();
                if (!columns.contains(column))
                    columns << column;
            }
        }
    }
    return columns;
}

QJsonValue SweepSummary::parameterValue(const QJsonObject &params, const QString &column)
{
    const qsizetype dot = column.indexOf(QLatin1Char('.'));
    if (dot < 0)
        return params.value(column);
    return params.value(column.left(dot)).toObject().value(column.mid(dot + 1));
}

QJsonObject SweepSummary::toJson(const QString &workspace, const QString &experiment, const QString &cluster) const
{
    QJsonArray params, rows;
    for (const SweepParam &p : sweep.params)
        params.append(p.toJson());
    for (const TrialRow &r : trials) {
        QJsonObject row{{"index", r.index}, {"job", r.job}, {"state", r.state}, {"status", toString(r.status)},
                        {"parameters", r.params}, {"evaluations", r.evaluations}, {"best", r.index == bestIndex}};
        if (!r.reason.isEmpty())
            row.insert(QStringLiteral("reason"), r.reason);
        if (r.last)
            row.insert(QStringLiteral("lastMetric"), *r.last);
        if (r.best)
            row.insert(QStringLiteral("bestMetric"), *r.best);
        rows.append(row);
    }
    QJsonObject o{{"name", sweep.name},
                  {"workspace", workspace},
                  {"experiment", experiment},
                  {"cluster", cluster},
                  {"state", toString(sweep.state)},
                  {"created", sweep.created.toString(Qt::ISODate)},
                  {"sampling", toString(sweep.sampling)},
                  {"trialCount", int(trials.size())},
                  {"maxConcurrent", sweep.maxConcurrent},
                  {"parameters", params},
                  {"trials", rows},
                  {"completedTrials", countIn({QStringLiteral("succeeded"), QStringLiteral("failed"),
                                               QStringLiteral("refused"), QStringLiteral("skipped"), QStringLiteral("deleted")})},
                  {"runningTrials", countIn({QStringLiteral("running"), QStringLiteral("terminating")})}};
    if (sweep.sampling == SweepSampling::Random)
        o.insert(QStringLiteral("seed"), sweep.seed);
    if (sweep.ended.isValid())
        o.insert(QStringLiteral("ended"), sweep.ended.toString(Qt::ISODate));
    if (!sweep.metric.isEmpty()) {
        o.insert(QStringLiteral("metric"), sweep.metric);
        o.insert(QStringLiteral("goal"), sweep.maximize ? QStringLiteral("max") : QStringLiteral("min"));
    }
    if (!sweep.earlyStop.isEmpty())
        o.insert(QStringLiteral("earlyStop"), sweep.earlyStop);
    if (const TrialRow *b = bestTrial())
        o.insert(QStringLiteral("bestTrial"), QJsonObject{{"job", b->job}, {"parameters", b->params}, {"metric", *b->best}});
    if (const QString note = missingMetricNote(); !note.isEmpty())
        o.insert(QStringLiteral("metricNote"), note);
    return o;
}

} // namespace TrainDesk

#include "SweepCreate.h"

#include "EarlyStopping.h"
#include "ParamSubstitution.h"
#include "SweepSampler.h"
#include "SweepStore.h"
#include "jobs/JobSubmission.h"
#include "jobspec/JobSpec.h"
#include "jobspec/Secrets.h"
#include "launch/JobSpecContext.h"
#include "store/Names.h"
#include "store/Store.h"

#include <QRandomGenerator>

namespace TrainDesk::SweepCreate {

namespace {

QString valuesText(const QJsonObject &values)
{
    QStringList parts;
    for (auto it = values.begin(); it != values.end(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key(), SweepParams::valueText(it.value()));
    return parts.join(QLatin1Char(' '));
}

} // namespace

Result<SweepPreview> preview(Store &store, const SweepRequest &request)
{
    if (auto valid = validateName(QStringLiteral("sweep"), request.name); !valid)
        return valid.failure();
    const auto ws = store.workspace(request.workspace);
    if (!ws)
        return ws.failure();
    const auto exp = store.experiment(ws->id, request.experiment);
    if (!exp)
        return exp.failure();
    const auto cluster = store.cluster(ws->id, request.cluster);
    if (!cluster)
        return cluster.failure();
    if (request.maxConcurrent < 1)
        return fail(QStringLiteral("--max-concurrent: expected 1 or more, found %1").arg(request.maxConcurrent));
    const auto policy = EarlyStopPolicy::parse(request.earlyStop);
    if (!policy)
        return policy.failure();
    if (policy->kind != EarlyStopPolicy::Kind::None && request.metric.isEmpty())
        return fail(QStringLiteral("--early-stop needs --metric: the series it judges trials by"));
    if (request.sampling == SweepSampling::Grid && request.trials > 0)
        return fail(QStringLiteral("--trials is for random sampling; a grid runs every combination"));
    if (auto names = SweepParams::checkNames(request.params); !names)
        return names.failure();

    SweepPreview preview;
    preview.seed = request.seed ? *request.seed : qint64(QRandomGenerator::global()->bounded(1u << 31));
    const auto trials = SweepSampler::trials(request.params, request.sampling, request.trials, preview.seed);
    if (!trials)
        return trials.failure();
    preview.trials = *trials;
    // Trials are jobs "<sweep>-<n>": the longest name must be a job name, and free.
    const QString lastName = QStringLiteral("%1-%2").arg(request.name).arg(trials->size());
    if (auto valid = validateName(QStringLiteral("job"), lastName); !valid)
        return fail(QStringLiteral("sweep '%1' is too long a name for its trials' jobs (%2)").arg(request.name, valid.error()));
    for (qsizetype i = 1; i <= trials->size(); ++i) {
        const QString name = QStringLiteral("%1-%2").arg(request.name).arg(i);
        if (store.job(exp->id, name))
            return fail(QStringLiteral("job '%1' already exists in experiment '%2': trial %3 of sweep '%4' would take its "
                                       "name; pick another sweep name").arg(name, exp->name).arg(i).arg(request.name));
    }
    if (SweepStore(store).sweep(exp->id, request.name))
        return fail(QStringLiteral("sweep '%1' already exists in experiment '%2'").arg(request.name, exp->name));

    // Every trial's job.json as the agent will submit it, checked now.
    const SpecContext context = specContextFor(store, *ws, *cluster);
    for (qsizetype i = 0; i < trials->size(); ++i) {
        const auto substituted = ParamSubstitution::apply(request.spec, trials->at(i));
        if (!substituted)
            return substituted.failure();
        if (!substituted->unknown.isEmpty())
            return fail(QStringLiteral("the job.json names parameters the sweep does not have: %1")
                            .arg(substituted->unknown.join(QStringLiteral(", "))));
        if (i == 0) {
            for (const QString &unused : substituted->unused)
                preview.warnings << QStringLiteral("parameter %1 appears nowhere in the job.json (PARAM_%1): every "
                                                   "trial runs the same command for it").arg(unused);
        }
        const ParsedJobSpec parsed = parseJobSpec(substituted->json, context);
        if (parsed.hasErrors())
            return fail(QStringLiteral("trial %1 (%2): job.json is not valid: %3")
                            .arg(i + 1).arg(valuesText(trials->at(i)), parsed.errorTexts().join(QStringLiteral("; "))));
        if (i == 0) {
            // What could never start (the plan) is refused now, once.
            if (auto plan = JobSubmission(store).plan(ws->name, cluster->name, substituted->json, exp->name, lastName); !plan)
                return fail(QStringLiteral("trial 1 (%1): %2").arg(valuesText(trials->at(0)), plan.error()));
        }
    }
    return preview;
}

Result<Sweep> create(Store &store, const SweepRequest &request, QStringList *warnings)
{
    const auto checked = preview(store, request);
    if (!checked)
        return checked.failure();
    if (warnings)
        *warnings = checked->warnings;
    const auto ws = store.workspace(request.workspace);
    const auto exp = store.experiment(ws->id, request.experiment);
    const auto cluster = store.cluster(ws->id, request.cluster);
    // The template's secrets are sealed as a job's are; PARAM_ never matches inside a sealed
    // value (base64 has no '_'), so each trial's job.json keeps them sealed.
    const auto sealed = Secrets::sealForStore(request.spec, parseJobSpec(request.spec).spec, store.path());
    if (!sealed)
        return sealed.failure();
    Sweep sweep;
    sweep.experimentId = exp->id;
    sweep.clusterId = cluster->id;
    sweep.name = request.name;
    sweep.spec = *sealed;
    sweep.params = request.params;
    sweep.sampling = request.sampling;
    sweep.seed = checked->seed;
    sweep.maxConcurrent = request.maxConcurrent;
    sweep.metric = request.metric;
    sweep.maximize = request.maximize;
    sweep.earlyStop = EarlyStopPolicy::parse(request.earlyStop)->text();
    sweep.noContainer = request.noContainer;
    return SweepStore(store).create(sweep, checked->trials);
}

} // namespace TrainDesk::SweepCreate

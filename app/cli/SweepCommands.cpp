// sweep create|show|list|stop|delete. A sweep is stored with its trials drawn; the agent submits
// them as jobs "<sweep>-<n>" (at most --max-concurrent at once) and stops the ones early
// stopping ends. These commands store, ask to stop and read.
#include "SweepCommands.h"

#include "common/ResultLog.h"
#include "agent/AgentClient.h"
#include "common/DataPaths.h"
#include "common/CappedRead.h"
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "jobspec/JobSpec.h"
#include "store/Store.h"
#include "sweeps/SweepCreate.h"
#include "sweeps/SweepStore.h"
#include "sweeps/SweepSummary.h"

#include <QElapsedTimer>
#include <QJsonArray>

namespace TrainDesk::Cli {

namespace {

QCommandLineOption sweepNameOption() { return nameOption(QStringLiteral("sweep")); }

QString metricText(const std::optional<double> &v) { return v ? QString::number(*v, 'g', 5) : QString(); }

// A table pads a column to its widest cell: one 100 KB value would pad every row to it.
// The whole value stays in -o json; a cell shows its start, on one line.
QString sweepCell(QString text, qsizetype width)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() <= width ? text : text.left(width - 3) + QStringLiteral("...");
}
constexpr qsizetype valueWidth = 40;
constexpr qsizetype noteWidth = 160;  // an early stop's reason whole

Result<QList<SweepParam>> requestParams(Context &c)
{
    QList<SweepParam> params;
    if (const QString file = c.args.value(QStringLiteral("params")); !file.isEmpty()) {
        const auto text = readCapped(file, maxJobSpecBytes);
        if (!text)
            return text.failure();
        const auto parsed = SweepParams::parseSpec(*text);
        if (!parsed)
            return fail(QStringLiteral("%1: %2").arg(file, parsed.error()));
        params = *parsed;
    }
    for (const QString &inline_ : c.args.values(QStringLiteral("param"))) {
        const auto p = SweepParams::parseInline(inline_);
        if (!p)
            return p.failure();
        params << *p;
    }
    if (params.isEmpty())
        return fail(QStringLiteral("a sweep needs parameters: --params FILE (job_factory's specification) or --param "
                                   "NAME=v1,v2,... / NAME=loguniform(a,b)"));
    return params;
}

Result<SweepRequest> requestFrom(Context &c)
{
    SweepRequest r;
    r.workspace = c.workspaceName();
    for (const QString &option : {QStringLiteral("experiment"), QStringLiteral("name"), QStringLiteral("cluster"),
                                  QStringLiteral("file")}) {
        if (const auto v = c.required(option); !v)
            return v.failure();
    }
    r.experiment = c.args.value(QStringLiteral("experiment"));
    r.name = c.args.value(QStringLiteral("name"));
    r.cluster = c.args.value(QStringLiteral("cluster"));
    const auto spec = readSpecFile(c);
    if (!spec)
        return spec.failure();
    r.spec = *spec;
    const auto params = requestParams(c);
    if (!params)
        return params.failure();
    r.params = *params;
    const QString sampling = c.args.value(QStringLiteral("sampling"));
    const auto parsedSampling = sweepSamplingFromString(sampling);
    if (!parsedSampling)
        return fail(QStringLiteral("--sampling: expected grid or random, found '%1'").arg(sampling));
    r.sampling = *parsedSampling;
    bool ok = true;
    if (c.args.isSet(QStringLiteral("trials"))) {
        r.trials = c.args.value(QStringLiteral("trials")).toInt(&ok);
        if (!ok || r.trials < 1)
            return fail(QStringLiteral("--trials: expected a whole number above 0, found '%1'").arg(c.args.value("trials")));
    } else if (r.sampling == SweepSampling::Random) {
        return fail(QStringLiteral("random sampling needs --trials N"));
    }
    if (c.args.isSet(QStringLiteral("seed"))) {
        const qint64 seed = c.args.value(QStringLiteral("seed")).toLongLong(&ok);
        if (!ok || seed < 0)
            return fail(QStringLiteral("--seed: expected a whole number, 0 or more, found '%1'").arg(c.args.value("seed")));
        r.seed = seed;
    }
    r.maxConcurrent = c.args.value(QStringLiteral("max-concurrent")).toInt(&ok);
    if (!ok)
        return fail(QStringLiteral("--max-concurrent: expected a whole number, found '%1'").arg(c.args.value("max-concurrent")));
    r.metric = c.args.value(QStringLiteral("metric"));
    const QString goal = c.args.value(QStringLiteral("goal"));
    if (goal != QLatin1String("max") && goal != QLatin1String("min"))
        return fail(QStringLiteral("--goal: expected max or min, found '%1'").arg(goal));
    r.maximize = goal == QLatin1String("max");
    r.earlyStop = c.args.value(QStringLiteral("early-stop"));
    r.noContainer = c.args.isSet(QStringLiteral("no-container"));
    return r;
}

struct SweepRef
{
    Workspace workspace;
    Experiment experiment;
    Sweep sweep;
};

Result<SweepRef> findSweep(Context &c, const SweepStore &sweeps)
{
    const auto named = c.namedInExperiment(QStringLiteral("name"));
    if (!named)
        return named.failure();
    const auto sweep = sweeps.sweep(named->experiment.id, named->name);
    if (!sweep)
        return sweep.failure();
    return SweepRef{named->workspace, named->experiment, *sweep};
}

QString clusterName(Context &c, const Sweep &s)
{
    const auto cl = c.store.clusterById(s.clusterId);
    return cl ? cl->name : QString();
}

// The sweep's lines, then one row per trial: its values, state and metric; * marks the best.
int showSweep(Context &c, const SweepRef &ref, const SweepStore &sweeps)
{
    const SweepSummary summary = SweepSummary::read(c.store, sweeps, ref.sweep);
    const Sweep &s = ref.sweep;
    QString text = QStringLiteral("Sweep %1 (%2): %3, %4 trials, at most %5 at once")
                       .arg(s.name, toString(s.state), toString(s.sampling))
                       .arg(summary.trials.size())
                       .arg(s.maxConcurrent);
    if (s.sampling == SweepSampling::Random)
        text += QStringLiteral(", seed %1").arg(s.seed);
    text += QLatin1Char('\n');
    for (const SweepParam &p : s.params)
        text += QStringLiteral("  %1: %2\n").arg(p.name, sweepCell(p.describe(), 200));
    if (!s.metric.isEmpty())
        text += QStringLiteral("Metric: %1 (%2)%3\n").arg(s.metric, s.maximize ? QStringLiteral("max") : QStringLiteral("min"),
                                                        s.earlyStop.isEmpty() ? QString() : QStringLiteral(", early stop ") + s.earlyStop);
    const QStringList columns = summary.parameterColumns();
    Table t{{QStringLiteral("Trial")}, {}};
    t.headers << columns << QStringLiteral("State");
    if (!s.metric.isEmpty())
        t.headers << QStringLiteral("Best %1").arg(s.metric) << QStringLiteral("Last") << QStringLiteral("Evals");
    t.headers << QStringLiteral("Note");
    for (const TrialRow &r : summary.trials) {
        QStringList row{r.job + (r.index == summary.bestIndex ? QStringLiteral(" *") : QString())};
        for (const QString &col : columns)
            row << sweepCell(SweepParams::valueText(SweepSummary::parameterValue(r.params, col)), valueWidth);
        row << r.state;
        if (!s.metric.isEmpty())
            row << metricText(r.best) << metricText(r.last) << QString::number(r.evaluations);
        QString note = r.status == TrialStatus::EarlyStopped ? QStringLiteral("stopped early: ") + r.reason : r.reason;
        row << sweepCell(note, noteWidth);
        t.rows << row;
    }
    text += QLatin1Char('\n') + t.render();
    if (const TrialRow *best = summary.bestTrial())
        text += QStringLiteral("\nBest: %1 (%2 %3)\n").arg(best->job, s.metric, metricText(best->best));
    if (const QString note = summary.missingMetricNote(); !note.isEmpty())
        text += QStringLiteral("\nNo best trial: %1\n").arg(note);
    return c.print(summary.toJson(ref.workspace.name, ref.experiment.name, clusterName(c, s)), text);
}

// The agent moves sweeps: start it when one is active and none answers (after a reboot).
void keepAgentRunning(Context &c, const SweepStore &sweeps)
{
    if (sweeps.activeSweeps().isEmpty())
        return;
    if (auto woken = wakeAgent(); !woken)
        c.err << "warning: " << woken.error() << '\n';
}

} // namespace

namespace {

int runSweepCreate(Context &c)
{
    const auto request = requestFrom(c);
    if (!request)
        return c.error(request.error());
    QStringList warnings;
    const auto sweep = SweepCreate::create(c.store, *request, &warnings);
    if (!sweep)
        return c.error(sweep.error());
    for (const QString &w : warnings)
        c.err << "warning: " << w << '\n';
    if (auto woken = wakeAgent(); !woken)
        c.err << "warning: sweep '" << sweep->name << "' is stored, but " << woken.error() << '\n';
    SweepStore sweeps(c.store);
    return showSweep(c, {*c.workspace(), *c.experiment(), *sweep}, sweeps);
}

int runSweepShow(Context &c)
{
    SweepStore sweeps(c.store);
    const auto ref = findSweep(c, sweeps);
    if (!ref)
        return c.error(ref.error());
    keepAgentRunning(c, sweeps);
    return showSweep(c, *ref, sweeps);
}

int runSweepList(Context &c)
{
    const auto ws = c.workspace();
    if (!ws)
        return c.error(ws.error());
    const auto exp = c.experiment();
    if (!exp)
        return c.error(exp.error());
    SweepStore sweeps(c.store);
    keepAgentRunning(c, sweeps);
    QJsonArray array;
    Table t{{"Name", "State", "Sampling", "Trials", "Done", "Running", "Metric", "Best"}, {}};
    for (const Sweep &s : sweeps.sweeps(exp->id)) {
        const SweepSummary summary = SweepSummary::read(c.store, sweeps, s);
        QJsonObject json = summary.toJson(ws->name, exp->name, clusterName(c, s));
        json.remove(QStringLiteral("trials"));
        array.append(json);
        const TrialRow *best = summary.bestTrial();
        t.rows.append({s.name, toString(s.state), toString(s.sampling), QString::number(summary.trials.size()),
                       QString::number(json.value(QStringLiteral("completedTrials")).toInt()),
                       QString::number(json.value(QStringLiteral("runningTrials")).toInt()), s.metric,
                       best ? QStringLiteral("%1 (%2)").arg(best->job, metricText(best->best)) : QString()});
    }
    return c.print(array, t);
}

int runSweepStop(Context &c)
{
    SweepStore sweeps(c.store);
    const auto ref = findSweep(c, sweeps);
    if (!ref)
        return c.error(ref.error());
    const auto asked = sweeps.requestStop(ref->sweep.id);
    if (!asked)
        return c.error(asked.error());
    if (!*asked && ref->sweep.state != SweepState::Stopping)
        return c.error(QStringLiteral("sweep '%1' has already %2").arg(ref->sweep.name, toString(ref->sweep.state)));
    if (auto woken = wakeAgent(); !woken)
        return c.error(woken.error());
    // The agent ends the trials (SIGTERM, then SIGKILL after its grace period).
    AgentClient agent(DataPaths::dataDirectory());
    QElapsedTimer timer;
    timer.start();
    Result<Sweep> now = sweeps.sweepById(ref->sweep.id);
    while (now && now->active() && timer.elapsed() < JobRunner::terminateGraceMs + 30000) {
        if (!agent.isConnected() && (!agent.connectOrStart() || !agent.request({{"op", "subscribe"}})))
            return c.error(QStringLiteral("the agent does not answer; sweep '%1' stops when it runs").arg(ref->sweep.name));
        ignoreResult(agent.nextEvent(1000), "a dropped connection shows in isConnected() on the next turn");
        now = sweeps.sweepById(ref->sweep.id);
    }
    if (!now)
        return c.error(now.error());
    if (now->active())
        c.err << "warning: sweep '" << now->name << "' is still " << toString(now->state) << '\n';
    return showSweep(c, {ref->workspace, ref->experiment, *now}, sweeps);
}

// The sweep record and, unless --keep-jobs, its trials' jobs; a running sweep is stopped first.
int runSweepDelete(Context &c)
{
    SweepStore sweeps(c.store);
    const auto ref = findSweep(c, sweeps);
    if (!ref)
        return c.error(ref.error());
    if (ref->sweep.active())
        return c.error(QStringLiteral("sweep '%1' is %2: stop it first (traindesk sweep stop -w %3 -e %4 -n %1), then "
                                      "delete it").arg(ref->sweep.name, toString(ref->sweep.state), ref->workspace.name,
                                                       ref->experiment.name));
    if (!c.args.isSet(QStringLiteral("keep-jobs"))) {
        JobSubmission jobs(c.store);
        for (const SweepTrial &t : sweeps.trials(ref->sweep.id)) {
            if (t.jobId == 0)
                continue;
            // A trial's job still queued or running after the sweep ended was submitted by hand.
            if (auto deleted = jobs.remove(t.jobId); !deleted)
                return c.error(QStringLiteral("sweep '%1' is kept: trial %2: %3").arg(ref->sweep.name).arg(t.index)
                                   .arg(deleted.error()));
        }
    }
    if (auto removed = sweeps.remove(ref->sweep.id); !removed)
        return c.error(removed.error());
    return 0;
}

} // namespace

QList<Command> sweepCommands()
{
    QList<Command> commands;
    commands.append({{"sweep", "create"}, "Create a hyperparameter sweep: one job.json run once per trial.",
                     {workspaceOption(), experimentOption(), sweepNameOption(), clusterOption(),
                      fileOption(QStringLiteral("The job.json template: PARAM_<NAME> in its strings takes each trial's value.")),
                      {QStringLiteral("params"), QStringLiteral("The parameters as Batch AI's job_factory specified them "
                       "(NumParam, DiscreteParam, DictParam)."), QStringLiteral("FILE")},
                      {QStringLiteral("param"), QStringLiteral("One parameter (repeatable): NAME=v1,v2,..., "
                       "NAME=uniform(a,b[,n]), NAME=loguniform(a,b[,n]), NAME=randint(a,b) (b included), NAME=range(a,b,step) "
                       "(b excluded, as Python's)."),
                       QStringLiteral("NAME=VALUES")},
                      {QStringLiteral("sampling"), QStringLiteral("grid (every combination) or random."), QStringLiteral("HOW"),
                       QStringLiteral("grid")},
                      {QStringLiteral("trials"), QStringLiteral("Random sampling: how many trials."), QStringLiteral("N")},
                      {QStringLiteral("seed"), QStringLiteral("Random sampling: the seed (the same seed draws the same trials)."),
                       QStringLiteral("S")},
                      {QStringLiteral("max-concurrent"), QStringLiteral("Trials queued or running at once (default 1)."),
                       QStringLiteral("K"), QStringLiteral("1")},
                      {QStringLiteral("metric"), QStringLiteral("The metric that ranks trials (a field of the jobs' metric "
                       "records, e.g. val_acc or loss)."), QStringLiteral("NAME")},
                      {QStringLiteral("goal"), QStringLiteral("max or min (default max)."), QStringLiteral("GOAL"),
                       QStringLiteral("max")},
                      {QStringLiteral("early-stop"), QStringLiteral("median[:after=N,min=K], bandit:slack=S[,after=N] or "
                       "asha[:reduction=R,after=N] (needs --metric)."), QStringLiteral("POLICY")},
                      QCommandLineOption(QStringLiteral("no-container"), QStringLiteral("Run the trials without the "
                       "job.json's containerSettings (as job create --no-container)."))},
                     runSweepCreate});
    commands.append({{"sweep", "show"}, "Show a sweep: its parameters and each trial's values, state and metric.",
                     {workspaceOption(), experimentOption(), sweepNameOption(), queryOption()}, runSweepShow});
    commands.append({{"sweep", "list"}, "List the sweeps of an experiment.",
                     {workspaceOption(), experimentOption(), queryOption()}, runSweepList});
    commands.append({{"sweep", "stop"}, "Stop a sweep: its running trials end (their results stay), no new ones start.",
                     {workspaceOption(), experimentOption(), sweepNameOption()}, runSweepStop});
    commands.append({{"sweep", "delete"}, "Delete an ended sweep and its trials' jobs (a running one: stop it first).",
                     {workspaceOption(), experimentOption(), sweepNameOption(),
                      QCommandLineOption(QStringLiteral("keep-jobs"), QStringLiteral("Keep the trials' jobs (only the sweep "
                       "record goes)."))},
                     runSweepDelete});
    return commands;
}

} // namespace TrainDesk::Cli

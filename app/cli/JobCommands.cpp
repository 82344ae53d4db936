// job create|show|list|wait|terminate|delete|start|validate|plan|metrics, job file list|download|stream,
// job node list. Jobs start and move in the agent; these commands store, queue and read.
#include "Command.h"
#include "common/ResultLog.h"
#include "ImportedRunFiles.h"
#include "JobReliability.h"
#include "JsonViews.h"
#include "JobMetricsOutput.h"
#include "ProgressPrinter.h"
#include "ScalarSeriesTables.h"
#include "SystemMetricsTable.h"
#include "TerminalText.h"

#include "agent/AgentClient.h"
#include "agent/JobWait.h"
#include "common/DataPaths.h"
#include "jobs/JobFileDownload.h"
#include "jobs/JobFiles.h"
#include "jobs/NodeStory.h"
#include "launch/RunWithoutContainer.h"
#include "jobs/JobRunner.h"
#include "jobs/JobSubmission.h"
#include "jobspec/Secrets.h"
#include "launch/SlurmBatchScript.h"
#include "jobspec/JobSpec.h"
#include "launch/JobSpecContext.h"
#include "launch/LaunchPlan.h"
#include "launch/RankBinding.h"
#include "metrics/MetricRows.h"
#include "store/Store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>


namespace TrainDesk::Cli {

namespace {

constexpr int pollMs = 1000;

QCommandLineOption jobNameOption() { return nameOption(QStringLiteral("job"), QStringLiteral("j"), QStringLiteral("job")); }
QCommandLineOption noContainerOption()
{
    return QCommandLineOption(QStringLiteral("no-container"),
                              QStringLiteral("Run on the nodes as they are: leave out the job.json's containerSettings and "
                                             "the jobPreparation that ran in the container."));
}
QCommandLineOption jobOption()
{
    return {{QStringLiteral("j"), QStringLiteral("job")}, QStringLiteral("Job."), QStringLiteral("JOB")};
}

// The checks' context: the cluster's size and the workspace's shares when -c names a
// cluster, nothing otherwise (`job validate` needs no state).
Result<SpecContext> specContext(Context &c)
{
    const QString clusterName = c.args.value(QStringLiteral("cluster"));
    if (clusterName.isEmpty())
        return SpecContext{};
    const auto ws = c.workspace();
    if (!ws)
        return ws.failure();
    const auto cluster = c.store.cluster(ws->id, clusterName);
    if (!cluster)
        return cluster.failure();
    return specContextFor(c.store, *ws, *cluster);
}

QString count(int n, const char *what)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(what)).arg(n == 1 ? QString() : QStringLiteral("s"));
}

// One line per issue, as compilers write them: FILE:LINE:COLUMN: error: PATH: MESSAGE.
QString issueLines(const QString &file, const QList<SpecIssue> &issues)
{
    QString text;
    for (const SpecIssue &i : issues) {
        const QString where = i.line > 0 ? QStringLiteral("%1:%2:%3").arg(file).arg(i.line).arg(i.column) : file;
        const QString level = i.severity == SpecIssue::Severity::Error ? QStringLiteral("error") : QStringLiteral("warning");
        text += QStringLiteral("%1: %2: %3: %4\n").arg(where, level, i.path, i.message);
    }
    return text;
}

// A job.json with errors: every issue on its own line (issueLines), then the refusal.
int refuseSpec(Context &c, const ParsedJobSpec &parsed)
{
    const QString file = c.args.value(QStringLiteral("file"));
    c.err << issueLines(file, parsed.issues);
    return c.error(QStringLiteral("%1 is not valid").arg(file));
}

QJsonArray issuesJson(const QList<SpecIssue> &issues)
{
    QJsonArray array;
    for (const SpecIssue &i : issues) {
        array.append(QJsonObject{{"severity", i.severity == SpecIssue::Severity::Error ? "error" : "warning"},
                                 {"path", i.path}, {"message", i.message}, {"line", i.line}, {"column", i.column}});
    }
    return array;
}

// Jobs move only while the agent runs: start it when jobs wait for it (after a reboot,
// say) and none answers. Clients read the state the agent stored; they never ask nodes,
// nor wait for the agent: its tick may be waiting out an unreachable node's timeouts
// (20 s a `job show` while a node was cut, when this asked for a wake and its answer).
void keepAgentWatching(Context &c)
{
    if (c.store.jobsInStates({JobState::Queued, JobState::Running, JobState::Terminating}).isEmpty())
        return;
    if (auto woken = ensureAgentRuns(); !woken)
        c.err << "warning: " << woken.error() << '\n';
}

struct JobRef
{
    Workspace workspace;
    Experiment experiment;
    Job job;
};

// The job named by -w, -e and `option` (-n or -j), after a refresh of its state.
Result<JobRef> findJob(Context &c, const QString &option)
{
    const auto named = c.namedInExperiment(option);
    if (!named)
        return named.failure();
    auto job = c.store.job(named->experiment.id, named->name);
    if (!job)
        return job.failure();
    keepAgentWatching(c);
    return JobRef{named->workspace, named->experiment, *job};
}

QString clusterName(Context &c, const Job &job)
{
    const auto cl = c.store.clusterById(job.clusterId);
    return cl ? cl->name : QString();
}

Table jobTable(Context &c, const QList<Job> &jobs)
{
    Table t{{"Name", "Cluster", "State", "Created", "Nodes", "Exit code"}, {}};
    for (const Job &j : jobs) {
        // A Slurm job says what Slurm says of it: "queued (Slurm 12: PENDING (Resources))".
        // A run imported from a TensorBoard folder says so: nothing ran it here.
        const QString state = c.store.importedRun(j.id) ? QStringLiteral("imported")
            : j.schedulerId.isEmpty() || isFinished(j.state)
            ? toString(j.state)
            : QStringLiteral("%1 (Slurm %2: %3)").arg(toString(j.state), j.schedulerId, j.schedulerState);
        t.rows.append({j.name, clusterName(c, j), state, j.created.toString(Qt::ISODate),
                       QString::number(parseJobSpec(j.spec).spec.nodeCount),
                       j.exitCode ? QString::number(*j.exitCode) : QString()});
    }
    return t;
}

// "  CODE: message" and its details, one line each, as `job wait` prints them.
QString errorLines(const Job &job)
{
    QString text;
    for (const JobError &e : job.errors) {
        text += QStringLiteral("  %1: %2\n").arg(e.code, e.message);
        for (const QString &detail : e.details)
            text += QStringLiteral("    %1\n").arg(detail);
    }
    return text;
}

QString rangesOf(const QList<int> &indices)
{
    return RankBinding::rangesText(indices);
}

int showJob(Context &c, const JobRef &ref)
{
    QJsonObject json = toJson(ref.job, ref.workspace.name, ref.experiment.name, clusterName(c, ref.job));
    QString text = jobTable(c, {ref.job}).render();
    // Which node ran which rank: what a rank's lines in the logs came from.
    if (!ref.job.rankNodes.isEmpty())
        text += QStringLiteral("\nRanks: %1\n").arg(rankNodesText(ref.job.rankNodes));
    // Why a job failed is the first thing asked of it: not only in -o json.
    if (!ref.job.errors.isEmpty())
        text += QStringLiteral("\nErrors:\n") + errorLines(ref.job);
    // A queued job says what it waits for (the agent's scheduler wrote it).
    if (ref.job.state == JobState::Queued && ref.job.schedulerId.isEmpty() && !ref.job.schedulerState.isEmpty()) {
        text += QStringLiteral("\nWaiting: %1\n").arg(ref.job.schedulerState);
        json.insert("waitingFor", ref.job.schedulerState);
    }
    // What a packed job holds of its node.
    if (!ref.job.placement.isEmpty()) {
        QJsonArray held;
        for (const NodeGrant &g : ref.job.placement) {
            text += QStringLiteral("Holds: node %1, cores %2%3\n")
                        .arg(g.node, rangesOf(g.cores),
                             g.gpus.isEmpty() ? QString() : QStringLiteral(", GPUs %1").arg(rangesOf(g.gpus)));
            QJsonArray cores, gpus;
            for (int i : g.cores)
                cores.append(i);
            for (int i : g.gpus)
                gpus.append(i);
            held.append(QJsonObject{{"node", g.node}, {"cores", cores}, {"gpus", gpus}});
        }
        json.insert("placement", held);
    }
    text += addReliability(c, ref.job, json);  // attempts of a retried job, silent ranks
    return c.print(json, text);
}

// A folder of a job that -d names: "stdouterr" or an output directory of its spec.
struct JobFolder
{
    QString id;        // "stdouterr" or the output directory's id as the spec spells it
    QString relative;  // its path relative to the job directory
};

Result<JobFolder> jobDirectory(Context &c, const Job &job, const QString &id)
{
    if (id.isEmpty() || id == QLatin1String("stdouterr"))
        return JobFolder{QStringLiteral("stdouterr"), QStringLiteral("stdouterr")};
    const auto plan = JobSubmission(c.store).planOf(job);
    if (!plan)
        return plan.failure();
    QStringList ids{QStringLiteral("stdouterr")};
    for (const auto &[outputId, path] : plan->outputDirectories) {
        if (outputId.compare(id, Qt::CaseInsensitive) == 0) {
            if (!path.startsWith(job.jobDir + QLatin1Char('/')))
                return fail(QStringLiteral("output directory %1 (%2) is outside the job directory").arg(id, path));
            return JobFolder{outputId, path.mid(job.jobDir.size() + 1)};
        }
        ids << outputId;
    }
    return fail(QStringLiteral("job '%1' has no output directory '%2'; -d takes %3")
                    .arg(job.name, id, ids.join(QStringLiteral(", "))));
}

QString conflictText(const QList<JobFileCopy> &conflicts)
{
    QStringList names;
    for (const JobFileCopy &f : conflicts.mid(0, 5))
        names << f.localPath;
    if (conflicts.size() > names.size())
        names << QStringLiteral("%1 more").arg(conflicts.size() - names.size());
    return QStringLiteral("%1 exist%2 and differ%2 from the job's: refused, nothing was downloaded (--overwrite "
                          "replaces %3)")
        .arg(names.join(QStringLiteral(", ")), conflicts.size() == 1 ? QStringLiteral("s") : QString(),
             conflicts.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

int downloadJobFiles(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("job"));
    if (!ref)
        return c.error(ref.error());
    const auto dest = c.required(QStringLiteral("dest"));
    if (!dest)
        return c.error(dest.error());
    const auto folder = jobDirectory(c, ref->job, c.args.value(QStringLiteral("output-directory-id")));
    if (!folder)
        return c.error(folder.error());
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    ProgressPrinter printer(c, QStringLiteral("download"));
    JobFiles output(c.store);
    const auto outcome = JobFileDownload(output).download(
        ref->job, {folder->relative, folder->id, c.args.value(QStringLiteral("path")), *dest, c.args.isSet("overwrite")},
        {[&printer](qint64 done, qint64 total, const QString &file) { printer(done, total, file); }, &cancel});
    if (!outcome)
        return c.error(outcome.error());
    if (!outcome->conflicts.isEmpty())
        return c.error(conflictText(outcome->conflicts));
    for (const QString &link : outcome->skippedLinks)
        c.err << "warning: skipped " << link << ": a symbolic link (it may lead out of the job directory)\n";
    QString text;
    QJsonArray files;
    for (const JobFileCopy &f : outcome->files) {
        text += QStringLiteral("%1 -> %2%3\n").arg(f.source, f.localPath,
                                                  f.unchanged ? QStringLiteral(" (unchanged)") : QString());
        files.append(QJsonObject{{"path", f.source}, {"file", f.localPath}, {"size", f.size}, {"unchanged", f.unchanged}});
    }
    if (outcome->files.isEmpty())
        text += QStringLiteral("No files to download\n");
    return c.print(QJsonObject{{"job", ref->job.name}, {"files", files},
                               {"skippedLinks", QJsonArray::fromStringList(outcome->skippedLinks)}},
                   text);
}

// `job metrics --scalars` and `--series NAME`.
int printScalarSeries(Context &c, const Job &job, const QList<MetricRecord> &records)
{
    QList<ScalarSeries> series = ScalarSeries::fromRecords(records);
    for (const QString &problem : ScalarSeries::problems(records))
        c.err << QStringLiteral("warning: %1\n").arg(problem);
    c.err.flush();
    if (c.args.isSet(QStringLiteral("scalars")) || !c.args.isSet(QStringLiteral("series")))
        return c.print(scalarSeriesListJson(series), scalarSeriesList(series));
    const QString name = c.args.value(QStringLiteral("series"));
    QStringList names;
    QList<ScalarSeries> chosen;
    for (const ScalarSeries &s : series) {
        if (s.name == name)
            chosen << s;
        if (!names.contains(s.name))
            names << s.name;
    }
    if (chosen.isEmpty()) {
        return c.error(QStringLiteral("job '%1' has no series named '%2'%3").arg(job.name, name,
                       names.isEmpty() ? QStringLiteral(" (it has none yet)")
                                       : QStringLiteral(" (it has: %1)").arg(names.join(QStringLiteral(", ")))));
    }
    const bool raw = c.args.isSet("csv-raw");
    if ((c.args.isSet("csv") || raw) && !c.json() && !c.args.isSet("query")) {
        c.out << scalarSeriesPointsCsv(chosen, raw ? CsvText::Raw : CsvText::Safe);
        c.out.flush();
        return 0;
    }
    return c.print(scalarSeriesPointsJson(chosen), scalarSeriesPoints(chosen));
}

// --gpus-per-process N written into the job.json (properties.gpusPerProcess), where the
// submit checks it against the cluster's nodes like any other field.
Result<QByteArray> applyGpusPerProcess(Context &c, const QByteArray &spec)
{
    if (!c.args.isSet("gpus-per-process"))
        return spec;
    const QString text = c.args.value("gpus-per-process");
    bool ok = false;
    const int n = text.toInt(&ok);
    if (!ok || n < 0 || n > 64)
        return fail(QStringLiteral("--gpus-per-process: expected a whole number of GPUs from 0 to 64, found '%1'").arg(text));
    QJsonObject root = QJsonDocument::fromJson(spec).object();
    const bool fileShape = root.contains(QStringLiteral("properties"));
    QJsonObject properties = fileShape ? root.value(QStringLiteral("properties")).toObject() : root;
    properties.insert(QStringLiteral("gpusPerProcess"), n);
    if (fileShape)
        root.insert(QStringLiteral("properties"), properties);
    else
        root = properties;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// `traindesk job create`
int jobCreate(Context &c)
{
    const auto options = reliabilityOptionsOf(c);
    if (!options)
        return c.error(options.error());
    auto spec = readSpecFile(c);
    if (spec)
        spec = applyReliabilityOptions(*spec, *options);
    if (spec)
        spec = applyGpusPerProcess(c, *spec);
    if (!spec)
        return c.error(spec.error());
    const auto exp = c.experiment();
    if (!exp)
        return c.error(exp.error());
    for (const QString &required : {QStringLiteral("name"), QStringLiteral("cluster")}) {
        if (const auto v = c.required(required); !v)
            return c.error(v.error());
    }
    SubmitRequest request{c.workspaceName(), exp->name, c.args.value("name"), c.args.value("cluster"), *spec,
                          c.args.isSet("draft")};
    request.noContainer = c.args.isSet("no-container");
    JobSubmission submission(c.store);
    const auto job = submission.submit(request);
    if (!job) {
        // A refused job.json's errors as `job validate` and `job plan` print them,
        // FILE:LINE:COLUMN each (the submit's own refusal is one line, for the GUI).
        if (const auto context = specContext(c); context) {
            const ParsedJobSpec parsed = parseJobSpec(request.noContainer ? RunWithoutContainer::apply(*spec) : *spec, *context);
            if (parsed.hasErrors())
                return refuseSpec(c, parsed);
        }
        return c.error(job.error());
    }
    // What runs as asked but maybe not as expected (ranks oversubscribed), before it starts.
    if (const auto plan = submission.plan(request.workspace, request.cluster, *spec, exp->name, job->name); plan) {
        for (const QString &warning : plan->warnings)
            c.err << "warning: job '" << job->name << "': " << warning << '\n';
    }
    if (job->state != JobState::Queued)
        return showJob(c, {*c.workspace(), *exp, *job});
    if (auto woken = wakeAgent(); !woken) {
        c.err << "warning: job '" << job->name << "' is queued, but " << woken.error() << '\n';
        return showJob(c, {*c.workspace(), *exp, *job});
    }
    const auto submitted = JobWait::untilSlurmSubmitted(c.store, DataPaths::dataDirectory(), *job);
    if (!submitted)
        return c.error(submitted.error());
    return showJob(c, {*c.workspace(), *exp, *submitted});
}

// `traindesk job start`
int jobStart(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("name"));
    if (!ref)
        return c.error(ref.error());
    const auto job = JobSubmission(c.store).queue(ref->job.id);
    if (!job)
        return c.error(job.error());
    if (auto woken = wakeAgent(); !woken)
        c.err << "warning: job '" << job->name << "' is queued, but " << woken.error() << '\n';
    return showJob(c, {ref->workspace, ref->experiment, *job});
}

// `traindesk job show`
int jobShow(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("name"));
    if (!ref)
        return c.error(ref.error());
    return showJob(c, *ref);
}

// `traindesk job list`
int jobList(Context &c)
{
    const auto ws = c.workspace();
    if (!ws)
        return c.error(ws.error());
    const auto exp = c.experiment();
    if (!exp)
        return c.error(exp.error());
    keepAgentWatching(c);
    const QList<Job> jobs = c.store.jobs(exp->id);
    // Each job's JSON reads its job.json: made only when it is printed.
    QJsonArray array;
    for (const Job &j : c.printsJson() ? jobs : QList<Job>{})
        array.append(toJson(j, ws->name, exp->name, clusterName(c, j)));
    return c.print(array, jobTable(c, jobs));
}

// `traindesk job wait`
int jobWait(Context &c)
{
    auto ref = findJob(c, QStringLiteral("name"));
    if (!ref)
        return c.error(ref.error());
    if (ref->job.state == JobState::Draft)
        return c.error(QStringLiteral("job '%1' is a draft: start it first").arg(ref->job.name));
    const auto ended = JobWait::untilEnded(c.store, DataPaths::dataDirectory(), ref->job.id);
    if (!ended)
        return c.error(ended.error());
    const Job &job = *ended;
    c.out << QStringLiteral("job '%1' %2").arg(job.name, toString(job.state));
    if (job.exitCode)
        c.out << QStringLiteral(" with exit code %1").arg(*job.exitCode);
    c.out << '\n' << errorLines(job);
    c.out.flush();
    if (job.state == JobState::Succeeded)
        return 0;
    return job.exitCode && *job.exitCode != 0 ? *job.exitCode : 1;
}

// `traindesk job terminate`
int jobTerminate(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("name"));
    if (!ref)
        return c.error(ref.error());
    AgentClient agent(DataPaths::dataDirectory());
    if (auto connected = agent.connectOrStart(); !connected)
        return c.error(connected.error());
    if (auto asked = agent.request({{"op", "terminate"}, {"job", ref->job.id}}); !asked)
        return c.error(asked.error());
    // SIGTERM, then SIGKILL after the agent's grace period: wait for that, and a little.
    const auto job = JobWait::untilEnded(c.store, DataPaths::dataDirectory(), ref->job.id, JobRunner::terminateGraceMs + 20000);
    if (!job)
        return c.error(job.error());
    return showJob(c, {ref->workspace, ref->experiment, *job});
}

// `traindesk job delete`
int jobDelete(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("name"));
    if (!ref)
        return c.error(ref.error());
    // A delete never ends a training: the app and the CLI both ask for a terminate first.
    if (ref->job.state == JobState::Queued || isActive(ref->job.state))
        return c.error(QStringLiteral("job '%1' is %2: a queued or running job is not deleted; terminate it first "
                                      "(traindesk job terminate -w %3 -e %4 -n %1), then delete it")
                           .arg(ref->job.name, toString(ref->job.state), ref->workspace.name, ref->experiment.name));
    if (auto deleted = JobSubmission(c.store).remove(ref->job.id); !deleted)
        return c.error(deleted.error());
    return 0;
}

// `traindesk job validate`
int jobValidate(Context &c)
{
    const auto spec = readSpecFile(c);
    if (!spec)
        return c.error(spec.error());
    const auto context = specContext(c);
    if (!context)
        return c.error(context.error());
    ParsedJobSpec parsed = parseJobSpec(*spec, *context);
    // Sealed values must open with this data directory's key, as `job create` demands.
    if (parsed.errors().isEmpty()) {
        if (const auto opened = Secrets::openFromStore(parsed.spec, c.store.path()); !opened)
            parsed.issues.append({SpecIssue::Severity::Error, QStringLiteral("properties.secrets"), opened.error(), 0, 0});
    }
    const QString file = c.args.value(QStringLiteral("file"));
    const int errors = int(parsed.errors().size());
    const int warnings = int(parsed.warnings().size());
    QString text = issueLines(file, parsed.issues);
    if (errors == 0)
        text += QStringLiteral("%1 is valid%2\n").arg(file, warnings ? QStringLiteral(" (%1)").arg(count(warnings, "warning")) : QString());
    else
        text += QStringLiteral("%1 is not valid: %2\n").arg(file, QStringList{count(errors, "error"), count(warnings, "warning")}.join(", "));
    c.print(QJsonObject{{"valid", errors == 0}, {"errors", errors}, {"warnings", warnings}, {"issues", issuesJson(parsed.issues)}},
            text);
    return errors == 0 ? 0 : 1;
}

// `traindesk job plan`
int jobPlan(Context &c)
{
    auto spec = readSpecFile(c);
    if (spec && c.args.isSet("no-container"))
        spec = RunWithoutContainer::apply(*spec);
    if (!spec)
        return c.error(spec.error());
    const auto cluster = c.required("cluster");
    if (!cluster)
        return c.error(cluster.error());
    const auto context = specContext(c);
    if (!context)
        return c.error(context.error());
    // The same checks as `job create`, each issue on its own line.
    const ParsedJobSpec parsed = parseJobSpec(*spec, *context);
    if (parsed.hasErrors())
        return refuseSpec(c, parsed);
    const QString issues = issueLines(c.args.value(QStringLiteral("file")), parsed.issues);
    const auto plan = JobSubmission(c.store).plan(c.workspaceName(), *cluster, *spec);
    if (!plan)
        return c.error(plan.error());
    QJsonObject json = plan->toJson();
    json.insert("issues", issuesJson(parsed.issues));
    // Secret values are not in what is printed: the plan shows them as <secret>.
    return c.print(json, issues + (plan->batchScript.isEmpty() ? plan->describe() : slurmPlanText(*plan)));
}

// `traindesk job file list`
int jobFileList(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("job"));
    if (!ref)
        return c.error(ref.error());
    // A run imported from a TensorBoard folder has no job directory: its event files instead.
    if (const auto imported = c.store.importedRun(ref->job.id))
        return listImportedRunFiles(c, ref->job, *imported);
    auto dir = jobDirectory(c, ref->job, c.args.value("output-directory-id"));
    if (!dir)
        return c.error(dir.error());
    QString relative = dir->relative;
    if (!c.args.value("path").isEmpty())
        relative += QLatin1Char('/') + c.args.value("path");
    const auto files = JobFiles(c.store).listFiles(ref->job, relative);
    if (!files)
        return c.error(files.error());
    Table t{{"Name", "Type", "Size", "Modified"}, {}};
    QJsonArray array;
    for (const RemoteFileInfo &f : *files) {
        t.rows.append({f.name, f.isDirectory ? "directory" : "file", f.isDirectory ? QString() : QString::number(f.size),
                       f.modified.toString(Qt::ISODate)});
        array.append(QJsonObject{{"name", f.name}, {"isDirectory", f.isDirectory}, {"contentLength", f.size},
                                 {"lastModified", f.modified.toString(Qt::ISODate)}});
    }
    return c.print(array, t);
}

// `traindesk job file stream`
int jobFileStream(Context &c)
{
    auto ref = findJob(c, QStringLiteral("job"));
    if (!ref)
        return c.error(ref.error());
    const auto file = c.required("file");
    if (!file)
        return c.error(file.error());
    if (ref->job.state == JobState::Draft)
        return c.error(QStringLiteral("job '%1' is a draft: start it first").arg(ref->job.name));
    if (file->contains(QLatin1Char('/')) || file->startsWith(QLatin1Char('.')))
        return c.error(QStringLiteral("--file: '%1' is not a file of the job's stdouterr folder").arg(*file));
    JobFiles output(c.store);
    qint64 offset = 0;
    Job job = ref->job;
    QFile stdoutFile;
    stdoutFile.open(stdout, QIODevice::WriteOnly);
    const bool onTerminal = TerminalText::isTerminal(stdout);
    bool seen = false;
    for (;;) {
        const bool ended = isFinished(job.state);
        if (!job.jobDir.isEmpty() && !seen) {
            // Until the file is there: a file the job writes later is waited for; any other
            // name is an error at once, naming the files there are.
            const auto files = output.listFiles(job);
            const auto found = files ? std::find_if(files->begin(), files->end(),
                                                    [&](const RemoteFileInfo &f) { return f.name == *file; })
                                     : QList<RemoteFileInfo>::const_iterator();
            if (files && found != files->end()) {
                if (found->isDirectory)
                    return c.error(QStringLiteral("--file: %1 is a folder").arg(*file));
                if (output.isSymbolicLink(job, QStringLiteral("stdouterr/") + *file))
                    return c.error(QStringLiteral("--file: %1 is a symbolic link: refused (it may lead out of the job "
                                                  "directory)").arg(*file));
                seen = true;
            } else if (ended || !JobFiles::isWrittenLater(*file)) {
                QStringList names;
                if (files) {
                    for (const RemoteFileInfo &f : *files)
                        names << f.name;
                }
                return c.error(QStringLiteral("job '%1' has no file %2 in stdouterr%3")
                                   .arg(job.name, *file,
                                        names.isEmpty() ? QString()
                                                        : QStringLiteral(" (it has: %1)").arg(names.join(QStringLiteral(", ")))));
            }
        }
        if (seen) {
            for (;;) {
                const auto chunk = output.readFile(job, QStringLiteral("stdouterr/") + *file, offset, 1 << 20);
                if (!chunk)
                    return c.error(chunk.error());
                if (chunk->isEmpty())
                    break;
                // A job's output on a terminal: its control sequences shown, not obeyed.
                stdoutFile.write(onTerminal ? TerminalText::sanitized(*chunk) : *chunk);
                stdoutFile.flush();
                offset += chunk->size();
            }
        }
        // Read once more after the end was seen, so the last lines are not lost.
        if (ended)
            break;
        QThread::msleep(pollMs / 2);
        const auto refreshed = c.store.jobById(job.id);
        if (!refreshed)
            return c.error(refreshed.error());
        job = *refreshed;
    }
    return 0;
}

// `traindesk job metrics`
int jobMetrics(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("job"));
    if (!ref)
        return c.error(ref.error());
    if (c.args.isSet(QStringLiteral("system"))) {
        const SystemMetricsTable system = SystemMetricsTable::of(c.store, ref->job);
        return c.print(system.json, system.table);
    }
    // An imported TensorBoard run has named series only: its table is their list.
    const bool imported = c.store.importedRun(ref->job.id).has_value();
    if (c.args.isSet(QStringLiteral("scalars")) || c.args.isSet(QStringLiteral("series"))
        || (imported && !c.json() && !c.args.isSet(QStringLiteral("query")) && !c.args.isSet(QStringLiteral("csv")))) {
        if (imported && !c.args.isSet(QStringLiteral("series")))
            c.err << "(a run imported from TensorBoard: its series are below; --series NAME prints one, "
                     "'traindesk runs export' all of them as CSV)\n";
        return printScalarSeries(c, ref->job,
                                 MetricRows::recordsOf(c.store, ref->job.id, {QStringLiteral("scalar"), QStringLiteral("error")}));
    }
    if (c.args.isSet(QStringLiteral("query"))) {
        // A query needs the whole JSON view: the records are held in memory for it.
        QJsonArray array;
        if (auto read = MetricRows::forEachRow(c.store, ref->job.id, [&array](const QByteArray &record) {
                array.append(QJsonDocument::fromJson(record).object());
                return true;
            });
            !read)
            return c.error(read.error());
        return c.print(array, QString());
    }
    const JobMetricsFormat format = c.json()                          ? JobMetricsFormat::Json
                                      : c.args.isSet(QStringLiteral("csv")) ? JobMetricsFormat::Csv
                                                                          : JobMetricsFormat::Table;
    const auto printed = printJobMetrics(c.store, ref->job, format, c.out);
    c.out.flush();
    return printed ? 0 : c.error(printed.error());
}

// `traindesk job node list`
int jobNodeList(Context &c)
{
    const auto ref = findJob(c, QStringLiteral("job"));
    if (!ref)
        return c.error(ref.error());
    const Job &job = ref->job;
    Table t{{"Node", "Role", "Ranks", "In the job", "In the cluster"}, {}};
    QJsonArray array;
    const QList<Node> nodes = c.store.nodes(job.clusterId);
    JobFiles output(c.store);
    for (int i = 0; i < job.nodes.size(); ++i) {
        const QString &name = job.nodes.at(i);
        QString state;
        for (const Node &n : nodes) {
            if (n.name == name)
                state = toString(n.state);
        }
        QStringList ranks;
        for (qsizetype r = 0; r < job.rankNodes.size(); ++r) {
            if (job.rankNodes.at(r) == name)
                ranks << QString::number(r);
        }
        const auto log = job.jobDir.isEmpty()
            ? Result<QByteArray>(QByteArray())
            : output.readFile(job, output.executionLogPath(job, i), 0, 4 << 20);
        const QString inJob = log ? nodeStateInJob(*log) : QStringLiteral("unknown (%1)").arg(log.error());
        const QString role = i == 0 ? QStringLiteral("head (rank 0)") : QStringLiteral("worker");
        t.rows.append({name, role, ranks.join(QLatin1Char(',')), inJob, state});
        QJsonArray rankArray;
        for (const QString &r : ranks)
            rankArray.append(r.toInt());
        array.append(QJsonObject{{"name", name}, {"role", role}, {"ranks", rankArray}, {"stateInJob", inJob},
                                 {"state", state}});
    }
    return c.print(array, t);
}

} // namespace

QList<Command> jobCommands()
{
    QList<Command> commands;
    const QCommandLineOption draftOption(QStringLiteral("draft"), QStringLiteral("Save without queueing."));
    commands.append({{"job", "create"}, "Create (submit) a job from a job.json.",
                     QList<QCommandLineOption>{workspaceOption(), experimentOption(), jobNameOption(), clusterOption(),
                      fileOption("The job.json."), draftOption, noContainerOption(),
                      {QStringLiteral("gpus-per-process"),
                       QStringLiteral("GPUs each process gets on its node (properties.gpusPerProcess): the job shares the "
                                      "node with others, each seeing only its own GPUs."),
                       QStringLiteral("N")}} + reliabilityOptions(),
                     jobCreate});
    commands.append({{"job", "start"}, "Queue a draft job (such as the demo job).",
                     {workspaceOption(), experimentOption(), jobNameOption()}, jobStart});
    commands.append({{"job", "show"}, "Show a job: its row, the nodes of its ranks and its errors.",
                     {workspaceOption(), experimentOption(), jobNameOption(), queryOption()}, jobShow});
    commands.append({{"job", "list"}, "List the jobs of an experiment.", {workspaceOption(), experimentOption(), queryOption()},
                     jobList});
    commands.append({{"job", "wait"}, "Wait for a job to end; exit with its exit code.",
                     {workspaceOption(), experimentOption(), jobNameOption()}, jobWait});
    commands.append({{"job", "terminate"}, "Terminate a job (SIGTERM, then SIGKILL).",
                     {workspaceOption(), experimentOption(), jobNameOption()}, jobTerminate});
    commands.append({{"job", "delete"}, "Delete a finished or draft job; a queued or running one is refused "
                     "(terminate it first).",
                     {workspaceOption(), experimentOption(), jobNameOption()}, jobDelete});
    commands.append({{"job", "validate"}, "Check a job.json; nothing is stored. With -c, also against the cluster "
                     "(its size) and the workspace's shares.",
                     {fileOption("The job.json."), workspaceOption(), clusterOption()}, jobValidate});
    commands.append({{"job", "plan"}, "Print what a job.json would run on a cluster; nothing is started.",
                     {workspaceOption(), clusterOption(), fileOption("The job.json."), noContainerOption()}, jobPlan});

    const QCommandLineOption dirOption({"d", "output-directory-id"}, "stdouterr (default) or an output directory id.", "ID");
    const QCommandLineOption pathOption({"p", "path"}, "Path inside the directory.", "PATH");
    commands.append({{"job", "file", "list"}, "List a job's output files.",
                     {workspaceOption(), experimentOption(), jobOption(), dirOption, pathOption, queryOption()},
                     jobFileList});
    commands.append({{"job", "file", "download"}, "Copy a job's file or folder (all of the directory without -p) "
                     "from its head node into DEST/<job>/<stdouterr or output id>/...; progress on stderr, Ctrl-C "
                     "cancels. A local file that differs is not replaced without --overwrite.",
                     {workspaceOption(), experimentOption(), jobOption(), dirOption,
                      QCommandLineOption({"p", "path"}, "A file or folder inside the directory (default: all of it).", "PATH"),
                      QCommandLineOption(QStringList{"dest"}, "Local folder to download into.", "DIR"),
                      QCommandLineOption(QStringList{"overwrite"}, "Replace local files that differ from the job's.")},
                     downloadJobFiles});
    commands.append({{"job", "file", "stream"}, "Print a file of stdouterr as it grows, until the job ends.",
                     {workspaceOption(), experimentOption(), jobOption(), fileOption("The file, e.g. stdout.txt.")},
                     jobFileStream});
    commands.append({{"job", "metrics"}, "Print a job's train and validation series as a table, or as CSV with "
                     "--csv; -o json prints every metric record stored for it. --scalars lists the named series its "
                     "script wrote (TensorBoard files, progress lines; docs/METRICS.md) and --series NAME prints one. "
                     "With --system, what its nodes did (CPU, memory, GPUs, network).",
                     {workspaceOption(), experimentOption(), jobNameOption(), queryOption(),
                      QCommandLineOption(QStringList{"csv"}, "Print the series as CSV (a text cell a spreadsheet "
                                                             "would run as a formula gets a leading ')."),
                      QCommandLineOption(QStringList{"csv-raw"}, "CSV with every text cell as it is (for programs, "
                                                                 "not spreadsheets)."),
                      QCommandLineOption(QStringList{"scalars"}, "List the named series: name, source, file, rank, "
                                                                 "points, last, min and max."),
                      QCommandLineOption(QStringList{"series"}, "Print the points of the named series NAME (from "
                                                                "every file and rank).", QStringLiteral("NAME")),
                      {QStringLiteral("system"), QStringLiteral("The system samples of the job's nodes instead.")}},
                     jobMetrics});
    commands.append({{"job", "node", "list"}, "List the nodes a job runs on: each node's role, ranks, state in "
                     "the job (from its execution-<node>.log) and state in the cluster.",
                     {workspaceOption(), experimentOption(), jobOption(), queryOption()}, jobNodeList});
    return commands;
}

} // namespace TrainDesk::Cli

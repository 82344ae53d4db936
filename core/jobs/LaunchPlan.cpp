#include "LaunchPlan.h"

#include "common/ShellQuote.h"

#include <QRegularExpression>

namespace TrainDesk {

namespace {

QString joinPath(const QString &a, const QString &b)
{
    if (b.isEmpty())
        return a;
    if (a.endsWith(QLatin1Char('/')))
        return a + b;
    return a + QLatin1Char('/') + b;
}

QString mpirunCommand(const LaunchPlan &plan, int processCount, const QString &program)
{
    QStringList args{QStringLiteral("mpirun"), QStringLiteral("--hostfile"), plan.hostfilePath(),
                     QStringLiteral("-np"), QString::number(processCount),
                     // Slots are cores; a user asking for more ranks than cores gets them.
                     QStringLiteral("--oversubscribe"), QStringLiteral("--tag-output")};
    for (const auto &[name, value] : plan.environment)
        args << QStringLiteral("-x") << name;
    // The program part is the user's shell text: the launch script's shell expands it.
    return shellJoin(args) + QLatin1Char(' ') + program;
}

} // namespace

QString expandBatchAiVariables(const QString &text, const QList<QPair<QString, QString>> &environment)
{
    static const QRegularExpression both(QStringLiteral("\\$\\{(AZ_BATCHAI_[A-Za-z0-9_]+)\\}|\\$(AZ_BATCHAI_[A-Za-z0-9_]+)"));
    QString out;
    qsizetype last = 0;
    auto it = both.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString name = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
        out += text.mid(last, m.capturedStart() - last);
        QString replacement = m.captured(0);
        for (const auto &[n, v] : environment) {
            if (n == name) {
                replacement = v;
                break;
            }
        }
        out += replacement;
        last = m.capturedEnd();
    }
    out += text.mid(last);
    return out;
}

QString LaunchPlan::describe() const
{
    QString text;
    text += QStringLiteral("Job directory: %1\n").arg(jobDir);
    text += QStringLiteral("Hostfile:\n");
    for (const QString &line : hostfile.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        text += QStringLiteral("  %1\n").arg(line);
    text += QStringLiteral("Environment:\n");
    for (const auto &[name, value] : environment)
        text += QStringLiteral("  %1=%2\n").arg(name, value);
    if (!preparationCommand.isEmpty())
        text += QStringLiteral("Preparation (every node): %1\n").arg(preparationCommand);
    text += QStringLiteral("Command (head node): %1\n").arg(commandLine);
    return text;
}

Result<LaunchPlan> buildLaunchPlan(const JobSpec &spec, const LaunchContext &context)
{
    if (context.nodes.size() < spec.nodeCount) {
        return fail(QStringLiteral("job needs %1 nodes (nodeCount) but %2 were assigned")
                        .arg(spec.nodeCount).arg(context.nodes.size()));
    }
    LaunchPlan plan;
    QList<QPair<QString, QString>> &env = plan.environment;
    env.append({QStringLiteral("AZ_BATCHAI_MOUNT_ROOT"), context.mountRoot});
    env.append({QStringLiteral("AZ_BATCHAI_JOB_MOUNT_ROOT"), context.mountRoot});

    const QString prefix = expandBatchAiVariables(spec.stdOutErrPathPrefix, env);
    if (prefix.isEmpty())
        return fail(QStringLiteral("properties.stdOutErrPathPrefix: expected a path, found nothing"));
    if (!prefix.startsWith(QLatin1Char('/')))
        return fail(QStringLiteral("properties.stdOutErrPathPrefix: expected an absolute path, found '%1'").arg(prefix));
    const QString segment = QStringLiteral("workspaces/%1/experiments/%2/jobs/%3/%4")
                                .arg(context.workspace, context.experiment, context.job, context.uuid);
    plan.jobDir = joinPath(prefix, segment);
    plan.stdOutErrDir = joinPath(plan.jobDir, QStringLiteral("stdouterr"));

    for (const OutputDirectory &out : spec.outputDirectories) {
        const QString outPrefix = expandBatchAiVariables(out.pathPrefix, env);
        const QString path = joinPath(joinPath(joinPath(outPrefix, segment), QStringLiteral("outputs")), out.pathSuffix);
        plan.outputDirectories.append({out.id, path});
        env.append({QStringLiteral("AZ_BATCHAI_OUTPUT_%1").arg(out.id.toUpper()), path});
    }
    QStringList workerHosts;
    for (int i = 0; i < spec.nodeCount; ++i)
        workerHosts << context.nodes.at(i).host;
    env.append({QStringLiteral("AZ_BATCHAI_JOB_TEMP"), joinPath(plan.jobDir, QStringLiteral("tmp"))});
    env.append({QStringLiteral("AZ_BATCHAI_STDOUTERR_DIR"), plan.stdOutErrDir});
    env.append({QStringLiteral("AZ_BATCHAI_MPI_HOST_FILE"), plan.hostfilePath()});
    env.append({QStringLiteral("AZ_BATCHAI_NUM_GPUS"), QStringLiteral("0")});
    env.append({QStringLiteral("AZ_BATCHAI_TASK_INDEX"), QStringLiteral("0")});
    env.append({QStringLiteral("AZ_BATCHAI_WORKER_HOSTS"), workerHosts.join(QLatin1Char(','))});
    for (const EnvironmentVariable &e : spec.environmentVariables)
        env.append({e.name, e.value});

    for (int i = 0; i < spec.nodeCount; ++i) {
        const Node &n = context.nodes.at(i);
        plan.hostfile += QStringLiteral("%1 slots=%2\n").arg(n.host).arg(qMax(1, n.slotCount));
    }
    if (spec.jobPreparationCommandLine)
        plan.preparationCommand = *spec.jobPreparationCommandLine;

    if (spec.customMpiSettings) {
        plan.commandLine = mpirunCommand(plan, spec.processCount(), spec.customMpiSettings->commandLine);
    } else if (spec.horovodSettings) {
        const HorovodSettings &h = *spec.horovodSettings;
        const QString python = h.pythonInterpreterPath.isEmpty() ? QStringLiteral("python3") : h.pythonInterpreterPath;
        QString program = python + QLatin1Char(' ') + h.pythonScriptFilePath;
        if (!h.commandLineArgs.isEmpty())
            program += QLatin1Char(' ') + h.commandLineArgs;
        plan.commandLine = mpirunCommand(plan, spec.processCount(), program);
    } else if (spec.customToolkitSettings) {
        plan.commandLine = spec.customToolkitSettings->commandLine;
    } else {
        return fail(QStringLiteral("properties: no toolkit setting that TrainDesk can run"));
    }

    // The script: environment, preparation, the command, then the exit code in a file, so
    // that whoever looks next (GUI, CLI, after a restart) learns how the job ended.
    const QString headNode = context.nodes.first().name;
    QString s;
    s += QStringLiteral("#!/bin/sh\n# TrainDesk launch script for job %1/%2/%3 (%4). Generated.\n")
             .arg(context.workspace, context.experiment, context.job, context.uuid);
    s += QStringLiteral("cd %1 || exit 1\n").arg(shellQuote(plan.jobDir));
    s += QStringLiteral("echo $$ > pid\n");
    for (const auto &[name, value] : env)
        s += QStringLiteral("export %1=%2\n").arg(name, shellQuote(value));
    if (!context.trainerDirectory.isEmpty())
        s += QStringLiteral("export PATH=%1:\"$PATH\"\n").arg(shellQuote(context.trainerDirectory));
    // Open MPI refuses root unless told; TrainDesk's nodes are often containers run as root.
    s += QStringLiteral("if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi\n");
    s += QStringLiteral("mkdir -p \"$AZ_BATCHAI_JOB_TEMP\" \"$AZ_BATCHAI_STDOUTERR_DIR\"\n");
    for (const auto &[id, path] : plan.outputDirectories)
        s += QStringLiteral("mkdir -p %1\n").arg(shellQuote(path));
    s += QStringLiteral("log() { echo \"$(date -u +%Y-%m-%dT%H:%M:%SZ) $*\" >> %1; }\n")
             .arg(shellQuote(QStringLiteral("stdouterr/execution-%1.log").arg(headNode)));
    s += QStringLiteral("finish() { echo \"$1\" > exit_code.tmp && mv exit_code.tmp exit_code; log \"finished with exit code $1\"; exit 0; }\n");
    if (!plan.preparationCommand.isEmpty()) {
        s += QStringLiteral("log 'job preparation started'\n");
        s += QStringLiteral("/bin/sh -c %1 > %2 2> %3\n")
                 .arg(shellQuote(plan.preparationCommand),
                      shellQuote(QStringLiteral("stdouterr/stdout-job_prep-%1.txt").arg(headNode)),
                      shellQuote(QStringLiteral("stdouterr/stderr-job_prep-%1.txt").arg(headNode)));
        s += QStringLiteral("rc=$?\nif [ $rc -ne 0 ]; then echo job_prep > failed_step; finish $rc; fi\n");
        s += QStringLiteral("log 'job preparation succeeded'\n");
    }
    s += QStringLiteral("log 'job started'\n");
    s += plan.commandLine + QStringLiteral(" > stdouterr/stdout.txt 2> stdouterr/stderr.txt\n");
    s += QStringLiteral("finish $?\n");
    plan.launchScript = s;
    return plan;
}

} // namespace TrainDesk

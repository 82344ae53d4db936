#include "LaunchScript.h"

#include "ContainerCommands.h"
#include "RendezvousPorts.h"
#include "TaskOutputs.h"
#include "common/ShellQuote.h"

namespace TrainDesk {

namespace {

// Seconds between SIGTERM and SIGKILL when the wall clock runs out.
constexpr int wallClockGraceSeconds = 30;

QString secretShown() { return QStringLiteral("<secret>"); }

// A step in the background, waited for through a trapped SIGTERM: its output to the
// execution log, its errors (the failing node names itself) to `errorFile`.
QString backgroundStep(const QString &command, const QString &logFile, const QString &errorFile)
{
    return QStringLiteral("{\n%1\n} >> %2 2>> %3 &\nwait_for $!\nrc=$?\n")
        .arg(command, shellQuote(logFile), shellQuote(errorFile));
}

const QString stdErrFile = QStringLiteral("stdouterr/stderr.txt");

QString timestamp() { return QStringLiteral("$(date -u +%Y-%m-%dT%H:%M:%SZ)"); }

QString nodeLogName(const Node &node) { return QStringLiteral("execution-%1.log").arg(node.name); }

// "ranks 2, 3 of 4 on this node" for the node's log when the job starts.
QString ranksOn(const QString &node, const QStringList &rankNodes)
{
    QStringList ranks;
    for (qsizetype r = 0; r < rankNodes.size(); ++r) {
        if (rankNodes.at(r) == node)
            ranks << QString::number(r);
    }
    if (ranks.isEmpty())
        return QStringLiteral("no rank on this node");
    return QStringLiteral("rank%1 %2 of %3 on this node")
        .arg(ranks.size() == 1 ? QString() : QStringLiteral("s"), ranks.join(QStringLiteral(", ")))
        .arg(rankNodes.size());
}

} // namespace

QStringList withNodeLogs(const QStringList &texts, const QList<Node> &nodes, const QString &step, bool logStart)
{
    if (nodes.size() < 2)
        return texts;
    QStringList wrapped;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const QString text = texts.value(i);
        if (i == 0) {  // the head node's log is written by the launch script itself
            wrapped << text;
            continue;
        }
        QString w = QStringLiteral("nlog() { mkdir -p \"$AZ_BATCHAI_STDOUTERR_DIR\" 2>/dev/null; echo \"%1 $*\" >> "
                                   "\"$AZ_BATCHAI_STDOUTERR_DIR\"/%2; }\n")
                        .arg(timestamp(), shellQuote(nodeLogName(nodes.at(i))));
        if (logStart)
            w += QStringLiteral("nlog %1\n").arg(shellQuote(step + QStringLiteral(" started")));
        // A subshell: the step's own `exit` still reaches the lines after it.
        w += QStringLiteral("( :\n%1\n); rc=$?\n").arg(text);
        w += QStringLiteral("if [ $rc -eq 0 ]; then nlog %1; else nlog \"%2 failed with exit code $rc\"; fi\nexit $rc")
                 .arg(shellQuote(step + QStringLiteral(" succeeded")), step);
        wrapped << w;
    }
    return wrapped;
}

QString onEveryNode(const QStringList &texts, const QList<Node> &nodes, const QString &hostfilePath,
                    const QStringList &environment, bool slurm)
{
    if (nodes.size() == 1)
        return QStringLiteral("/bin/sh -c ") + shellQuote(texts.value(0));
    if (slurm) {
        // srun passes the whole environment; the step ends when every node's text has.
        QString cases;
        for (qsizetype i = 0; i < nodes.size(); ++i)
            cases += QStringLiteral(" %1) exec /bin/sh -c %2;;").arg(i).arg(shellQuote(texts.value(i)));
        return QStringLiteral("srun --nodes=%1 --ntasks=%1 --ntasks-per-node=1 --kill-on-bad-exit=1 /bin/sh -c %2")
            .arg(nodes.size())
            .arg(shellQuote(QStringLiteral("case \"$SLURM_NODEID\" in%1 esac").arg(cases)));
    }
    // Open MPI applies -x to the app context it is given in, so every context has the list.
    QStringList exports;
    for (const QString &name : environment)
        exports << QStringLiteral("-x") << name;
    QString command = shellJoin({QStringLiteral("mpirun"), QStringLiteral("--hostfile"), hostfilePath, QStringLiteral("--oversubscribe")});
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        if (i > 0)
            command += QStringLiteral(" :");
        command += QStringLiteral(" -np 1 --host %1 %2 /bin/sh -c %3")
                       .arg(shellQuote(nodes.at(i).host), shellJoin(exports), shellQuote(texts.value(i)));
    }
    return command;
}

QString secretsFileName() { return QStringLiteral("secrets.env"); }

QString secretsFileText(const LaunchScriptInput &in)
{
    QString text;
    for (const auto &[name, value] : in.secrets)
        text += QStringLiteral("export %1=%2\n").arg(name, shellQuote(value));
    if (!in.registryPassword.isEmpty())
        text += QStringLiteral("export %1=%2\n").arg(ContainerCommands::registryPasswordVariable, shellQuote(in.registryPassword));
    return text;
}

namespace {

// The launch script's parts, in the order they stand in it.
QString scriptStart(const LaunchScriptInput &in);
QString jobEnvironment(const LaunchScriptInput &in);
QString logFunctions(const LaunchScriptInput &in, const QString &logFile);
QString stepFunctions(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile);
QString wallClockWatchdog(const LaunchScriptInput &in);
QString nodeSetup(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile);
QString jobPreparation(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile);
QString jobStart(const LaunchScriptInput &in);
QString jobAndFinish(const LaunchScriptInput &in);

// The names of the variables every step on every node gets.
QStringList passedVariables(const LaunchScriptInput &in)
{
    QStringList passed;
    for (const auto &[name, value] : in.environment)
        passed << name;
    for (const auto &[name, value] : in.secrets)
        passed << name;
    for (const auto &[name, value] : in.computed)
        passed << name;
    if (!in.portChoice.isEmpty())
        passed << RendezvousPorts::variable();
    return passed;
}

} // namespace

QString launchScript(const LaunchScriptInput &in)
{
    const QString headNode = in.nodes.isEmpty() ? QStringLiteral("head") : in.nodes.first().name;
    const QString logFile = QStringLiteral("stdouterr/execution-%1.log").arg(headNode);
    const QStringList passed = passedVariables(in);
    return scriptStart(in) + jobEnvironment(in) + logFunctions(in, logFile) + stepFunctions(in, passed, logFile)
        + wallClockWatchdog(in) + nodeSetup(in, passed, logFile) + jobPreparation(in, passed, logFile)
        + jobStart(in) + jobAndFinish(in);
}

namespace {

QString scriptStart(const LaunchScriptInput &in)
{
    QString s;
    s += QStringLiteral("#!/bin/sh\n# TrainDesk launch script for job %1. Generated.\n").arg(in.title);
    s += QStringLiteral("cd %1 || exit 1\n").arg(shellQuote(in.jobDir));
    // Under the job's reaper (jobs/JobReaper) the job's pid is the reaper's, and it is the one
    // that ends everything the job started; else the script leads the job's process group.
    s += QStringLiteral("echo \"${TRAINDESK_REAPER_PID:-$$}\" > pid\n");
    s += QStringLiteral("stop_job() {\n"
                        "  if [ -z \"$TRAINDESK_REAPER_PID\" ]; then kill -\"$1\" -$$ 2>/dev/null\n"
                        "  elif [ \"$1\" = KILL ]; then kill -USR1 \"$TRAINDESK_REAPER_PID\"\n"
                        "  else kill -TERM \"$TRAINDESK_REAPER_PID\"; fi\n"
                        "}\n");
    // The exit code's file is made now, full size, and written in place at the end: a job
    // that fills its disk still records how it ended (no new block is needed then).
    s += QStringLiteral("printf '%-15s\\n' '' > exit_code.tmp\n");
    s += QStringLiteral("printf '%-31s\\n' '' > failed_step.tmp\n");
    return s;
}

QString jobEnvironment(const LaunchScriptInput &in)
{
    // The rendezvous port first: values name it ("${TRAINDESK_PORT}"), and only it expands.
    QString s = in.portChoice;
    for (const auto &[name, value] : in.environment)
        s += QStringLiteral("export %1=%2\n").arg(name, RendezvousPorts::shellWord(value));
    // Secret values live in the secrets file only as long as it takes to read it: never in
    // this script, and gone from the job directory before any step runs.
    if (!in.secrets.isEmpty() || !in.registryPassword.isEmpty()) {
        for (const auto &[name, value] : in.secrets)
            s += QStringLiteral("# %1=%2 (from %3)\n").arg(name, secretShown(), secretsFileName());
        s += QStringLiteral("if [ -f %1 ]; then . ./%1; fi; rm -f %1\n").arg(secretsFileName());
    }
    for (const auto &[name, expression] : in.computed)
        s += QStringLiteral("export %1=\"$(%2)\"\n").arg(name, expression);
    if (!in.trainerDirectory.isEmpty())
        s += QStringLiteral("export PATH=%1:\"$PATH\"\n").arg(shellQuote(in.trainerDirectory));
    // Open MPI refuses root unless told; TrainDesk's nodes are often containers run as root.
    s += QStringLiteral("if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi\n");
    s += QStringLiteral("mkdir -p \"$AZ_BATCHAI_JOB_TEMP\" \"$AZ_BATCHAI_SHARED_JOB_TEMP\" \"$AZ_BATCHAI_STDOUTERR_DIR\"\n");
    return s;
}

QString logFunctions(const LaunchScriptInput &in, const QString &logFile)
{
    QString s = QStringLiteral("log() { echo \"%1 $*\" >> %2; }\n").arg(timestamp(), shellQuote(logFile));
    // The other nodes' logs get the job's start and end from here (their own steps write the rest).
    QStringList otherLogs;
    for (qsizetype i = 1; i < in.nodes.size(); ++i)
        otherLogs << shellQuote(QStringLiteral("stdouterr/") + nodeLogName(in.nodes.at(i)));
    if (otherLogs.isEmpty())
        s += QStringLiteral("log_nodes() { :; }\n");
    else
        s += QStringLiteral("log_nodes() { for f in %1; do echo \"%2 $*\" >> \"$f\"; done; }\n").arg(otherLogs.join(QLatin1Char(' ')), timestamp());
    return s;
}

// Every step runs in the background and is waited for, so that a SIGTERM (terminate, or
// the wall clock) reaches the trap and the exit code is still written.
QString stepFunctions(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile)
{
    QString s;
    s += QStringLiteral("terminated=\ntrap 'terminated=1' TERM\n");
    s += QStringLiteral("wait_for() { while :; do wait \"$1\"; r=$?; kill -0 \"$1\" 2>/dev/null || return $r; done; }\n");
    if (!in.cleanupTexts.isEmpty()) {
        // After the job: what goes wrong here is logged, not added to the job's stderr.txt.
        s += QStringLiteral("cleanup() {\n%1\n}\n")
                 .arg(backgroundStep(onEveryNode(in.cleanupTexts, in.nodes, in.hostfilePath, passed, in.slurm), logFile, logFile)
                          .trimmed());
    } else {
        s += QStringLiteral("cleanup() { :; }\n");
    }
    s += QStringLiteral("watchdog=\n");
    s += QStringLiteral("finish() {\n"
                        "  [ -n \"$watchdog\" ] && kill -USR1 \"$watchdog\" 2>/dev/null\n"
                        "  cleanup\n"
                        "  record_exit \"$1\"\n"
                        "  rm -f failed_step.tmp\n"  // no step failed: its place is not needed
                        "  log \"finished with exit code $1\"\n"
                        "  log_nodes \"job finished with exit code $1\"\n"
                        "  exit 0\n"
                        "}\n");
    s += QStringLiteral("record_exit() { printf '%-15s\\n' \"$1\" 1<> exit_code.tmp && mv exit_code.tmp exit_code; }\n");
    s += QStringLiteral("failed() { [ -e failed_step ] || { printf '%-31s\\n' \"$1\" 1<> failed_step.tmp && mv failed_step.tmp failed_step; }; }\n");
    return s;
}

// The wall clock: SIGTERM to the job's process group when it runs out, SIGKILL (and exit
// code 137) if the job is still there after the grace period.
QString wallClockWatchdog(const LaunchScriptInput &in)
{
    const QString limit = in.limit.toString();
    return QStringLiteral("(\n"
                          "  trap '' TERM\n"
                          "  trap 'kill -KILL $s 2>/dev/null; exit 0' USR1\n"
                          "  sleep %1 & s=$!\n"
                          "  wait $s || exit 0\n"
                          "  failed max_wall_clock_time\n"
                          "  log 'maximum wall clock time (%2) exceeded: terminating the job'\n"
                          "  echo 'TrainDesk: the job ran longer than its maximum wall clock time (%2) and was terminated' "
                          ">> stdouterr/stderr.txt\n"
                          "  stop_job TERM\n"
                          "  sleep %3 & s=$!\n"
                          "  wait $s || exit 0\n"
                          "  log 'the job did not stop within %3 s of SIGTERM: killing it'\n"
                          "  record_exit 137\n"
                          "  stop_job KILL\n"
                          ") &\n"
                          "watchdog=$!\n")
        .arg(in.limit.seconds())
        .arg(limit)
        .arg(wallClockGraceSeconds);
}

QString nodeSetup(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile)
{
    if (in.setupTexts.isEmpty())
        return {};
    QStringList setupPassed = passed;
    if (!in.registryPassword.isEmpty())  // exported from the secrets file; for the setup only
        setupPassed << ContainerCommands::registryPasswordVariable;
    QString s;
    s += QStringLiteral("log 'node setup started'\n");
    s += backgroundStep(onEveryNode(withNodeLogs(in.setupTexts, in.nodes, QStringLiteral("node setup"), false), in.nodes,
                                    in.hostfilePath, setupPassed, in.slurm),
                        logFile, stdErrFile);
    if (!in.registryPassword.isEmpty())
        s += QStringLiteral("unset %1\n").arg(ContainerCommands::registryPasswordVariable);
    s += QStringLiteral("if [ $rc -ne 0 ]; then failed node_setup; log \"node setup failed with exit code $rc "
                        "(see stdouterr/stderr.txt)\"; finish $rc; fi\n");
    s += QStringLiteral("[ -z \"$terminated\" ] || finish 143\n");
    s += QStringLiteral("log 'node setup succeeded'\n");
    return s;
}

QString jobPreparation(const LaunchScriptInput &in, const QStringList &passed, const QString &logFile)
{
    if (in.preparationTexts.isEmpty())
        return {};
    QString s;
    s += QStringLiteral("log 'job preparation started'\n");
    s += backgroundStep(onEveryNode(withNodeLogs(in.preparationTexts, in.nodes, QStringLiteral("job preparation"), true),
                                    in.nodes, in.hostfilePath, passed, in.slurm),
                        logFile, stdErrFile);
    s += QStringLiteral("if [ $rc -ne 0 ]; then failed job_prep; finish $rc; fi\n");
    s += QStringLiteral("[ -z \"$terminated\" ] || finish 143\n");
    s += QStringLiteral("log 'job preparation succeeded'\n");
    return s;
}

// The output folders, the head node's last words before the job, and "job started" in
// every node's log (with the ranks each node runs).
QString jobStart(const LaunchScriptInput &in)
{
    QString s;
    for (const QString &path : in.outputDirectories)
        s += QStringLiteral("mkdir -p %1\n").arg(shellQuote(path));
    if (!in.beforeCommand.isEmpty())
        s += in.beforeCommand + QLatin1Char('\n');
    if (in.nodes.size() < 2) {
        s += QStringLiteral("log 'job started'\n");
        return s;
    }
    s += QStringLiteral("log %1\n").arg(shellQuote(QStringLiteral("job started: ") + ranksOn(in.nodes.first().name, in.rankNodes)));
    for (qsizetype i = 1; i < in.nodes.size(); ++i)
        s += QStringLiteral("echo \"%1 \"%2 >> %3\n")
                 .arg(timestamp(), shellQuote(QStringLiteral("job started: ") + ranksOn(in.nodes.at(i).name, in.rankNodes)),
                      shellQuote(QStringLiteral("stdouterr/") + nodeLogName(in.nodes.at(i))));
    return s;
}

// The command is the user's shell text (or built around it): a group, so that `a; b` stays
// one job. The script ends when it does, with its exit code.
QString jobAndFinish(const LaunchScriptInput &in)
{
    QString s;
    if (!in.taskOutputNames.isEmpty())
        s += QStringLiteral(": > stdouterr/stdout.txt; : > stdouterr/stderr.txt\n");  // there to be followed at once
    s += QStringLiteral("{\n%1\n} > stdouterr/stdout.txt 2> stdouterr/stderr.txt &\n").arg(in.command);
    if (in.taskOutputNames.isEmpty()) {
        s += QStringLiteral("wait_for $!\nfinish $?\n");
        return s;
    }
    // Each task's own files, split from the combined ones on the head node as they grow.
    s += QStringLiteral("job=$!\n") + TaskOutputs::followerText(in.taskOutputNames, in.untaggedTaskOutput);
    s += QStringLiteral("trap 'terminated=1' TERM\ntrap - INT HUP\n");
    s += QStringLiteral("wait_for $job\nrc=$?\nwait_for $split_out\nwait_for $split_err\nfinish $rc\n");
    return s;
}

} // namespace

} // namespace TrainDesk

#include "SlurmBatchScript.h"

#include "common/ShellQuote.h"

#include <QRegularExpression>

namespace TrainDesk {

namespace {

QString directive(const QString &option, const QString &value)
{
    // sbatch reads #SBATCH lines without a shell: a value with spaces would be cut there.
    return QStringLiteral("#SBATCH --%1=%2\n").arg(option, value);
}

} // namespace

Result<QString> slurmBatchScript(const LaunchPlan &plan, const JobSpec &spec, const SlurmSettings &settings,
                                 const QString &jobName)
{
    const int nodes = spec.nodeCount;
    // As Batch AI: processCount ranks, processCount / nodeCount on each node.
    const int processes = qMax(plan.processCount, nodes);
    if (processes % nodes != 0) {
        return fail(QStringLiteral("properties: %1 processes do not spread evenly over nodeCount %2 "
                                   "(Slurm runs the same number of tasks on every node)")
                        .arg(processes)
                        .arg(nodes));
    }
    for (const QString &value : {settings.partition, settings.account, settings.qos}) {
        if (value.contains(QRegularExpression(QStringLiteral("[\\s#]"))))
            return fail(QStringLiteral("Slurm setting '%1' has a space or '#'").arg(value));
    }
    QString s = QStringLiteral("#!/bin/sh\n# TrainDesk batch script for job %1. Generated; submitted with sbatch.\n")
                    .arg(jobName);
    s += directive(QStringLiteral("job-name"), QStringLiteral("traindesk-%1").arg(jobName));
    s += directive(QStringLiteral("nodes"), QString::number(nodes));
    s += directive(QStringLiteral("ntasks"), QString::number(processes));
    s += directive(QStringLiteral("ntasks-per-node"), QString::number(processes / nodes));
    if (settings.gpusPerNode > 0)
        s += directive(QStringLiteral("gres"), QStringLiteral("gpu:%1").arg(settings.gpusPerNode));
    // Slurm counts minutes; a limit that is not whole minutes gets the next one, and the
    // launch script's own watchdog still ends the job at the exact limit.
    s += directive(QStringLiteral("time"), QString::number((plan.maxWallClockTime.seconds() + 59) / 60));
    // Only an operator may lower a job's nice value: "high" runs at the default.
    if (spec.schedulingPriority.value_or(QString()) == QLatin1String("low"))
        s += directive(QStringLiteral("nice"), QStringLiteral("100"));
    if (!settings.partition.isEmpty())
        s += directive(QStringLiteral("partition"), settings.partition);
    if (!settings.account.isEmpty())
        s += directive(QStringLiteral("account"), settings.account);
    if (!settings.qos.isEmpty())
        s += directive(QStringLiteral("qos"), settings.qos);
    s += directive(QStringLiteral("chdir"), plan.jobDir);
    s += directive(QStringLiteral("output"), plan.stdOutErrDir + QStringLiteral("/slurm-%j.txt"));
    s += QStringLiteral("cd %1 || exit 1\n").arg(shellQuote(plan.jobDir));
    // What holds the job's processes, as the guide lists for every job folder: Slurm's job.
    s += QStringLiteral("echo \"slurm $SLURM_JOB_ID\" > tracking\n");
    // mpirun reads the hostfile: the allocation's nodes, each with its tasks as slots.
    s += QStringLiteral("scontrol show hostnames \"$SLURM_JOB_NODELIST\" | "
                        "sed \"s/\\$/ slots=${SLURM_NTASKS_PER_NODE%%(*}/\" > %1\n")
             .arg(shellQuote(plan.hostfilePath()));
    // The plan names the nodes by placeholders: Slurm picks them only now.
    s += QStringLiteral("t=$(( ${SLURM_CPUS_ON_NODE:-1} / ${SLURM_NTASKS_PER_NODE%%(*} )); [ \"$t\" -ge 1 ] || t=1\n"
                        "i=0; fill=\"-e s/%1/$t/g\"\n").arg(slurmThreadsPlaceholder());
    s += QStringLiteral("for h in $(scontrol show hostnames \"$SLURM_JOB_NODELIST\"); do\n"
                        "  a=$(scontrol -o show node \"$h\" | sed -n 's/.* NodeAddr=\\([^ ]*\\).*/\\1/p')\n"
                        "  fill=\"$fill -e s/%1/$h/g -e s/%2/${a:-$h}/g\"\n"
                        "  i=$((i + 1))\n"
                        "done\n"
                        "sed -i $fill %3 || exit 1\n")
             .arg(slurmNodePlaceholder(QStringLiteral("$i")), slurmAddressPlaceholder(QStringLiteral("$i")),
                  shellQuote(plan.launchScriptPath()));
    s += QStringLiteral("exec /bin/sh %1\n").arg(shellQuote(plan.launchScriptPath()));
    return s;
}

QList<Node> slurmAllocationNodes(const JobSpec &spec)
{
    const int count = qMax(1, spec.nodeCount);
    QList<Node> nodes;
    for (int i = 0; i < count; ++i) {
        Node n;
        n.index = i;
        n.name = QStringLiteral("node-%1").arg(i);
        n.host = slurmAddressPlaceholder(QString::number(i));
        n.slotCount = qMax(1, spec.processCount() / count);
        nodes << n;
    }
    return nodes;
}

QString slurmNodePlaceholder(const QString &index) { return QStringLiteral("@slurm-node-%1@").arg(index); }

QString slurmAddressPlaceholder(const QString &index) { return QStringLiteral("@slurm-addr-%1@").arg(index); }

QString slurmThreadsPlaceholder() { return QStringLiteral("@slurm-threads@"); }

QString slurmPlanText(const LaunchPlan &plan)
{
    return QStringLiteral("%1\n# %2 (it puts the i-th allocated node's Slurm name for %6 and its address for %7 "
                          "into launch.sh):\n%3\n# %4:\n%5")
        .arg(plan.describe(), plan.batchScriptPath(), plan.batchScript, plan.launchScriptPath(), plan.launchScriptShown,
             slurmNodePlaceholder(QStringLiteral("i")), slurmAddressPlaceholder(QStringLiteral("i")));
}

} // namespace TrainDesk

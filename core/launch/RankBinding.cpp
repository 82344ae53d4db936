#include "RankBinding.h"

#include "SlurmBatchScript.h"

#include "common/ShellQuote.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace TrainDesk::RankBinding {

namespace {

// Each node's share of its machine: nodes on one host (several nodes of a test cluster on
// this machine) share its cores among all their ranks.
struct Shares
{
    QHash<QString, int> threads;  // node name -> threads per rank
    QStringList described;        // "node0: 4 cores / 2 ranks"
};

// Cores and ranks per host: several nodes of a test cluster on one machine share it.
struct HostLoad
{
    QHash<QString, int> cores;  // host -> cores (the most any of its nodes reports)
    QHash<QString, int> ranks;  // host -> ranks placed on its nodes
};

HostLoad hostLoadOf(const QList<Node> &nodes, const QStringList &rankNodes)
{
    QHash<QString, QString> hostOf;
    HostLoad load;
    for (const Node &n : nodes) {
        hostOf.insert(n.name, n.host);
        load.cores[n.host] = qMax(load.cores.value(n.host), qMax(1, n.slotCount));
    }
    for (const QString &node : rankNodes)
        load.ranks[hostOf.value(node)] += 1;
    return load;
}

Shares sharesOf(const QList<Node> &nodes, const QStringList &rankNodes)
{
    const HostLoad load = hostLoadOf(nodes, rankNodes);
    const QHash<QString, int> &cores = load.cores;
    const QHash<QString, int> &ranks = load.ranks;
    Shares s;
    for (const Node &n : nodes) {
        const int onHost = ranks.value(n.host);
        if (onHost == 0 || s.threads.contains(n.name))
            continue;
        s.threads.insert(n.name, qMax(1, cores.value(n.host) / onHost));
        s.described << QStringLiteral("%1: %2 core%3 / %4 rank%5")
                           .arg(n.name)
                           .arg(cores.value(n.host))
                           .arg(cores.value(n.host) == 1 ? QString() : QStringLiteral("s"))
                           .arg(onHost)
                           .arg(onHost == 1 ? QString() : QStringLiteral("s"));
    }
    return s;
}

bool commandBinds(const QString &program)
{
    static const QRegularExpression binding(QStringLiteral("(^|\\s)--?bind-to(\\s|=|$)|_base_binding_policy"));
    return program.contains(binding);
}

void set(EnvironmentList &environment, const QString &name, const QString &value)
{
    for (auto &entry : environment) {
        if (entry.first == name) {
            entry.second = value;
            return;
        }
    }
    environment.append({name, value});
}

} // namespace

QStringList applyTo(ToolkitLaunch &launch, EnvironmentList &environment, const QStringList &userVariables,
                    const QList<Node> &nodes, const QStringList &rankNodes, bool slurm)
{
    // A command the job runs itself starts its own ranks, if any.
    if (launch.kind == ToolkitLaunch::Kind::HeadNode)
        return {};
    // In a Slurm allocation the cores are Slurm's to give (its cpuset per task): Open MPI's
    // own binding is kept. Unbound ranks with a thread per core of the node oversubscribed
    // nodes that share a machine (seen in CI: a 2-node job past its 3-minute limit). The
    // threads are the allocation's CPUs per task, known once Slurm gave them (the batch
    // script fills them in): two tasks of a node bound to both its cores ran 2 threads each.
    if (slurm) {
        QStringList notes{QStringLiteral("ranks: Slurm's allocation decides (Open MPI's binding kept)")};
        if (userVariables.contains(threadsVariable)) {
            notes << QStringLiteral("threads: the job's own %1 kept (environmentVariables win)").arg(threadsVariable);
        } else {
            set(environment, threadsVariable, slurmThreadsPlaceholder());
            notes << QStringLiteral("threads: %1 = the CPUs Slurm gave each task (SLURM_CPUS_ON_NODE / SLURM_NTASKS_PER_NODE)")
                         .arg(threadsVariable);
        }
        return notes;
    }
    QStringList notes;
    if (userVariables.contains(policyVariable) || userVariables.contains(policyVariable5)) {
        notes << QStringLiteral("ranks: the job's own %1 kept (environmentVariables win)")
                     .arg(userVariables.contains(policyVariable) ? policyVariable : policyVariable5);
    } else if (launch.kind == ToolkitLaunch::Kind::Mpi && commandBinds(launch.program)) {
        notes << QStringLiteral("ranks: the job's own --bind-to kept (its command line)");
    } else {
        set(environment, policyVariable, QStringLiteral("none"));
        notes << QStringLiteral("ranks: Open MPI binding none (%1=none): each rank may use every core of its node")
                     .arg(policyVariable);
    }
    if (userVariables.contains(threadsVariable)) {
        notes << QStringLiteral("threads: the job's own %1 kept (environmentVariables win)").arg(threadsVariable);
        return notes;
    }
    const Shares shares = sharesOf(nodes, rankNodes);
    if (shares.threads.isEmpty())
        return notes;
    QList<int> values = shares.threads.values();
    std::sort(values.begin(), values.end());
    const QString why = shares.described.join(QStringLiteral(", "));
    if (values.first() == values.last() || launch.kind == ToolkitLaunch::Kind::Mpi) {
        // One value for every rank of one MPI world: the smallest share, so no node is
        // oversubscribed.
        set(environment, threadsVariable, QString::number(values.first()));
        notes << QStringLiteral("threads: %1=%2 (%3)").arg(threadsVariable).arg(values.first()).arg(why);
        return notes;
    }
    for (LaunchTask &task : launch.tasks)
        task.environment.append({threadsVariable, QString::number(shares.threads.value(nodes.at(task.nodeIndex).name, 1))});
    notes << QStringLiteral("threads: %1 per task, its node's share (%2)").arg(threadsVariable, why);
    return notes;
}

QStringList oversubscribed(const QList<Node> &nodes, const QStringList &rankNodes)
{
    const HostLoad load = hostLoadOf(nodes, rankNodes);
    const QHash<QString, int> &cores = load.cores;
    const QHash<QString, int> &ranks = load.ranks;
    QStringList found;
    QStringList seenHosts;
    for (const Node &n : nodes) {
        if (seenHosts.contains(n.host) || ranks.value(n.host) <= cores.value(n.host))
            continue;
        seenHosts << n.host;
        found << QStringLiteral("%1: %2 ranks on %3 core%4")
                     .arg(n.name)
                     .arg(ranks.value(n.host))
                     .arg(cores.value(n.host))
                     .arg(cores.value(n.host) == 1 ? QString() : QStringLiteral("s"));
    }
    return found;
}

QString rangesText(const QList<int> &indices)
{
    QList<int> sorted = indices;
    std::sort(sorted.begin(), sorted.end());
    QStringList runs;
    for (qsizetype i = 0; i < sorted.size();) {
        qsizetype j = i;
        while (j + 1 < sorted.size() && sorted.at(j + 1) == sorted.at(j) + 1)
            ++j;
        runs << (j == i ? QString::number(sorted.at(i)) : QStringLiteral("%1-%2").arg(sorted.at(i)).arg(sorted.at(j)));
        i = j + 1;
    }
    return runs.join(QLatin1Char(','));
}

QString pinText(const QList<int> &cores)
{
    QStringList wanted;
    for (int c : cores)
        wanted << QString::number(c);
    // The node's CPU ids need not start at 0 (a container's cpuset): the k-th allowed one.
    const QString pick = QStringLiteral(
        "/^Cpus_allowed_list/ { n = split($2, r, \",\"); k = 0; for (i = 1; i <= n; i++) { m = split(r[i], b, \"-\"); "
        "c = b[1] + 0; e = (m > 1 ? b[2] : b[1]) + 0; for (; c <= e; c++) { if (index(want, \",\" k \",\")) "
        "{ printf \"%s%s\", s, c; s = \",\" } k++ } } }");
    return QStringLiteral("td_cpus=$(awk -v want=%1 %2 /proc/self/status)\n"
                          "if [ -n \"$td_cpus\" ] && taskset -pc \"$td_cpus\" $$ >/dev/null 2>&1; then "
                          "log \"ranks: on CPUs $td_cpus of this node (taskset; cores %3 of its share)\"; "
                          "else log 'ranks: not pinned (no taskset, or CPUs %3 not allowed): they may use every core'; fi")
        .arg(shellQuote(QLatin1Char(',') + wanted.join(QLatin1Char(',')) + QLatin1Char(',')), shellQuote(pick),
             rangesText(cores));
}

} // namespace TrainDesk::RankBinding

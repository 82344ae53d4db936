#include "SlurmQueries.h"

#include "common/ShellQuote.h"

#include <QRegularExpression>

namespace TrainDesk::SlurmQueries {

namespace {

// sinfo marks states with a suffix: '*' not responding, '~' powered off, '#' powering up,
// '!' pending power down, '%' powering down, '$' maintenance, '@' pending reboot, '^' rebooting,
// '-' planned. The word before it decides.
QString baseState(const QString &state)
{
    QString s = state.toLower();
    while (!s.isEmpty() && !s.back().isLetter())
        s.chop(1);
    return s.section(QLatin1Char('+'), 0, 0);
}

NodeState nodeStateOf(const QString &slurmState)
{
    const QString s = baseState(slurmState);
    if (s == QLatin1String("idle"))
        return slurmState.endsWith(QLatin1Char('*')) ? NodeState::Unusable : NodeState::Idle;
    static const QStringList busy{QStringLiteral("allocated"), QStringLiteral("mixed"), QStringLiteral("completing"),
                                  QStringLiteral("planned")};
    if (busy.contains(s))
        return slurmState.endsWith(QLatin1Char('*')) ? NodeState::Unusable : NodeState::Running;
    return NodeState::Unusable;  // down, drained, draining, fail, failing, unknown, maint, ...
}

QList<QStringList> fields(const QByteArray &output, int count)
{
    QList<QStringList> rows;
    for (const QString &line : QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.trimmed().split(QLatin1Char('|'));
        if (f.size() >= count)
            rows << f;
    }
    return rows;
}

// Slurm prints local times without a zone ("2026-11-24T00:07:44"), "N/A" or "Unknown".
QDateTime startTime(const QString &text)
{
    QDateTime t = QDateTime::fromString(text, Qt::ISODate);
    return t.isValid() ? t.toUTC() : QDateTime();
}

} // namespace

QString nodesCommand(const SlurmSettings &settings)
{
    QString command = QStringLiteral("sinfo -h -N -o '%N|%T|%E|%c'");
    if (!settings.partition.isEmpty())
        command += QStringLiteral(" -p ") + shellQuote(settings.partition);
    return command;
}

QList<NodeStatus> parseNodes(const QByteArray &sinfoOutput)
{
    QList<NodeStatus> nodes;
    for (const QStringList &f : fields(sinfoOutput, 4)) {
        // -N lists a node once per partition it is in.
        if (std::any_of(nodes.begin(), nodes.end(), [&](const NodeStatus &n) { return n.name == f.at(0); }))
            continue;
        NodeStatus n;
        n.name = f.at(0);
        n.slurmState = f.at(1);
        n.state = nodeStateOf(n.slurmState);
        if (n.state == NodeState::Unusable) {
            const QString reason = f.at(2) == QLatin1String("none") ? QString() : f.at(2);
            n.reason = QStringLiteral("Slurm: %1%2").arg(n.slurmState, reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
        }
        n.cpus = qMax(1, f.at(3).toInt());
        nodes << n;
    }
    return nodes;
}

QString partitionsCommand() { return QStringLiteral("sinfo -h -o '%P|%a|%D|%l'"); }

QList<Partition> parsePartitions(const QByteArray &sinfoOutput)
{
    QList<Partition> partitions;
    for (const QStringList &f : fields(sinfoOutput, 4)) {
        Partition p;
        p.name = f.at(0);
        p.isDefault = p.name.endsWith(QLatin1Char('*'));
        if (p.isDefault)
            p.name.chop(1);
        p.availability = f.at(1);
        p.nodes = f.at(2).toInt();
        p.timeLimit = f.at(3);
        partitions << p;
    }
    return partitions;
}

QString jobsCommand(const QStringList &ids)
{
    // --states=all: finished jobs stay visible for Slurm's MinJobAge (300 s by default).
    return QStringLiteral("squeue -h --states=all -j %1 -o '%i|%T|%r|%N|%S'").arg(shellQuote(ids.join(QLatin1Char(','))));
}

// squeue and sacct print the same columns here: id|state|reason|nodes|start. sacct's state
// may carry more words ("CANCELLED by 0"): the state is the first.
static QHash<QString, JobStatus> parseJobRows(const QByteArray &output)
{
    QHash<QString, JobStatus> jobs;
    for (const QStringList &f : fields(output, 4)) {
        JobStatus s;
        s.id = f.at(0);
        s.state = f.at(1).section(QLatin1Char(' '), 0, 0);
        s.reason = f.at(2) == QLatin1String("None") ? QString() : f.at(2);
        s.nodes = expandHostList(f.at(3));
        s.started = startTime(f.value(4));
        jobs.insert(s.id, s);
    }
    return jobs;
}

QHash<QString, JobStatus> parseJobs(const QByteArray &squeueOutput) { return parseJobRows(squeueOutput); }

QString accountingCommand(const QStringList &ids)
{
    return QStringLiteral("sacct -n -P -X -j %1 -o JobID,State,Reason,NodeList,Start 2>/dev/null || true")
        .arg(shellQuote(ids.join(QLatin1Char(','))));
}

QHash<QString, JobStatus> parseAccounting(const QByteArray &sacctOutput) { return parseJobRows(sacctOutput); }

QStringList expandHostList(const QString &hostList)
{
    QStringList hosts;
    if (hostList.isEmpty() || hostList == QLatin1String("(null)") || hostList == QLatin1String("None assigned"))
        return hosts;
    // Split at commas outside brackets.
    QStringList parts;
    int depth = 0;
    QString current;
    for (const QChar c : hostList) {
        if (c == QLatin1Char('['))
            ++depth;
        else if (c == QLatin1Char(']'))
            --depth;
        if (c == QLatin1Char(',') && depth == 0) {
            parts << current;
            current.clear();
        } else {
            current += c;
        }
    }
    parts << current;
    static const QRegularExpression ranged(QStringLiteral("^([^\\[]*)\\[([^\\]]*)\\](.*)$"));
    for (const QString &part : parts) {
        const auto m = ranged.match(part);
        if (!m.hasMatch()) {
            hosts << part;
            continue;
        }
        for (const QString &range : m.captured(2).split(QLatin1Char(','))) {
            const QString from = range.section(QLatin1Char('-'), 0, 0);
            const QString to = range.section(QLatin1Char('-'), 1, 1);
            if (to.isEmpty()) {
                hosts << m.captured(1) + from + m.captured(3);
                continue;
            }
            // Zero padding is kept: gpu[01-03] -> gpu01 gpu02 gpu03.
            for (int i = from.toInt(); i <= to.toInt(); ++i)
                hosts << m.captured(1) + QStringLiteral("%1").arg(i, from.size(), 10, QLatin1Char('0')) + m.captured(3);
        }
    }
    return hosts;
}

} // namespace TrainDesk::SlurmQueries

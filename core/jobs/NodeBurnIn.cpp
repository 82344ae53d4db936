#include "NodeBurnIn.h"

#include <QDir>

#include "common/ResultLog.h"
#include "cluster/TrainerDeployment.h"
#include "cluster/TransportFactory.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "launch/MultiNodeJob.h"
#include "store/Store.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

#include <thread>

namespace TrainDesk {

namespace {

using Outcome = BurnInFigure::Outcome;

// A GPU hotter than this is throttling or cooling badly (NVIDIA's data-centre GPUs slow
// down in the high 80s).
constexpr int hottestGpuCelsius = 85;
// mpirun as root needs these, as in the launch script.
const QString rootMpi = QStringLiteral("if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 "
                                       "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi; ");

BurnInFigure figure(const QStringList &nodes, const QString &id, const QString &title, Outcome outcome, const QString &detail)
{
    BurnInFigure f;
    f.nodes = nodes;
    f.id = id;
    f.title = title;
    f.outcome = outcome;
    f.detail = detail;
    return f;
}

QString lastLine(const QByteArray &text)
{
    const QStringList lines = QString::fromUtf8(text).trimmed().split(QLatin1Char('\n'));
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

// The trainer the nodes run: this machine's copy (on SSH nodes, copied there first), else
// the nodes' own on the PATH.
Result<QString> trainerOnNodes(const Cluster &cluster, const QList<Node> &nodes)
{
    const auto bundle = TrainerDeployment::localBundle(DataPaths::trainerDirectory());
    if (!bundle)
        return QStringLiteral("traindesk-trainer");
    // This machine runs its own build's trainer (the bundle may be the portable archive,
    // which only nodes unpack).
    if (cluster.kind == ClusterKind::Local)
        return QDir(DataPaths::trainerDirectory()).filePath(QStringLiteral("traindesk-trainer"));
    if (auto copied = TrainerDeployment::ensureOnNodes(cluster, nodes, *bundle); !copied)
        return copied.failure();
    return TrainerDeployment::remoteDirectory(cluster, *bundle) + QStringLiteral("/traindesk-trainer");
}

// GPU checks of one node; a node without a GPU gets one skipped figure.
QList<BurnInFigure> gpuFigures(Transport &t, const Node &node, const QString &trainer)
{
    const QStringList on{node.name};
    const auto listed = t.exec(QStringLiteral("nvidia-smi -L 2>/dev/null | grep -c '^GPU '"), 30000);
    const int gpus = listed ? listed->stdOut.trimmed().toInt() : 0;
    if (gpus <= 0)
        return {figure(on, QStringLiteral("gpu"), QStringLiteral("GPU checks"), Outcome::Skipped,
                       QStringLiteral("skipped: no NVIDIA GPU on the node (nvidia-smi lists none)"))};
    QList<BurnInFigure> figures;
    // Temperature, clocks and uncorrected ECC errors of each GPU; XIDs in the kernel log.
    const auto query = t.exec(QStringLiteral("nvidia-smi --query-gpu=index,name,temperature.gpu,clocks.sm,clocks.max.sm,"
                                             "ecc.errors.uncorrected.volatile.total --format=csv,noheader,nounits"), 30000);
    QStringList healthy, problems;
    for (const QString &line : QString::fromUtf8(query ? query->stdOut : QByteArray()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char(','));
        if (f.size() < 6)
            continue;
        const QString gpu = QStringLiteral("GPU %1 (%2)").arg(f[0].trimmed(), f[1].trimmed());
        const int celsius = f[2].trimmed().toInt();
        const QString clocks = QStringLiteral("%1 of %2 MHz").arg(f[3].trimmed(), f[4].trimmed());
        bool eccKnown = false;
        const int ecc = f[5].trimmed().toInt(&eccKnown);
        QString text = QStringLiteral("%1: %2 C, SM clock %3, uncorrected ECC errors %4")
                           .arg(gpu).arg(celsius).arg(clocks, eccKnown ? QString::number(ecc) : QStringLiteral("n/a"));
        if (celsius >= hottestGpuCelsius)
            problems << text + QStringLiteral(" (at least %1 C is too hot)").arg(hottestGpuCelsius);
        else if (eccKnown && ecc > 0)
            problems << text + QStringLiteral(" (uncorrected ECC errors: the GPU's memory is failing)");
        else
            healthy << text;
    }
    const auto xid = t.exec(QStringLiteral("dmesg 2>/dev/null | grep -c 'NVRM: Xid' || true; dmesg >/dev/null 2>&1 || echo unreadable"), 30000);
    const QString xidText = xid ? QString::fromUtf8(xid->stdOut) : QString();
    if (xidText.contains(QLatin1String("unreadable")))
        healthy << QStringLiteral("XID errors not looked at (the kernel log needs root)");
    else if (const int xids = xidText.trimmed().toInt(); xids > 0)
        problems << QStringLiteral("%1 XID error%2 in the kernel log (dmesg | grep Xid)").arg(xids).arg(xids == 1 ? "" : "s");
    else
        healthy << QStringLiteral("no XID errors in the kernel log");
    figures << figure(on, QStringLiteral("gpuHealth"), QStringLiteral("GPU health (nvidia-smi)"),
                      problems.isEmpty() && query && query->exitCode == 0 ? Outcome::Passed : Outcome::Failed,
                      (problems.isEmpty() && (!query || query->exitCode != 0)
                           ? QStringList{QStringLiteral("nvidia-smi --query-gpu failed: %1").arg(query ? lastLine(query->stdErr) : query.error())}
                           : problems + healthy).join(QStringLiteral("; ")));
    // The trainer's own GPU self-check: a short run with --device cuda compares GPU and CPU
    // steps first, and fails naming the layer when they disagree.
    const auto check = t.exec(QStringLiteral("cd /tmp && %1 --device cuda --format synthetic --synthetic-train 256 --synthetic-test 64 "
                                             "--synthetic-shape 16x16x1 --epochs 1 --no-save --metrics-file /dev/null 2>&1")
                                  .arg(shellQuote(trainer)), 300000);
    figures << figure(on, QStringLiteral("gpuSelfCheck"), QStringLiteral("GPU self-check (trainer)"),
                      check && check->exitCode == 0 ? Outcome::Passed : Outcome::Failed,
                      check ? (check->exitCode == 0 ? QStringLiteral("the GPU's steps match the CPU's")
                                                    : QStringLiteral("exit code %1: %2").arg(check->exitCode).arg(lastLine(check->stdOut)))
                            : check.error());
    const auto memory = t.exec(QStringLiteral("%1 --gpu-memory-test 2>&1").arg(shellQuote(trainer)), 600000);
    QStringList memoryText;
    bool memoryGood = memory && memory->exitCode == 0;
    for (const QByteArray &line : memory ? memory->stdOut.split('\n') : QList<QByteArray>()) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value("kind").toString() != QLatin1String("gpu_memory"))
            continue;
        if (o.contains("error")) {
            memoryText << QStringLiteral("GPU %1: %2").arg(o.value("device").toInt()).arg(o.value("error").toString());
            continue;
        }
        const double gib = o.value("bytes").toDouble() / (1024.0 * 1024 * 1024);
        memoryText << QStringLiteral("GPU %1: %2 GiB written and read back twice, %3 bad words (0 expected)")
                          .arg(o.value("device").toInt()).arg(gib, 0, 'f', 1).arg(o.value("bad_words").toInteger());
    }
    if (memoryText.isEmpty())
        memoryText << (memory ? QStringLiteral("exit code %1: %2").arg(memory->exitCode).arg(lastLine(memory->stdOut)) : memory.error());
    figures << figure(on, QStringLiteral("gpuMemory"), QStringLiteral("GPU memory test (trainer)"),
                      memoryGood ? Outcome::Passed : Outcome::Failed, memoryText.join(QStringLiteral("; ")));
    return figures;
}

// The speed in Mb/s of the node's interface toward `peer` (0 when unknown: a virtual or
// loopback interface without one).
int linkSpeedTowards(Transport &t, const QString &peer)
{
    const auto speed = t.exec(QStringLiteral("a=$(getent ahostsv4 %1 | awk 'NR == 1 { print $1 }'); "
                                             "dev=$(ip -o route get \"${a:-%1}\" 2>/dev/null | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p'); "
                                             "[ -n \"$dev\" ] && cat /sys/class/net/\"$dev\"/speed 2>/dev/null")
                                  .arg(shellQuote(peer)), 30000);
    return speed && speed->exitCode == 0 ? qMax(0, speed->stdOut.trimmed().toInt()) : 0;
}

// How fast the node sends to this machine: `pathTestBytes` from /dev/zero over its own
// connection, timed here (MB/s; 0 when it could not be read). The node's sending side is
// what a throttled or bad link of its own slows.
constexpr int pathTestBytes = 8 << 20;

double pathRate(const Cluster &cluster, const Node &node, QString *detail)
{
    auto transport = openTransport(cluster, node);
    if (!transport) {
        *detail = transport.error();
        return 0;
    }
    QElapsedTimer timer;
    timer.start();
    const auto read = (*transport)->exec(QStringLiteral("head -c %1 /dev/zero").arg(pathTestBytes), 120000);
    const double seconds = qMax(1e-6, timer.nsecsElapsed() / 1e9);
    if (!read || read->exitCode != 0 || read->stdOut.size() != pathTestBytes) {
        *detail = read ? QStringLiteral("read %1 of %2 bytes from the node (exit code %3)")
                             .arg(read->stdOut.size()).arg(pathTestBytes).arg(read->exitCode)
                       : read.error();
        return 0;
    }
    const double rate = pathTestBytes / 1e6 / seconds;
    *detail = QStringLiteral("%1 MB/s (%2 MiB from the node to this machine in %3 s)")
                  .arg(rate, 0, 'f', 1).arg(pathTestBytes >> 20).arg(seconds, 0, 'f', 2);
    return rate;
}

// Hands a figure to the report (and to the caller's onFigure) as soon as it is known.
using AddFigure = std::function<void(const BurnInFigure &)>;

// Each node's GPU figures, all nodes at once; which nodes have a GPU (NCCL between them).
QList<bool> checkGpus(const Cluster &cluster, const QList<Node> &nodes, const QString &trainer, const AddFigure &add)
{
    QList<bool> hasGpu(nodes.size(), false);
    std::vector<std::thread> workers;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        workers.emplace_back([&, i] {
            auto transport = openTransport(cluster, nodes.at(i));
            if (!transport) {
                add(figure({nodes.at(i).name}, QStringLiteral("reachable"), QStringLiteral("Reachable"), Outcome::Failed,
                           transport.error()));
                return;
            }
            for (const BurnInFigure &f : gpuFigures(**transport, nodes.at(i), trainer)) {
                hasGpu[i] = hasGpu[i] || f.id != QLatin1String("gpu");
                add(f);
            }
        });
    }
    for (std::thread &w : workers)
        w.join();
    return hasGpu;
}

// All-reduce between neighbours of a ring over `count` nodes, one pair at a time: one node
// pairs with itself (2 ranks on it), two nodes make one pair.
QList<QPair<int, int>> ringPairs(int count)
{
    QList<QPair<int, int>> pairs;
    if (count == 1)
        pairs << qMakePair(0, 0);
    else if (count == 2)
        pairs << qMakePair(0, 1);
    else
        for (int i = 0; i < count; ++i)
            pairs << qMakePair(i, (i + 1) % count);
    return pairs;
}

// The speed in Mb/s of the link between two nodes: the slower of their interfaces toward
// each other, or the one known (0: neither).
int linkSpeedBetween(const Cluster &cluster, const Node &a, const Node &b)
{
    auto ta = openTransport(cluster, a);
    auto tb = openTransport(cluster, b);
    const int sa = ta ? linkSpeedTowards(**ta, b.host) : 0;
    const int sb = tb ? linkSpeedTowards(**tb, a.host) : 0;
    return sa > 0 && sb > 0 ? qMin(sa, sb) : qMax(sa, sb);
}

// The trainer's --allreduce-test between `a` and `b` (the same node: 2 ranks on it), run
// from the head node; its bus bandwidth judged against the link's speed where known.
BurnInFigure allreduceFigure(const Cluster &cluster, Transport &head, const QString &trainer, const Node &a, const Node &b,
                             bool nccl)
{
    const bool alone = &a == &b;  // one node: the ring's only pair is the node with itself
    const QString hosts = alone ? QStringLiteral("%1:2").arg(a.host) : QStringLiteral("%1:1,%2:1").arg(a.host, b.host);
    const QString command = rootMpi + MultiNodeJob::launchPrefix(cluster)
        + QStringLiteral("mpirun --oversubscribe --host %1 -np 2 %2 --allreduce-test --allreduce-mb %3 "
                         "--allreduce-iterations %4 --device %5 2>&1")
              .arg(shellQuote(hosts), shellQuote(trainer)).arg(NodeBurnIn::allreduceMegabytes).arg(NodeBurnIn::allreduceIterations)
              .arg(nccl ? QStringLiteral("cuda") : QStringLiteral("cpu"));
    const auto ran = head.exec(command, 300000);
    QJsonObject result;
    for (const QByteArray &line : ran ? ran->stdOut.split('\n') : QList<QByteArray>()) {
        const QJsonObject o = QJsonDocument::fromJson(line.trimmed()).object();
        if (o.value("kind").toString() == QLatin1String("allreduce"))
            result = o;
    }
    const QStringList on = alone ? QStringList{a.name} : QStringList{a.name, b.name};
    BurnInFigure f = figure(on, QStringLiteral("allreduce"),
                            QStringLiteral("All-reduce (%1)").arg(nccl ? QStringLiteral("NCCL") : QStringLiteral("MPI")),
                            Outcome::Passed, QString());
    if (result.isEmpty()) {
        f.outcome = Outcome::Failed;
        f.detail = ran ? QStringLiteral("mpirun exited with %1: %2").arg(ran->exitCode).arg(lastLine(ran->stdOut)) : ran.error();
        return f;
    }
    f.measured = result.value("busbw_gbytes_per_s").toDouble();
    const int speed = alone ? 0 : linkSpeedBetween(cluster, a, b);
    // Mb/s to GB/s: / 8 / 1000.
    f.expected = speed > 0 ? speed / 8000.0 * NodeBurnIn::leastLinkShare : 0;
    f.detail = QStringLiteral("%1 GB/s bus bandwidth (%2 MiB x %3, %4 s each)")
                   .arg(f.measured, 0, 'f', 3).arg(NodeBurnIn::allreduceMegabytes).arg(NodeBurnIn::allreduceIterations)
                   .arg(result.value("seconds").toDouble(), 0, 'f', 4);
    if (!result.value("correct").toBool()) {
        f.outcome = Outcome::Failed;
        f.detail += QStringLiteral("; the sums came back wrong");
    } else if (alone) {
        f.detail += QStringLiteral("; 2 ranks on one node: no link to compare with");
    } else if (speed <= 0) {
        f.detail += QStringLiteral("; the link's speed is not known (no /sys/class/net/<interface>/speed): not judged");
    } else {
        f.detail += QStringLiteral("; at least %1 GB/s expected (%2 % of the %3 Mb/s link)")
                        .arg(f.expected, 0, 'f', 3).arg(int(NodeBurnIn::leastLinkShare * 100)).arg(speed);
        if (f.measured < f.expected)
            f.outcome = Outcome::Failed;
    }
    return f;
}

// Two nodes have one pair: its failure alone does not say which is slow (issue #39: both
// were made unusable, the cluster left with none). Each node's own path to this machine
// tells them apart when one is clearly slower; else no node is blamed for the pair. The
// node the failed pair counts against ("": none).
QString blameOneOfTwo(const Cluster &cluster, const Node &first, const Node &second, const AddFigure &add)
{
    const Node *both[2] = {&first, &second};
    QString detail[2];
    const double rates[2] = {pathRate(cluster, first, &detail[0]), pathRate(cluster, second, &detail[1])};
    const int slow = NodeBurnIn::slowerOfTwo(rates[0], rates[1]);
    for (int i = 0; i < 2; ++i) {
        BurnInFigure f = figure({both[i]->name}, QStringLiteral("path"), QStringLiteral("Path to this machine"),
                                i == slow ? Outcome::Failed : Outcome::Passed, detail[i]);
        if (i == slow)
            f.detail += QStringLiteral("; under a quarter of %1's: %2 is the slow node of the pair")
                            .arg(both[1 - i]->name, both[i]->name);
        add(f);
    }
    if (slow >= 0)
        return both[slow]->name;
    add(figure({first.name, second.name}, QStringLiteral("pairblame"), QStringLiteral("Slow pair"), Outcome::Skipped,
               QStringLiteral("cannot tell which node is slow: each reaches this machine as fast as the other, so "
                              "the link between them may be the cause; no node is made unusable for it")));
    return QString();
}

// How many all-reduce pairs each node took part in, and how many of them failed.
struct PairCounts
{
    QMap<QString, int> pairsOf;
    QMap<QString, int> slowPairsOf;
};

// The verdicts: a failed figure of the node's own, or every all-reduce it took part in.
QMap<QString, QString> verdicts(const QList<BurnInFigure> &figures, int nodeCount, const QString &pairBlamed,
                                const PairCounts &counts)
{
    QMap<QString, QString> failed;
    for (const BurnInFigure &f : figures) {
        if (f.outcome != Outcome::Failed)
            continue;
        for (const QString &n : f.nodes) {
            if (f.id == QLatin1String("allreduce") && nodeCount == 2 && n != pairBlamed)
                continue;  // of two nodes, only the one its own path shows slow
            if (f.id == QLatin1String("allreduce") && counts.slowPairsOf.value(n) < counts.pairsOf.value(n))
                continue;  // its other pair was fine: the other node is the slow one
            QString &why = failed[n];
            why += (why.isEmpty() ? QString() : QStringLiteral("; ")) + f.title + QStringLiteral(": ") + f.detail;
        }
    }
    return failed;
}

} // namespace

int NodeBurnIn::slowerOfTwo(double a, double b)
{
    if (a < b * clearlySlower)
        return 0;
    if (b < a * clearlySlower)
        return 1;
    return -1;
}

QString BurnInFigure::toText() const
{
    const QString word = outcome == Outcome::Passed ? QStringLiteral("PASS") : outcome == Outcome::Failed ? QStringLiteral("FAIL")
                                                                                                          : QStringLiteral("SKIP");
    return QStringLiteral("%1 %2  %3: %4").arg(word, nodes.join(QLatin1Char('+')), title, detail);
}

NodeBurnIn::NodeBurnIn(Store &store) : m_store(store) {}

Result<BurnInReport> NodeBurnIn::run(const Cluster &cluster, const QList<Node> &nodes,
                                     const std::function<void(const BurnInFigure &)> &onFigure)
{
    if (cluster.kind == ClusterKind::Slurm)
        return fail(QStringLiteral("cluster '%1' is a Slurm cluster: Slurm's own health checks decide which of its nodes "
                                   "run jobs; the burn-in runs on SSH and local clusters").arg(cluster.name));
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes to burn in").arg(cluster.name));
    const auto trainer = trainerOnNodes(cluster, nodes);
    if (!trainer)
        return trainer.failure();
    BurnInReport report;
    QMutex mutex;
    const AddFigure add = [&](const BurnInFigure &f) {
        QMutexLocker lock(&mutex);
        report.figures << f;
        if (onFigure)
            onFigure(f);
    };

    const QList<bool> hasGpu = checkGpus(cluster, nodes, *trainer, add);
    auto head = openTransport(cluster, nodes.first());
    if (!head)
        return head.failure();
    PairCounts counts;
    for (const auto &[a, b] : ringPairs(int(nodes.size()))) {
        const BurnInFigure f = allreduceFigure(cluster, **head, *trainer, nodes.at(a), nodes.at(b), hasGpu[a] && hasGpu[b]);
        for (const QString &n : f.nodes) {
            ++counts.pairsOf[n];
            if (f.outcome == Outcome::Failed)
                ++counts.slowPairsOf[n];
        }
        add(f);
    }
    const QString pairBlamed = nodes.size() == 2 && counts.slowPairsOf.value(nodes.first().name) > 0
        ? blameOneOfTwo(cluster, nodes.at(0), nodes.at(1), add)
        : QString();
    report.failedNodes = verdicts(report.figures, int(nodes.size()), pairBlamed, counts);
    return report;
}

void NodeBurnIn::applyVerdicts(const Cluster &cluster, const QList<Node> &nodes, const BurnInReport &report)
{
    for (const Node &n : nodes) {
        if (n.state == NodeState::Running || n.state == NodeState::Leaving || n.state == NodeState::Preparing)
            continue;  // a job or a resize owns it now
        VoidResult stored;
        if (report.failedNodes.contains(n.name))
            stored = m_store.setNodeState(n.id, NodeState::Unusable, reasonPrefix() + report.failedNodes.value(n.name));
        else if (n.state == NodeState::Unusable && n.stateReason.startsWith(reasonPrefix()))
            stored = m_store.setNodeState(n.id, NodeState::Idle);
        logFailure(stored, QStringLiteral("node %1: cannot store the burn-in's verdict").arg(n.name));
    }
    BurnInSchedule schedule = m_store.burnInSchedule(cluster.id);
    schedule.lastRun = QDateTime::currentDateTimeUtc();
    // Not stored: the burn-in runs again at the next look, which is harmless.
    logFailure(m_store.setBurnInSchedule(schedule),
               QStringLiteral("cluster '%1': cannot store when the burn-in ran").arg(cluster.name));
}

bool NodeBurnIn::passesBeforeJob(const Cluster &cluster, const QList<Node> &nodes)
{
    if (cluster.kind == ClusterKind::Slurm || !due(m_store.burnInSchedule(cluster.id), true, QDateTime::currentDateTimeUtc()))
        return true;
    const auto report = run(cluster, nodes);
    if (!report)
        return true;  // could not run at all (no trainer to copy, say): the job's own start says why
    applyVerdicts(cluster, nodes, *report);
    return report->failedNodes.isEmpty();
}

bool NodeBurnIn::due(const BurnInSchedule &schedule, bool beforeJob, const QDateTime &now)
{
    if (beforeJob && schedule.beforeEachJob)
        return true;
    if (schedule.everyHours <= 0)
        return false;
    return !schedule.lastRun.isValid() || schedule.lastRun.secsTo(now) >= qint64(schedule.everyHours) * 3600;
}

} // namespace TrainDesk

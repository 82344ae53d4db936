#include "NodeProbe.h"
#include "NodeInterfaces.h"

#include "ClusterMesh.h"
#include "TrainerCheck.h"
#include "cluster/TrainerDeployment.h"
#include "common/ShellQuote.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <thread>

namespace TrainDesk {

namespace {

// A plain TCP connect: tells "nothing listens" and "no route" apart from SSH problems.
QString tcpConnect(const QString &host, int port, int timeoutMs)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const int rc = getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(), &hints, &found);
    if (rc != 0)
        return QStringLiteral("cannot resolve %1: %2").arg(host, QString::fromUtf8(gai_strerror(rc)));
    QString error = QStringLiteral("no address");
    for (addrinfo *a = found; a; a = a->ai_next) {
        const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        int result = ::connect(fd, a->ai_addr, a->ai_addrlen);
        if (result != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            result = poll(&p, 1, timeoutMs);
            if (result == 0) {
                error = QStringLiteral("no answer within %1 s").arg(timeoutMs / 1000.0);
                ::close(fd);
                continue;
            }
            int soError = 0;
            socklen_t length = sizeof soError;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length);
            result = soError == 0 ? 0 : -1;
            errno = soError;
        }
        if (result == 0) {
            ::close(fd);
            freeaddrinfo(found);
            return {};
        }
        error = QString::fromLocal8Bit(strerror(errno));
        ::close(fd);
    }
    freeaddrinfo(found);
    return error;
}

QString factsScript(const Cluster &cluster, const ProbeOptions &options)
{
    QString s;
    s += QStringLiteral("echo \"hostname=$(hostname 2>/dev/null || uname -n)\"\n");
    s += QStringLiteral("if [ -r /etc/os-release ]; then . /etc/os-release; fi; echo \"os=${PRETTY_NAME:-$(uname -s)} ($(uname -sr))\"\n");
    s += QStringLiteral("echo \"kernel=$(uname -s)\"\n");
    s += QStringLiteral("echo \"cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)\"\n");
    s += QStringLiteral("echo \"memory_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null)\"\n");
    s += QStringLiteral("if command -v nvidia-smi >/dev/null 2>&1; then echo nvidia_smi=yes; "
                        "gpus=$(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>&1); st=$?; "
                        "printf '%s\\n' \"$gpus\" | sed 's/^/gpu=/'; echo \"nvidia_smi_status=$st\"; "
                        "else echo nvidia_smi=no; fi\n");
    s += QStringLiteral("echo \"mpirun=$(mpirun --version 2>/dev/null | head -n 1)\"\n");
    // Container runtimes a job's containerSettings can use: docker only when its daemon answers.
    s += QStringLiteral("for t in apptainer singularity; do command -v $t >/dev/null 2>&1 && echo container=$t; done; "
                        "command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1 && echo container=docker; "
                        "true\n");
    QString path = QStringLiteral("$PATH");
    if (!options.trainerDirectory.isEmpty())
        path = shellQuote(options.trainerDirectory) + QStringLiteral(":$PATH");
    s += QStringLiteral("echo \"trainer=$(PATH=%1 command -v traindesk-trainer)\"\n").arg(path);
    // No mount root chosen yet (the wizard's test): the default one under the home.
    const QString root = cluster.mountRoot.isEmpty() ? QStringLiteral("\"$HOME\"/traindesk/mounts")
                                                     : shellQuote(cluster.mountRoot);
    s += QStringLiteral("if mkdir -p %1 2>/dev/null && t=$(mktemp %1/.traindesk-probe.XXXXXX 2>/dev/null) && rm -f \"$t\"; "
                        "then echo mount_root=writable; else echo mount_root=no; fi\n").arg(root);
    for (int i = 0; i < options.shares.size(); ++i) {
        const Share &share = options.shares.at(i);
        const QString p = shellQuote(share.path);
        if (share.kind == ShareKind::Replicated)
            s += QStringLiteral("if mkdir -p %1 2>/dev/null && [ -w %1 ]; then echo share%2=ok; else echo share%2=no; fi\n").arg(p).arg(i);
        else
            s += QStringLiteral("if [ -d %1 ] && [ -w %1 ]; then echo share%2=ok; else echo share%2=no; fi\n").arg(p).arg(i);
    }
    s += NodeInterfaces::command();
    return s;
}

QMap<QString, QStringList> parseFacts(const QByteArray &output)
{
    QMap<QString, QStringList> values;
    for (const QByteArray &line : output.split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (eq > 0)
            values[QString::fromUtf8(line.left(eq))] << QString::fromUtf8(line.mid(eq + 1)).trimmed();
    }
    return values;
}

QString formatBytes(qint64 bytes)
{
    return QStringLiteral("%1 GiB").arg(double(bytes) / (1024.0 * 1024 * 1024), 0, 'f', 1);
}

// "10.1.2.3" -> host-order address; false when not IPv4.
bool parseIpv4(const QString &text, quint32 *address)
{
    in_addr a{};
    if (inet_pton(AF_INET, text.toLatin1().constData(), &a) != 1)
        return false;
    *address = ntohl(a.s_addr);
    return true;
}

QString ipv4Text(quint32 address)
{
    return QStringLiteral("%1.%2.%3.%4").arg(address >> 24).arg((address >> 16) & 255).arg((address >> 8) & 255).arg(address & 255);
}

bool isLoopbackHost(const QString &host)
{
    quint32 address = 0;
    return host == QLatin1String("localhost") || host == QLatin1String("::1")
        || (parseIpv4(host, &address) && (address >> 24) == 127);
}

// The trainer check: the node's own traindesk-trainer, else this machine's copied there
// (as a job would), run with --version; a missing shared library is named with its package.
template<typename Report>
void checkTrainer(Transport &transport, const Cluster &cluster, const ProbeOptions &options, const NodeFacts &f,
                  NodeProbeResult &result, const Report &report)
{
    const QString id = QStringLiteral("trainer");
    const QString title = QStringLiteral("Trainer");
    QString path = f.trainerPath;
    if (path.isEmpty() && options.trainerCopied && !cluster.mountRoot.isEmpty()) {
        const auto bundle = TrainerDeployment::localBundle(options.trainerDirectory);
        if (bundle) {
            // One node at a time: nodes that share a home (NFS) share the folder, and the copy's
            // temporary name is this process's.
            static std::mutex copying;
            std::lock_guard lock(copying);
            if (auto copied = TrainerDeployment::ensureOnNode(transport, cluster, *bundle); !copied) {
                report(id, title, false, copied.error(), QStringLiteral("the mount root must be writable on the node"));
                return;
            }
            path = TrainerDeployment::remoteDirectory(cluster, *bundle) + QStringLiteral("/traindesk-trainer");
        }
    }
    if (path.isEmpty()) {
        report(id, title, options.trainerCopied,
               options.trainerCopied ? QStringLiteral("not on the node: TrainDesk copies its own when a job starts")
                                     : QStringLiteral("traindesk-trainer not found"),
               QStringLiteral("jobs that use the bundled trainer need traindesk-trainer in %1 or on the PATH")
                   .arg(options.trainerDirectory.isEmpty() ? QStringLiteral("the trainer folder") : options.trainerDirectory));
        return;
    }
    const auto outcome = TrainerCheck::run(transport, path);
    if (!outcome) {
        report(id, title, false, outcome.error(), QString());
        return;
    }
    if (outcome->runs) {
        report(id, title, true, QStringLiteral("%1 (%2)").arg(outcome->version, path), QString());
        // A GPU node: whether the trainer can use it, with the driver and the CUDA libraries
        // it found (which copy of each) or what is missing and where it looked.
        if (!f.gpus.isEmpty()) {
            report(QStringLiteral("trainer-gpu"), QStringLiteral("Trainer on the GPU"), outcome->gpuUsable,
                   outcome->gpuInfo.join(QStringLiteral("; ")),
                   QStringLiteral("the trainer trains on the CPU of this node: install what is named missing (a CUDA "
                                  "Toolkit, or pip install nvidia-cudnn-cu13 nvidia-nccl-cu13 ...)"));
        }
        return;
    }
    result.missingPackages = outcome->packageNames();
    if (outcome->missingLibraries.isEmpty()) {
        report(id, title, false, QStringLiteral("%1 does not run: %2").arg(path, outcome->error),
               QStringLiteral("run it on the node to see why"));
        return;
    }
    const QString packages = result.missingPackages.join(QLatin1Char(' '));
    report(id, title, false, QStringLiteral("%1 does not run: it needs %2").arg(path, outcome->missingText()),
           packages.isEmpty()
               ? QStringLiteral("install the libraries named on the node")
               : QStringLiteral("install them on the node (Debian/Ubuntu: sudo apt-get install %1), or run 'traindesk "
                                "cluster setup --install-missing' where the node's user may use sudo without a password")
                     .arg(packages));
}

} // namespace

QString ProbeCheck::toText() const
{
    QString text = QStringLiteral("%1 %2%3: %4")
                       .arg(passed ? QStringLiteral("PASS") : QStringLiteral("FAIL"),
                            node.isEmpty() ? QString() : node + QStringLiteral("  "), title, detail);
    if (!passed && !hint.isEmpty())
        text += QStringLiteral("\n     hint: %1").arg(hint);
    return text;
}

QJsonObject NodeFacts::toJson() const
{
    QJsonArray addressArray;
    for (const auto &[iface, cidr] : addresses)
        addressArray.append(QJsonObject{{"interface", iface}, {"address", cidr}});
    return {{"hostname", hostname}, {"os", os}, {"cores", cores}, {"memoryBytes", memoryBytes},
            {"gpus", QJsonArray::fromStringList(gpus)}, {"openMpi", openMpiVersion}, {"trainer", trainerPath},
            {"containerRuntimes", QJsonArray::fromStringList(containerRuntimes)}, {"addresses", addressArray}};
}

NodeFacts NodeFacts::fromJson(const QJsonObject &o)
{
    NodeFacts f;
    f.hostname = o.value("hostname").toString();
    f.os = o.value("os").toString();
    f.cores = o.value("cores").toInt();
    f.memoryBytes = qint64(o.value("memoryBytes").toDouble());
    for (const QJsonValue &g : o.value("gpus").toArray())
        f.gpus << g.toString();
    f.openMpiVersion = o.value("openMpi").toString();
    f.trainerPath = o.value("trainer").toString();
    for (const QJsonValue &r : o.value("containerRuntimes").toArray())
        f.containerRuntimes << r.toString();
    for (const QJsonValue &a : o.value("addresses").toArray())
        f.addresses.append({a.toObject().value("interface").toString(), a.toObject().value("address").toString()});
    return f;
}

bool NodeFacts::knowsContainerRuntimes(const QJsonObject &json)
{
    return json.contains(QStringLiteral("containerRuntimes"));
}

bool NodeProbeResult::allPassed() const
{
    return std::all_of(checks.begin(), checks.end(), [](const ProbeCheck &c) { return c.passed; });
}

QString headToNodeSshCommand(const Node &node, const QString &sshConfigPath, const QString &command)
{
    // The cluster's own SSH config (ClusterMesh) when there is one, else the user's.
    const QString target = QStringLiteral("%1@%2").arg(node.user, node.host);
    return QStringLiteral("cfg=\"$HOME\"/%1; if [ -f \"$cfg\" ]; then set -- -F \"$cfg\"; else set --; fi; "
                          "ssh \"$@\" -o BatchMode=yes -o ConnectTimeout=5 -p %2 %3 %4")
        .arg(shellQuote(sshConfigPath))
        .arg(node.port)
        .arg(shellQuote(target), shellQuote(command));
}

QString sharedNetwork(const QList<NodeProbeResult> &results, QString *detail)
{
    // Networks (address & mask) of every node; loopback counts only for a cluster of
    // loopback nodes (several sshd on one machine, as the tests run).
    bool allLoopback = true;
    for (const NodeProbeResult &r : results)
        allLoopback = allLoopback && isLoopbackHost(r.node.host);
    QSet<QString> common;
    QMap<QString, QStringList> interfaces;
    bool first = true;
    for (const NodeProbeResult &r : results) {
        QSet<QString> networks;
        for (const auto &[iface, cidr] : r.facts.addresses) {
            quint32 address = 0;
            bool prefixOk = false;
            const int prefix = cidr.section(QLatin1Char('/'), 1, 1).toInt(&prefixOk);
            if (!parseIpv4(cidr.section(QLatin1Char('/'), 0, 0), &address) || !prefixOk || prefix < 0 || prefix > 32)
                continue;
            if ((address >> 24) == 127 && !allLoopback)
                continue;
            const quint32 mask = prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
            const QString network = QStringLiteral("%1/%2").arg(ipv4Text(address & mask)).arg(prefix);
            networks.insert(network);
            interfaces[network] << QStringLiteral("%1 on %2").arg(iface, r.node.name);
        }
        common = first ? networks : common.intersect(networks);
        first = false;
    }
    if (common.isEmpty())
        return {};
    QStringList sorted = common.values();
    sorted.sort();
    if (detail)
        *detail = QStringLiteral("%1 (%2)").arg(sorted.first(), interfaces.value(sorted.first()).join(QStringLiteral(", ")));
    return sorted.first();
}

namespace {

// Hands one node's checks to its result and to the caller's callback, one check at a time
// across the probe's threads.
class CheckReport
{
public:
    CheckReport(NodeProbeResult &result, std::mutex &mutex, const std::function<void(const ProbeCheck &)> &onCheck)
        : m_result(result), m_mutex(mutex), m_onCheck(onCheck)
    {
    }

    void operator()(const QString &id, const QString &title, bool passed, const QString &detail,
                    const QString &hint = {}) const
    {
        ProbeCheck check{m_result.node.name, id, title, passed, detail, passed ? QString() : hint};
        std::lock_guard guard(m_mutex);
        m_result.checks.append(check);
        if (m_onCheck)
            m_onCheck(check);
    }

private:
    NodeProbeResult &m_result;
    std::mutex &m_mutex;
    const std::function<void(const ProbeCheck &)> &m_onCheck;
};

// One node's checks, in the order a user reads them: reached, logged in, then what the
// node has (each check after the first failing one of reach, login or facts is skipped).
class NodeChecks
{
public:
    NodeChecks(const Cluster &cluster, const QList<Node> &nodes, int index, const ProbeOptions &options,
               NodeProbeResult &result, const CheckReport &report)
        : m_cluster(cluster), m_nodes(nodes), m_index(index), m_options(options), m_result(result),
          m_node(result.node), m_local(cluster.kind == ClusterKind::Local), m_report(report)
    {
    }

    void run();

private:
    bool reachable();
    std::shared_ptr<Transport> logIn();
    bool readFacts(Transport &transport);
    void reportSystem();
    void reportGpus();
    void reportOpenMpi();
    void reportMountRoot();
    void reportShares();
    void reportHeadSsh();
    QString fact(const QString &key) const { return m_facts.value(key).value(0); }

    const Cluster &m_cluster;
    const QList<Node> &m_nodes;
    const int m_index;
    const ProbeOptions &m_options;
    NodeProbeResult &m_result;
    const Node &m_node;
    const bool m_local;
    const CheckReport &m_report;
    QMap<QString, QStringList> m_facts;  // the facts script's lines, by key
};

// Across the cluster: a network every node is on, for MPI's traffic (a check of no node,
// kept with the first node's).
void checkSharedNetwork(const QList<Node> &nodes, QList<NodeProbeResult> &results, const ProbeOptions &options,
                        const std::function<void(const ProbeCheck &)> &onCheck);

} // namespace

QList<NodeProbeResult> probeCluster(const Cluster &cluster, const QList<Node> &nodes, const ProbeOptions &options,
                                    const std::function<void(const ProbeCheck &)> &onCheck)
{
    std::mutex reportMutex;
    QList<NodeProbeResult> results(nodes.size());
    for (int i = 0; i < nodes.size(); ++i)
        results[i].node = nodes.at(i);
    std::vector<std::thread> workers;
    for (int i = 0; i < nodes.size(); ++i) {
        workers.emplace_back([&, i] {
            const CheckReport report(results[i], reportMutex, onCheck);
            NodeChecks(cluster, nodes, i, options, results[i], report).run();
        });
    }
    for (std::thread &t : workers)
        t.join();
    checkSharedNetwork(nodes, results, options, onCheck);
    return results;
}

namespace {

void NodeChecks::run()
{
    if (m_options.cancel && m_options.cancel->isCancelled())
        return;
    if (!reachable())
        return;
    const std::shared_ptr<Transport> transport = logIn();
    if (!transport)
        return;
    m_result.connected = true;
    if (!readFacts(*transport))
        return;
    reportSystem();
    reportGpus();
    reportOpenMpi();
    checkTrainer(*transport, m_cluster, m_options, m_result.facts, m_result, m_report);
    reportMountRoot();
    reportShares();
    reportHeadSsh();
}

// A plain TCP connect first: "nothing listens" and "no route" are told apart from SSH's
// own problems.
bool NodeChecks::reachable()
{
    if (m_local) {
        m_report(QStringLiteral("reachable"), QStringLiteral("Reachable"), true, QStringLiteral("this machine"));
        return true;
    }
    const QString tcp = tcpConnect(m_node.host, m_node.port, qMin(m_options.transport.connectTimeoutMs, 5000));
    if (!tcp.isEmpty()) {
        m_report(QStringLiteral("reachable"), QStringLiteral("Reachable"), false,
                 QStringLiteral("%1:%2: %3").arg(m_node.host).arg(m_node.port).arg(tcp),
                 QStringLiteral("check the address and the port, that the machine is on and sshd runs there, "
                                "and that no firewall blocks port %1").arg(m_node.port));
        return false;
    }
    m_report(QStringLiteral("reachable"), QStringLiteral("Reachable"), true,
             QStringLiteral("%1:%2 answers").arg(m_node.host).arg(m_node.port));
    return true;
}

// The node's transport, logged in (a local cluster's needs no login); null after a failed check.
std::shared_ptr<Transport> NodeChecks::logIn()
{
    auto transport = openTransport(m_cluster, m_node, m_options.transport);
    if (!transport) {
        m_report(QStringLiteral("authenticated"), QStringLiteral("Authenticated"), false, transport.error(),
                 QStringLiteral("fix the cluster's credentials"));
        return nullptr;
    }
    if (!m_local) {
        if (auto connected = (*transport)->connect(); !connected) {
            m_report(QStringLiteral("authenticated"), QStringLiteral("Authenticated"), false, connected.error(),
                     QStringLiteral("check the user and the key or password; a new or changed host key must be "
                                    "confirmed (see the message)"));
            return nullptr;
        }
        m_report(QStringLiteral("authenticated"), QStringLiteral("Authenticated"), true,
                 QStringLiteral("logged in as %1").arg(m_node.user));
    }
    return *transport;
}

// Runs the facts script and keeps what it printed, in m_facts and as the node's NodeFacts.
bool NodeChecks::readFacts(Transport &transport)
{
    const auto output = transport.exec(factsScript(m_cluster, m_options), 60000);
    if (!output || output->exitCode != 0) {
        m_report(QStringLiteral("os"), QStringLiteral("Operating system"), false,
                 output ? QString::fromLocal8Bit(output->stdErr).trimmed() : output.error(),
                 QStringLiteral("the node needs a POSIX shell (/bin/sh) and the usual tools"));
        return false;
    }
    m_facts = parseFacts(output->stdOut);
    NodeFacts &f = m_result.facts;
    f.hostname = fact(QStringLiteral("hostname"));
    f.os = fact(QStringLiteral("os"));
    f.cores = fact(QStringLiteral("cores")).toInt();
    f.memoryBytes = fact(QStringLiteral("memory_kb")).toLongLong() * 1024;
    f.gpus = m_facts.value(QStringLiteral("gpu"));
    f.trainerPath = fact(QStringLiteral("trainer"));
    f.containerRuntimes = m_facts.value(QStringLiteral("container"));
    const QString mpirun = fact(QStringLiteral("mpirun"));
    if (mpirun.contains(QLatin1String("Open MPI")))
        f.openMpiVersion = mpirun.section(QLatin1Char(' '), -1);
    f.addresses = NodeInterfaces::parse(output->stdOut);
    return true;
}

void NodeChecks::reportSystem()
{
    const NodeFacts &f = m_result.facts;
    const bool linux = fact(QStringLiteral("kernel")) == QLatin1String("Linux");
    m_report(QStringLiteral("os"), QStringLiteral("Operating system"), linux, QStringLiteral("%1 (%2)").arg(f.os, f.hostname),
             QStringLiteral("TrainDesk's nodes run Linux"));
    m_report(QStringLiteral("cores"), QStringLiteral("Cores"), f.cores > 0, QString::number(f.cores),
             QStringLiteral("nproc gave nothing: is coreutils installed?"));
    m_report(QStringLiteral("memory"), QStringLiteral("Memory"), f.memoryBytes > 0, formatBytes(f.memoryBytes),
             QStringLiteral("/proc/meminfo cannot be read"));
}

void NodeChecks::reportGpus()
{
    QStringList &gpus = m_result.facts.gpus;
    const bool hasSmi = fact(QStringLiteral("nvidia_smi")) == QLatin1String("yes");
    const bool smiOk = fact(QStringLiteral("nvidia_smi_status")) == QLatin1String("0");
    if (!hasSmi) {
        m_report(QStringLiteral("gpus"), QStringLiteral("GPUs"), true,
                 QStringLiteral("none (nvidia-smi not found): jobs train on the CPU"));
    } else if (!smiOk || gpus.isEmpty()) {
        m_report(QStringLiteral("gpus"), QStringLiteral("GPUs"), false, gpus.join(QStringLiteral("; ")),
                 QStringLiteral("nvidia-smi fails: check the NVIDIA driver (a reboot after a driver update is common)"));
        gpus.clear();  // its error lines are no GPUs: the node offers none to jobs
    } else {
        m_report(QStringLiteral("gpus"), QStringLiteral("GPUs"), true,
                 QStringLiteral("%1: %2").arg(gpus.size()).arg(gpus.join(QStringLiteral("; "))));
    }
}

void NodeChecks::reportOpenMpi()
{
    const QString version = m_result.facts.openMpiVersion;
    const QString mpirun = fact(QStringLiteral("mpirun"));
    // Without one of its own, the node runs the Open MPI of the portable trainer that jobs
    // copy there (its mpirun is first on the launch script's PATH).
    const bool portableMpi = version.isEmpty() && mpirun.isEmpty() && m_options.trainerCopied
        && !m_cluster.mountRoot.isEmpty() && [&] {
               const auto bundle = TrainerDeployment::localBundle(m_options.trainerDirectory);
               return bundle && !bundle->archive.isEmpty();
           }();
    m_report(QStringLiteral("openmpi"), QStringLiteral("Open MPI"), !version.isEmpty() || portableMpi,
             !version.isEmpty() ? QStringLiteral("Open MPI %1").arg(version)
             : portableMpi ? QStringLiteral("mpirun not found: jobs use the Open MPI of the portable trainer TrainDesk copies there")
             : mpirun.isEmpty() ? QStringLiteral("mpirun not found") : mpirun,
             QStringLiteral("install Open MPI (Debian and Ubuntu: apt install openmpi-bin)"));
}

void NodeChecks::reportMountRoot()
{
    const bool rootOk = fact(QStringLiteral("mount_root")) == QLatin1String("writable");
    m_report(QStringLiteral("mountRoot"), QStringLiteral("Mount root writable"), rootOk,
             m_cluster.mountRoot.isEmpty() ? QStringLiteral("~/traindesk/mounts (the default)") : m_cluster.mountRoot,
             QStringLiteral("the user %1 must be able to create %2: choose another --mount-root or fix its permissions")
                 .arg(m_node.user, m_cluster.mountRoot));
}

void NodeChecks::reportShares()
{
    QStringList mounted, missing;
    for (int i = 0; i < m_options.shares.size(); ++i) {
        const Share &share = m_options.shares.at(i);
        if (share.kind == ShareKind::Local && !m_local) {
            missing << QStringLiteral("%1 (a folder on this machine, nodes cannot see it)").arg(share.name);
            continue;
        }
        if (fact(QStringLiteral("share%1").arg(i)) == QLatin1String("ok"))
            mounted << QStringLiteral("%1 at %2").arg(share.name, share.path);
        else
            missing << QStringLiteral("%1 (%2 missing or not writable)").arg(share.name, share.path);
    }
    const QString noShares = m_options.otherShares.isEmpty()
        ? QStringLiteral("the workspace has no shares")
        : QStringLiteral("none of the workspace's shares is for this cluster (%1: another "
                         "cluster's, or folders of this machine)")
              .arg(m_options.otherShares.join(QStringLiteral(", ")));
    m_report(QStringLiteral("shares"), QStringLiteral("Shares mounted"), missing.isEmpty(),
             m_options.shares.isEmpty() ? noShares : (missing.isEmpty() ? mounted : missing).join(QStringLiteral("; ")),
             QStringLiteral("mount the cluster shares at the same path on every node (NFS, for one) or use a "
                            "replicated share"));
}

// mpirun on the head node logs in to every other node with ssh: try that hop.
void NodeChecks::reportHeadSsh()
{
    if (m_index == 0 || m_local) {
        m_report(QStringLiteral("headSsh"), QStringLiteral("SSH from the head node"), true,
                 m_index == 0 ? QStringLiteral("this is the head node") : QStringLiteral("single machine"));
        return;
    }
    const Node &headNode = m_nodes.first();
    auto head = openTransport(m_cluster, headNode, m_options.transport);
    const auto hop = head ? (*head)->exec(headToNodeSshCommand(m_node, ClusterMesh::configRelativePath(m_cluster),
                                                                QStringLiteral("true")),
                                          30000)
                          : Result<ExecResult>(head.failure());
    const bool ok = hop && hop->exitCode == 0;
    m_report(QStringLiteral("headSsh"), QStringLiteral("SSH from the head node"), ok,
             ok ? QStringLiteral("%1 reaches %2 without a password").arg(headNode.name, m_node.name)
                : (hop ? QString::fromLocal8Bit(hop->stdErr).trimmed() : hop.error()),
             QStringLiteral("mpirun on the head node %1 logs in to the other nodes with ssh: recreate the "
                            "cluster with --generate-ssh-keys, or give the head node a key that %2 accepts")
                 .arg(headNode.name, m_node.name));
}

void checkSharedNetwork(const QList<Node> &nodes, QList<NodeProbeResult> &results, const ProbeOptions &options,
                        const std::function<void(const ProbeCheck &)> &onCheck)
{
    QList<NodeProbeResult> connected;
    for (const NodeProbeResult &r : results) {
        if (r.connected)
            connected.append(r);
    }
    if (connected.isEmpty() || (options.cancel && options.cancel->isCancelled()))
        return;
    QString detail;
    const QString network = nodes.size() == 1 ? QStringLiteral("single node") : sharedNetwork(connected, &detail);
    QStringList unlisted;
    for (const NodeProbeResult &r : connected) {
        if (r.facts.addresses.isEmpty())
            unlisted << r.node.name;
    }
    if (network.isEmpty())
        detail = unlisted.isEmpty() ? QStringLiteral("no IPv4 network in common")
                                    : QStringLiteral("the interfaces of %1 could not be listed").arg(unlisted.join(QStringLiteral(", ")));
    ProbeCheck check{QString(), QStringLiteral("network"), QStringLiteral("Network the nodes share"),
                     !network.isEmpty(), nodes.size() == 1 ? network : detail,
                     unlisted.isEmpty() || !network.isEmpty()
                         ? QStringLiteral("MPI needs a network every node is on: connect the nodes to one (and set "
                                          "OMPI_MCA_btl_tcp_if_include to it)")
                         : QStringLiteral("install iproute2 (the ip command) on those nodes")};
    if (connected.size() < nodes.size() && check.passed)
        check.detail += QStringLiteral(" (unreachable nodes not counted)");
    if (onCheck)
        onCheck(check);
    results[0].checks.append(check);
}

} // namespace

} // namespace TrainDesk

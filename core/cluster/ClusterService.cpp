#include "ClusterService.h"

#include "common/ResultLog.h"
#include "cluster/TrainerDeployment.h"

#include "SlurmCluster.h"

#include "ClusterCredentials.h"
#include "ClusterMesh.h"
#include "KeyFileCheck.h"
#include "NodeAddress.h"
#include "NodeInterfaces.h"
#include "ClusterShares.h"
#include "SshKeys.h"
#include "TrainerCheck.h"
#include "common/DataPaths.h"
#include "store/Names.h"
#include "store/Store.h"
#include "transport/KnownHosts.h"
#include "cluster/TransportFactory.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>
#include <QThread>

#include <mutex>
#include <thread>

namespace TrainDesk {

namespace {

// A node's state learnt in passing (a setup task's end, a look at the node): a failed write
// is logged, and the next look writes it again.
void noteNodeState(Store &store, const Node &node, NodeState state, const QString &reason = {})
{
    logFailure(store.setNodeState(node.id, state, reason), QStringLiteral("node %1: cannot store its state").arg(node.name));
}

// Runs f(0..count-1) on a thread each (clusters are small) and waits for all.
template<typename F>
void forEachParallel(qsizetype count, F f)
{
    std::vector<std::thread> threads;
    threads.reserve(size_t(count));
    for (qsizetype i = 0; i < count; ++i)
        threads.emplace_back([&f, i] { f(i); });
    for (std::thread &t : threads)
        t.join();
}

// Callbacks from several worker threads, delivered one at a time.
class SerialEvents
{
public:
    explicit SerialEvents(const ClusterEvents &events) : m_events(events) {}
    void message(const QString &text)
    {
        std::lock_guard guard(m_mutex);
        if (m_events.message)
            m_events.message(text);
    }
    void check(const ProbeCheck &c)
    {
        std::lock_guard guard(m_mutex);
        if (m_events.check)
            m_events.check(c);
    }

private:
    const ClusterEvents &m_events;
    std::mutex m_mutex;
};

HostKeyPolicy policyOf(const CreateClusterRequest &r)
{
    if (r.confirmHostKey)
        return HostKeyPolicy::Ask;
    return r.acceptNewHostKeys ? HostKeyPolicy::AcceptNew : HostKeyPolicy::KnownOnly;
}

// The request's host-key answers and login timeout. `askMutex` (which must outlive the
// transports) puts the questions of parallel logins one at a time: the GUI asks the user.
TransportOptions transportOptions(const CreateClusterRequest &r, std::mutex *askMutex = nullptr)
{
    TransportOptions options;
    options.hostKeyPolicy = policyOf(r);
    options.confirmHostKey = r.confirmHostKey;
    if (r.confirmHostKey && askMutex) {
        options.confirmHostKey = [confirm = r.confirmHostKey, askMutex](const HostKeyQuestion &q) {
            std::lock_guard guard(*askMutex);
            return confirm(q);
        };
    }
    options.connectTimeoutMs = r.connectTimeoutMs;
    return options;
}

QString absolutePath(const QString &path) { return path.isEmpty() ? path : QFileInfo(path).absoluteFilePath(); }

// The log of a setup task that never started: the node did not answer.
SetupLog unreachableRun(const QString &node, const QString &why)
{
    SetupLog log;
    log.node = node;
    log.started = QDateTime::currentDateTimeUtc();
    log.ended = log.started;
    log.error = why;
    return log;
}

} // namespace

ClusterService::ClusterService(Store &store) : m_store(store) {}

namespace {

// The nodes' interfaces, so that a job's first start knows the network its nodes share
// (launch/JobNetwork) without a separate `cluster probe`.
void recordInterfaces(Store &store, const Cluster &cluster, const QList<Node> &nodes, const ClusterEvents &events)
{
    if (cluster.kind != ClusterKind::Ssh)
        return;
    QStringList problems;
    const QList<Node> recorded = NodeInterfaces::recordMissing(store, cluster, nodes, &problems, true);
    if (!events.message)
        return;
    for (const Node &n : recorded) {
        QStringList found;
        for (const auto &[iface, cidr] : NodeFacts::fromJson(QJsonDocument::fromJson(n.facts.toUtf8()).object()).addresses)
            found << iface + QLatin1Char(' ') + cidr;
        if (!found.isEmpty())
            events.message(QStringLiteral("node %1: interfaces %2").arg(n.name, found.join(QStringLiteral(", "))));
    }
    for (const QString &p : std::as_const(problems))
        events.message(QStringLiteral("warning: %1 (a job's start tries again)").arg(p));
}

} // namespace

Result<Cluster> ClusterService::findCluster(const QString &workspace, const QString &name) const
{
    const auto ws = m_store.workspace(workspace);
    if (!ws)
        return ws.failure();
    return m_store.cluster(ws->id, name);
}

QHash<QString, QString> ClusterService::busyNodes(qint64 clusterId) const
{
    QHash<QString, QString> busy;
    for (const Job &job : m_store.jobsOnCluster(clusterId)) {
        if (!isActive(job.state))
            continue;
        for (const QString &node : job.nodes)
            busy.insert(node, job.name);
    }
    return busy;
}

Result<Cluster> ClusterService::createLocal(const CreateClusterRequest &request, qint64 workspaceId,
                                            const ClusterEvents &events)
{
    Cluster cluster;
    cluster.workspaceId = workspaceId;
    cluster.name = request.name;
    cluster.kind = ClusterKind::Local;
    cluster.targetNodeCount = 1;
    cluster.nodeLostGraceSeconds = request.nodeLostGraceSeconds;
    cluster.mountRoot = request.mountRoot.isEmpty() ? DataPaths::clusterMountRoot(request.workspace, request.name)
                                                    : request.mountRoot;
    cluster.setupTask = request.setupTask;
    if (request.slurm) {
        cluster.slurm = *request.slurm;
        return SlurmCluster::create(m_store, cluster, events.message);
    }
    Node node;
    node.name = QStringLiteral("localhost");
    node.host = QStringLiteral("localhost");
    node.port = 0;
    node.user = qEnvironmentVariable("USER");
    node.slotCount = qMax(1, QThread::idealThreadCount());
    node.state = cluster.setupTask.isEmpty() ? NodeState::Idle : NodeState::Preparing;
    auto created = m_store.createCluster(cluster, {node});
    if (!created)
        return created;
    if (!cluster.setupTask.isEmpty())
        prepareNodes(request.workspace, *created, m_store.nodes(created->id), events);
    return m_store.clusterById(created->id);
}

namespace {

// The request's node addresses, the head node (when named) first.
Result<QList<NodeAddress>> orderedAddresses(const CreateClusterRequest &request)
{
    auto parsed = parseNodeAddresses(request.slurm ? QStringList{request.slurm->login} : request.nodes);
    if (!parsed)
        return parsed.failure();
    QList<NodeAddress> addresses = *parsed;
    if (!request.headNode.isEmpty()) {
        const auto head = std::find_if(addresses.begin(), addresses.end(), [&](const NodeAddress &a) {
            return a.name == request.headNode || a.toString() == request.headNode || a.host == request.headNode;
        });
        if (head == addresses.end())
            return fail(QStringLiteral("the head node '%1' is not one of the nodes").arg(request.headNode));
        addresses.move(head - addresses.begin(), 0);
    }
    return addresses;
}

// What a new node told about itself when first logged in to.
struct FirstContact
{
    QString error;
    int cores = 1;
    QString home;
};

// Logs in to a new node with the request's credentials, deploys TrainDesk's key when one
// was generated (and proves it logs in alone), and asks the node its cores and home.
FirstContact contactNode(const NodeAddress &a, const CreateClusterRequest &request,
                         const std::optional<SshKeys::KeyPair> &generated, const TransportOptions &options,
                         SerialEvents &serial)
{
    FirstContact o;
    SshParameters p;
    p.nodeName = a.name;
    p.host = a.host;
    p.port = a.port;
    p.user = a.user;
    // TrainDesk's key may be deployed already (an earlier cluster): it is tried first.
    p.credentials.keyFile = generated && request.keyFile.isEmpty() ? generated->privateKeyPath
                                                                   : absolutePath(request.keyFile);
    p.credentials.keyPassphrase = request.keyPassphrase;
    p.credentials.password = request.password;
    const auto first = openSshTransport(p, options);
    if (auto connected = first->connect(); !connected) {
        o.error = connected.error();
        return o;
    }
    serial.message(QStringLiteral("%1: connected").arg(p.describe()));
    SshParameters login = p;
    TransportOptions loginOptions = options;
    if (generated) {
        if (auto deployed = SshKeys::deployPublicKey(*first, generated->publicKeyLine); !deployed) {
            o.error = deployed.error();
            return o;
        }
        // From now on the key alone logs in: prove it before anything is stored.
        login.credentials = SshCredentials{generated->privateKeyPath, {}, {}, false, false};
        loginOptions.hostKeyPolicy = HostKeyPolicy::KnownOnly;
        if (auto connected = openSshTransport(login, loginOptions)->connect(); !connected) {
            o.error = QStringLiteral("%1: the key was added to ~/.ssh/authorized_keys but logging in with it fails "
                                     "(does sshd allow PubkeyAuthentication and read ~/.ssh/authorized_keys?): %2")
                          .arg(p.describe(), connected.error());
            return o;
        }
        serial.message(QStringLiteral("%1: key deployed; it logs in").arg(p.describe()));
    }
    const auto facts = openSshTransport(login, loginOptions)->exec(QStringLiteral("nproc 2>/dev/null || echo 1; printf '%s\\n' \"$HOME\""), 30000);
    if (!facts || facts->exitCode != 0) {
        o.error = facts ? QStringLiteral("%1: cannot run commands: %2")
                              .arg(p.describe(), QString::fromLocal8Bit(facts->stdErr).trimmed())
                        : facts.error();
        return o;
    }
    const QStringList lines = QString::fromUtf8(facts->stdOut).split(QLatin1Char('\n'));
    o.cores = qMax(1, lines.value(0).trimmed().toInt());
    o.home = lines.value(1).trimmed();
    return o;
}

// The SSH cluster's record and its nodes, from the request and what the nodes told.
Result<std::pair<Cluster, QList<Node>>> sshClusterRecord(const CreateClusterRequest &request, qint64 workspaceId,
                                                         const QList<NodeAddress> &addresses,
                                                         const QList<FirstContact> &contacts,
                                                         const std::optional<SshKeys::KeyPair> &generated)
{
    Cluster cluster;
    cluster.workspaceId = workspaceId;
    cluster.name = request.name;
    cluster.kind = ClusterKind::Ssh;
    cluster.targetNodeCount = int(addresses.size());
    cluster.nodeLostGraceSeconds = request.nodeLostGraceSeconds;
    cluster.mountRoot = request.mountRoot.isEmpty()
        ? QStringLiteral("%1/traindesk/mounts/%2/%3").arg(contacts.first().home, request.workspace, request.name)
        : request.mountRoot;
    cluster.setupTask = request.setupTask;
    // With a generated key the key alone logs in: no password is kept.
    cluster.sshKeyFile = generated ? generated->privateKeyPath : absolutePath(request.keyFile);
    const auto sealed = ClusterCredentials::seal(generated ? ClusterSecrets{}
                                                           : ClusterSecrets{request.password, request.keyPassphrase});
    if (!sealed)
        return sealed.failure();
    cluster.sshSecret = *sealed;
    QList<Node> nodes;
    for (qsizetype i = 0; i < addresses.size(); ++i) {
        Node n;
        n.name = addresses.at(i).name;
        n.host = addresses.at(i).host;
        n.port = addresses.at(i).port;
        n.user = addresses.at(i).user;
        n.slotCount = contacts.at(i).cores;
        n.state = cluster.setupTask.isEmpty() ? NodeState::Idle : NodeState::Preparing;
        nodes.append(n);
    }
    return std::pair{cluster, nodes};
}

} // namespace

Result<Cluster> ClusterService::create(const CreateClusterRequest &request, const ClusterEvents &events)
{
    const auto ws = m_store.workspace(request.workspace);
    if (!ws)
        return ws.failure();
    if (auto valid = validateName(QStringLiteral("cluster"), request.name); !valid)
        return valid.failure();
    if (m_store.cluster(ws->id, request.name))
        return fail(QStringLiteral("cluster '%1' already exists in workspace '%2'").arg(request.name, request.workspace));
    if (auto key = checkPrivateKeyFile(absolutePath(request.keyFile)); !key)
        return key.failure();
    if (request.slurm && request.slurm->loginIsLocal())
        return createLocal(request, ws->id, events);
    if (request.local)
        return createLocal(request, ws->id, events);

    const auto addresses = orderedAddresses(request);
    if (!addresses)
        return addresses.failure();
    std::optional<SshKeys::KeyPair> generated;
    if (request.generateSshKeys) {
        auto pair = SshKeys::ensureKeyPair();
        if (!pair)
            return pair.failure();
        generated = *pair;
    }
    SerialEvents serial(events);
    if (generated)
        serial.message(QStringLiteral("Using TrainDesk's key %1").arg(generated->privateKeyPath));

    std::mutex askMutex;
    TransportOptions options = transportOptions(request, &askMutex);
    options.hostKeyAccepted = [&](const HostKeyQuestion &q) {
        serial.message(QStringLiteral("node %1: trusting the new host key of %2: %3 %4")
                           .arg(q.nodeName, KnownHosts::hostPattern(q.host, q.port), q.keyType, q.fingerprint));
    };
    QList<FirstContact> contacts(addresses->size());
    forEachParallel(addresses->size(), [&](qsizetype i) {
        contacts[i] = contactNode(addresses->at(i), request, generated, options, serial);
    });
    QStringList errors;
    for (const FirstContact &o : std::as_const(contacts)) {
        if (!o.error.isEmpty())
            errors << o.error;
    }
    if (!errors.isEmpty())
        return fail(errors.join(QStringLiteral("; ")));

    auto record = sshClusterRecord(request, ws->id, *addresses, contacts, generated);
    if (!record)
        return record.failure();
    auto &[cluster, nodes] = *record;
    if (request.slurm) {
        cluster.slurm = *request.slurm;
        return SlurmCluster::create(m_store, cluster, events.message);
    }
    auto created = m_store.createCluster(cluster, nodes);
    if (!created)
        return created;
    const QList<Node> stored = m_store.allNodes(created->id);
    if (stored.size() > 1) {
        const auto meshed = ClusterMesh::setUp(*created, stored, [&](const Node &n) { return openTransport(*created, n); });
        if (meshed)
            serial.message(QStringLiteral("The head node %1 logs in to the other nodes with the cluster's own key")
                               .arg(stored.first().name));
        else
            serial.message(QStringLiteral("warning: SSH between the nodes is not set up (mpirun needs it): %1")
                               .arg(meshed.error()));
    }
    if (!cluster.setupTask.isEmpty())
        prepareNodes(request.workspace, *created, stored, events);
    recordInterfaces(m_store, *created, stored, events);
    return m_store.clusterById(created->id);
}

QList<SetupLog> ClusterService::prepareNodes(const QString &workspace, const Cluster &cluster,
                                             const QList<Node> &nodes, const ClusterEvents &events,
                                             const CancelFlag *cancel)
{
    SerialEvents serial(events);
    const bool hasSetupTask = !cluster.setupTask.isEmpty();
    const QList<Share> shares = m_store.shares(cluster.workspaceId);
    QList<SetupLog> logs(nodes.size());
    QList<QString> failures(nodes.size());
    forEachParallel(nodes.size(), [&](qsizetype i) {
        const Node &node = nodes.at(i);
        auto transport = openTransport(cluster, node);
        if (!transport) {
            failures[i] = QStringLiteral("unreachable: %1").arg(transport.error());
            logs[i] = unreachableRun(node.name, failures[i]);
        } else if (!hasSetupTask) {
            const auto alive = (*transport)->exec(QStringLiteral("true"), 30000);
            if (!alive || alive->exitCode != 0)
                failures[i] = QStringLiteral("unreachable: %1").arg(alive ? QStringLiteral("the shell fails") : alive.error());
        } else {
            serial.message(QStringLiteral("node %1: running the setup task").arg(node.name));
            logs[i] = SetupTask::run(workspace, cluster, shares, node, **transport, cancel);
            failures[i] = logs[i].failure();
            if (failures[i].isEmpty())
                serial.message(QStringLiteral("node %1: setup task succeeded (log: %2)").arg(node.name, logs[i].stdOutPath));
        }
        if (!failures[i].isEmpty())
            serial.message(QStringLiteral("node %1: %2").arg(node.name, failures[i]));
    });
    const auto busy = busyNodes(cluster.id);
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        if (!failures[i].isEmpty())
            noteNodeState(m_store, nodes[i], NodeState::Unusable, failures[i]);
        else
            noteNodeState(m_store, nodes[i], busy.contains(nodes[i].name) ? NodeState::Running : NodeState::Idle);
    }
    return hasSetupTask ? logs : QList<SetupLog>();
}

Result<QList<Node>> ClusterService::nodesForSetup(const Cluster &cluster, const QStringList &names) const
{
    const QList<Node> all = m_store.allNodes(cluster.id);
    for (const QString &name : names) {
        const auto node = std::find_if(all.begin(), all.end(), [&](const Node &n) { return n.name == name; });
        if (node == all.end())
            return fail(QStringLiteral("cluster '%1' has no node '%2'").arg(cluster.name, name));
        if (node->parked)
            return fail(QStringLiteral("node '%1' of cluster '%2' is parked: resize the cluster to bring it back")
                            .arg(name, cluster.name));
    }
    QList<Node> chosen;
    for (const Node &n : all) {
        if (!n.parked && (names.isEmpty() || names.contains(n.name)))
            chosen.append(n);
    }
    if (chosen.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes in service (resize it first)").arg(cluster.name));
    // The task could change what a running job depends on.
    const auto busy = busyNodes(cluster.id);
    QStringList refused;
    for (const Node &n : chosen) {
        if (busy.contains(n.name))
            refused << QStringLiteral("node %1 is running job '%2'").arg(n.name, busy.value(n.name));
    }
    if (!refused.isEmpty())
        return fail(QStringLiteral("%1: run the setup task there when the job has ended").arg(refused.join(QStringLiteral("; "))));
    return chosen;
}

Result<QList<SetupLog>> ClusterService::runSetup(const QString &workspace, const QString &clusterName,
                                                 const QStringList &nodeNames, const ClusterEvents &events,
                                                 const CancelFlag *cancel)
{
    const auto cluster = findCluster(workspace, clusterName);
    if (!cluster)
        return cluster.failure();
    // The head node's cluster folder and keys first (how mpirun reaches the other nodes):
    // made again whole, whatever happened to them (removed, a key replaced).
    const QList<Node> all = m_store.allNodes(cluster->id);
    if (cluster->kind == ClusterKind::Ssh && all.size() > 1) {
        if (auto meshed = ClusterMesh::setUp(*cluster, all, [&](const Node &n) { return openTransport(*cluster, n); }); !meshed)
            return fail(QStringLiteral("cluster '%1': cannot repair SSH between the nodes: %2").arg(clusterName, meshed.error()));
        if (events.message)
            events.message(QStringLiteral("The head node %1's cluster folder ~/%2 and the cluster's key on every node are "
                                          "set up again")
                               .arg(all.first().name, ClusterMesh::directoryRelativePath(*cluster)));
    }
    if (cluster->setupTask.isEmpty()) {
        if (cluster->kind == ClusterKind::Ssh && all.size() > 1) {
            recordInterfaces(m_store, *cluster, m_store.nodes(cluster->id), events);
            return QList<SetupLog>{};  // the repair was all there was to do
        }
        return fail(QStringLiteral("cluster '%1' has no setup task").arg(clusterName));
    }
    const auto nodes = nodesForSetup(*cluster, nodeNames);
    if (!nodes)
        return nodes.failure();
    // Out of scheduling while the task runs, as joining nodes are.
    for (const Node &n : *nodes) {
        if (auto marked = m_store.setNodeState(n.id, NodeState::Preparing); !marked)
            return marked.failure();
    }
    const QList<SetupLog> logs = prepareNodes(workspace, *cluster, *nodes, events, cancel);
    recordInterfaces(m_store, *cluster, *nodes, events);  // the task may have changed them
    // Nodes back in service may let queued jobs start: the agent's next look starts them.
    return logs;
}

Result<Cluster> ClusterService::resize(const QString &workspace, const QString &name, int target,
                                       const ClusterEvents &events)
{
    const auto cluster = findCluster(workspace, name);
    if (!cluster)
        return cluster.failure();
    if (cluster->kind == ClusterKind::Slurm)
        return fail(QStringLiteral("cluster '%1' is a Slurm cluster: its size is Slurm's business (its administrators "
                                   "add and drain nodes)").arg(name));
    const QList<Node> all = m_store.allNodes(cluster->id);
    if (target < 0 || target > all.size()) {
        return fail(QStringLiteral("cluster '%1' has %2 nodes: the target must be from 0 to %2")
                        .arg(name).arg(all.size()));
    }
    if (auto ok = m_store.setClusterTarget(cluster->id, target); !ok)
        return ok.failure();
    const auto busy = busyNodes(cluster->id);
    QList<Node> joining;
    for (const Node &n : all) {
        if (n.index >= target) {
            if (n.parked)
                continue;
            // A node with work drains first: leaving, out of scheduling, gone when its job ends.
            if (busy.contains(n.name)) {
                if (auto stored = m_store.setNodeState(n.id, NodeState::Leaving); !stored)
                    return stored.failure();
                if (events.message)
                    events.message(QStringLiteral("node %1: leaving when its job ends").arg(n.name));
            } else {
                if (auto stored = m_store.setNodeParked(n.id, true, NodeState::Idle); !stored)
                    return stored.failure();
                if (events.message)
                    events.message(QStringLiteral("node %1: left the cluster").arg(n.name));
            }
        } else if (n.parked) {
            if (auto stored = m_store.setNodeParked(n.id, false, NodeState::Preparing); !stored)
                return stored.failure();
            joining.append(n);
        } else if (n.state == NodeState::Leaving) {
            if (auto stored = m_store.setNodeState(n.id, busy.contains(n.name) ? NodeState::Running : NodeState::Idle); !stored)
                return stored.failure();
        }
    }
    if (!joining.isEmpty()) {
        QList<Node> fresh;
        for (const Node &n : m_store.nodes(cluster->id)) {
            if (std::any_of(joining.begin(), joining.end(), [&](const Node &j) { return j.id == n.id; }))
                fresh.append(n);
        }
        prepareNodes(workspace, *cluster, fresh, events);
    }
    // Nodes that joined may let queued jobs start: the agent's next look starts them.
    return m_store.clusterById(cluster->id);
}

Result<ClusterMesh::TearDownReport> ClusterService::remove(const QString &workspace, const QString &name, bool keepKeys,
                                                           const ClusterEvents &events)
{
    const auto cluster = findCluster(workspace, name);
    if (!cluster)
        return cluster.failure();
    // The nodes as they were: the record goes first, so no job can start on a cluster
    // whose keys are going (the refusal for active jobs is in the same transaction).
    const QList<Node> nodes = m_store.allNodes(cluster->id);
    if (auto deleted = m_store.deleteCluster(cluster->id); !deleted)
        return deleted.failure();
    if (keepKeys || cluster->kind != ClusterKind::Ssh)
        return ClusterMesh::TearDownReport{};
    return ClusterMesh::tearDown(*cluster, nodes, [&](const Node &n) { return openTransport(*cluster, n); },
                                 events.message);
}

QList<NodeProbeResult> ClusterService::testNodes(const CreateClusterRequest &request, const QList<Share> &shares,
                                                 const ClusterEvents &events, const CancelFlag *cancel,
                                                 const QStringList &otherShares)
{
    if (request.slurm)
        return testSlurmLogin(request, events);
    SerialEvents serial(events);
    Cluster cluster;
    cluster.name = request.name;
    QList<Node> nodes;
    if (request.local) {
        cluster.kind = ClusterKind::Local;
        cluster.mountRoot = request.mountRoot.isEmpty() ? DataPaths::clusterMountRoot(request.workspace, request.name)
                                                        : request.mountRoot;
        Node n;
        n.name = QStringLiteral("localhost");
        n.host = QStringLiteral("localhost");
        nodes.append(n);
    } else {
        const auto parsed = parseNodeAddresses(request.nodes);
        if (!parsed) {
            serial.check({QString(), QStringLiteral("nodes"), QStringLiteral("Nodes"), false, parsed.error(),
                          QStringLiteral("write each node as user@host[:port]")});
            return {};
        }
        if (auto key = checkPrivateKeyFile(absolutePath(request.keyFile)); !key) {
            serial.check({QString(), QStringLiteral("authenticated"), QStringLiteral("SSH key"), false, key.error(),
                          QStringLiteral("choose the private key file")});
            return {};
        }
        cluster.kind = ClusterKind::Ssh;
        cluster.mountRoot = request.mountRoot;  // empty: the probe checks the default one
        cluster.sshKeyFile = absolutePath(request.keyFile);
        const auto sealed = ClusterCredentials::seal({request.password, request.keyPassphrase});
        cluster.sshSecret = sealed ? *sealed : QString();
        int index = 0;
        for (const NodeAddress &a : *parsed) {
            Node n;
            n.index = index++;
            n.name = a.name;
            n.host = a.host;
            n.port = a.port;
            n.user = a.user;
            nodes.append(n);
        }
    }
    ProbeOptions options;
    options.shares = shares;
    options.otherShares = otherShares;
    options.trainerDirectory = DataPaths::trainerDirectory();
    options.trainerCopied = TrainerDeployment::localBundle(options.trainerDirectory).ok();
    std::mutex askMutex;
    options.transport = transportOptions(request, &askMutex);
    options.cancel = cancel;
    return probeCluster(cluster, nodes, options, [&](const ProbeCheck &c) { serial.check(c); });
}

QList<NodeProbeResult> ClusterService::probeSlurmLogin(const Cluster &cluster, const ClusterEvents &events)
{
    // Slurm's nodes are reached through the login node (never on their own SSH ports):
    // the login node, with the cluster's credentials and Slurm settings, is what is checked.
    SerialEvents serial(events);
    NodeProbeResult result;
    result.node.name = QStringLiteral("login");
    ProbeCheck reached{QStringLiteral("login"), QStringLiteral("reachable"), QStringLiteral("Reachable"), false, {}, {}};
    auto login = openTransport(cluster, Node{});
    VoidResult connected = login ? (*login)->connect() : VoidResult(login.failure());
    if (!connected) {
        reached.detail = connected.error();
        reached.hint = QStringLiteral("Check the login node's address and the credentials");
        serial.check(reached);
        result.checks << reached;
        return {result};
    }
    reached.passed = true;
    reached.detail = cluster.slurm.loginIsLocal() ? QStringLiteral("this machine (the Slurm login node)")
                                                  : QStringLiteral("login node %1").arg(cluster.slurm.login);
    serial.check(reached);
    result.connected = true;
    result.checks << reached << SlurmCluster::loginCheck(**login, cluster.slurm);
    serial.check(result.checks.last());
    return {result};
}

QList<NodeProbeResult> ClusterService::testSlurmLogin(const CreateClusterRequest &request, const ClusterEvents &events)
{
    SerialEvents serial(events);
    NodeProbeResult result;
    result.node.name = QStringLiteral("login");
    auto login = slurmLoginTransport(request);
    ProbeCheck reached{QStringLiteral("login"), QStringLiteral("reachable"), QStringLiteral("Login node"), false, {}, {}};
    if (!login) {
        reached.detail = login.error();
        reached.hint = QStringLiteral("Check the login node's address and the credentials");
        serial.check(reached);
        result.checks << reached;
        return {result};
    }
    reached.passed = true;
    reached.detail = request.slurm->loginIsLocal() ? QStringLiteral("this machine") : request.slurm->login;
    serial.check(reached);
    result.connected = true;
    result.checks << reached << SlurmCluster::loginCheck(**login, *request.slurm);
    serial.check(result.checks.last());
    return {result};
}

Result<std::shared_ptr<Transport>> ClusterService::slurmLoginTransport(const CreateClusterRequest &request)
{
    if (!request.slurm->loginIsLocal()) {
        if (auto key = checkPrivateKeyFile(absolutePath(request.keyFile)); !key)
            return key.failure();
    }
    SshCredentials credentials;
    credentials.keyFile = absolutePath(request.keyFile);
    credentials.keyPassphrase = request.keyPassphrase;
    credentials.password = request.password;
    // One login: its questions need no line (and the transport outlives this call).
    auto login = openSlurmLogin(*request.slurm, credentials, transportOptions(request));
    if (!login || request.slurm->loginIsLocal())
        return login;
    if (auto connected = (*login)->connect(); !connected)
        return connected.failure();
    return login;
}

Result<QList<NodeProbeResult>> ClusterService::probe(const QString &workspace, const QString &name,
                                                     const ClusterEvents &events, const CancelFlag *cancel)
{
    const auto cluster = findCluster(workspace, name);
    if (!cluster)
        return cluster.failure();
    if (cluster->kind == ClusterKind::Slurm)
        return probeSlurmLogin(*cluster, events);
    const QList<Node> nodes = m_store.nodes(cluster->id);
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes in service (resize it first)").arg(name));
    ProbeOptions options;
    // Only the shares jobs on this cluster can use are judged; the others are named.
    for (const Share &share : m_store.shares(cluster->workspaceId)) {
        if (clusterSeesShare(share, *cluster))
            options.shares << share;
        else
            options.otherShares << share.name;
    }
    options.trainerDirectory = DataPaths::trainerDirectory();
    options.trainerCopied = TrainerDeployment::localBundle(options.trainerDirectory).ok();
    options.cancel = cancel;
    SerialEvents serial(events);
    if (!options.otherShares.isEmpty())
        serial.message(QStringLiteral("warning: shares not checked, as no job on cluster '%1' can use them (another "
                                      "cluster's, or folders of this machine): %2")
                           .arg(name, options.otherShares.join(QStringLiteral(", "))));
    const QList<NodeProbeResult> results = probeCluster(*cluster, nodes, options,
                                                        [&](const ProbeCheck &c) { serial.check(c); });
    // What was learnt feeds the node table and the MPI slots.
    recordFacts(m_store, results);
    return results;
}

QStringList ClusterService::installMissingPackages(const QString &workspace, const QString &name,
                                                   const ClusterEvents &events)
{
    const auto results = probe(workspace, name, {});
    if (!results)
        return {results.error()};
    const auto cluster = findCluster(workspace, name);
    if (!cluster)
        return {cluster.error()};
    const auto say = [&](const QString &text) {
        if (events.message)
            events.message(text);
    };
    QStringList failed;
    for (const NodeProbeResult &r : *results) {
        if (r.missingPackages.isEmpty())
            continue;
        const QString packages = r.missingPackages.join(QLatin1Char(' '));
        say(QStringLiteral("%1: installing %2").arg(r.node.name, packages));
        auto transport = openTransport(*cluster, r.node);
        const VoidResult installed = transport ? TrainerCheck::installPackages(**transport, r.node.name, r.missingPackages)
                                               : VoidResult(transport.failure());
        if (!installed)
            failed << installed.error();
        else
            say(QStringLiteral("%1: installed %2").arg(r.node.name, packages));
    }
    return failed;
}

void ClusterService::recordFacts(Store &store, const QList<NodeProbeResult> &results)
{
    for (const NodeProbeResult &r : results) {
        if (r.connected)
            logFailure(store.setNodeFacts(r.node.id, qMax(1, r.facts.cores),
                                          QString::fromUtf8(QJsonDocument(r.facts.toJson()).toJson(QJsonDocument::Compact))),
                       QStringLiteral("node %1: cannot store what the probe learnt").arg(r.node.name));
    }
}

VoidResult ClusterService::refresh(qint64 clusterId)
{
    const auto cluster = m_store.clusterById(clusterId);
    if (!cluster)
        return cluster.failure();
    const auto busy = busyNodes(clusterId);
    QList<Node> inService;
    for (const Node &n : m_store.allNodes(clusterId)) {
        if (n.parked)
            continue;
        if (n.state == NodeState::Leaving && !busy.contains(n.name)) {
            logFailure(m_store.setNodeParked(n.id, true, NodeState::Idle),
                       QStringLiteral("node %1: cannot store that it left").arg(n.name));
            continue;
        }
        // Nodes in the middle of a setup task are looked at when it ends.
        if (n.state != NodeState::Preparing)
            inService.append(n);
    }
    if (cluster->kind == ClusterKind::Slurm)
        return SlurmCluster::refresh(m_store, *cluster);
    if (cluster->kind == ClusterKind::Local) {
        for (const Node &n : inService)
            noteNodeState(m_store, n, n.state, n.stateReason);  // seen now
        return {};
    }
    QList<QString> errors(inService.size());
    forEachParallel(inService.size(), [&](qsizetype i) {
        auto transport = openTransport(*cluster, inService.at(i));
        if (!transport) {
            errors[i] = transport.error();
            return;
        }
        const auto alive = (*transport)->exec(QStringLiteral("true"), 15000);
        if (!alive)
            errors[i] = alive.error();
        else if (alive->exitCode != 0)
            errors[i] = QStringLiteral("node %1: the shell fails (exit code %2)").arg(inService.at(i).name).arg(alive->exitCode);
    });
    static const QString unreachable = QStringLiteral("unreachable: ");
    for (qsizetype i = 0; i < inService.size(); ++i) {
        const Node &n = inService.at(i);
        if (!errors[i].isEmpty()) {
            if (n.state != NodeState::Leaving)
                noteNodeState(m_store, n, NodeState::Unusable, unreachable + errors[i]);
        } else if (n.state == NodeState::Unusable && n.stateReason.startsWith(unreachable)) {
            noteNodeState(m_store, n, busy.contains(n.name) ? NodeState::Running : NodeState::Idle);
        } else {
            noteNodeState(m_store, n, n.state, n.stateReason);  // seen now
        }
    }
    return {};
}

Result<int> ClusterService::exec(const QString &workspace, const QString &clusterName, const QString &nodeName,
                                 const QString &command, const ExecHandlers &handlers, const CancelFlag *cancel,
                                 int timeoutMs)
{
    const auto cluster = findCluster(workspace, clusterName);
    if (!cluster)
        return cluster.failure();
    const QList<Node> nodes = m_store.allNodes(cluster->id);
    const auto node = std::find_if(nodes.begin(), nodes.end(), [&](const Node &n) { return n.name == nodeName; });
    if (node == nodes.end())
        return fail(QStringLiteral("cluster '%1' has no node '%2'").arg(clusterName, nodeName));
    auto transport = openTransport(*cluster, *node);
    if (!transport)
        return transport.failure();
    return (*transport)->exec(command, handlers, cancel, timeoutMs);
}

Result<QList<SetupLog>> ClusterService::setupLogs(const QString &workspace, const QString &clusterName,
                                                  const QString &node)
{
    const auto cluster = findCluster(workspace, clusterName);
    if (!cluster)
        return cluster.failure();
    return SetupTask::logs(workspace, clusterName, node);
}

} // namespace TrainDesk

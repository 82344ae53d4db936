#include "ClusterWorker.h"

#include "common/ResultLog.h"
#include "cluster/TrainerDeployment.h"

#include "cluster/SlurmCluster.h"
#include "common/DataPaths.h"
#include "store/Store.h"


#include <algorithm>

#include <condition_variable>
#include <mutex>

namespace TrainDesk {

namespace {

qint64 clusterIdOf(const Store &store, const QString &workspace, const QString &cluster)
{
    const auto ws = store.workspace(workspace);
    if (!ws)
        return 0;
    const auto found = store.cluster(ws->id, cluster);
    return found ? found->id : 0;
}

// The shares the nodes of a cluster are meant to hold: a local share is a folder on this
// machine (only the local cluster's node sees it), a cluster or replicated share lives on its
// own cluster. The others would fail "Shares mounted" on nodes that never used them.
QList<Share> sharesOfCluster(const QList<Share> &shares, bool localCluster, qint64 clusterId)
{
    QList<Share> used;
    for (const Share &share : shares) {
        if (share.kind == ShareKind::Local ? localCluster : share.clusterId == clusterId)
            used.append(share);
    }
    return used;
}

// The names of `all` that are not among `used`.
QStringList otherShareNames(const QList<Share> &all, const QList<Share> &used)
{
    QStringList names;
    for (const Share &share : all) {
        if (std::none_of(used.cbegin(), used.cend(), [&](const Share &u) { return u.id == share.id; }))
            names << share.name;
    }
    return names;
}

const QString failedChecksPrefix = QStringLiteral("failed checks: ");

// A probe's verdict as node states (SSH clusters): a node with a failed check is unusable,
// the checks as the reason, so the cluster shows degraded and jobs do not go there; one that
// passed every check after being marked so is idle again. Reasons of other origins
// (unreachable, a failed setup task) are left to what set them.
void recordProbe(Store &store, const QList<NodeProbeResult> &results)
{
    for (const NodeProbeResult &r : results) {
        QStringList failed;
        for (const ProbeCheck &c : r.checks) {
            if (!c.passed && c.node == r.node.name)
                failed << QStringLiteral("%1 (%2)").arg(c.title, c.detail);
        }
        VoidResult stored;
        if (!failed.isEmpty())
            stored = store.setNodeState(r.node.id, NodeState::Unusable, failedChecksPrefix + failed.join(QStringLiteral("; ")));
        else if (r.node.state == NodeState::Unusable && r.node.stateReason.startsWith(failedChecksPrefix))
            stored = store.setNodeState(r.node.id, NodeState::Idle);
        logFailure(stored, QStringLiteral("node %1: cannot store the probe's verdict").arg(r.node.name));
    }
}

// ClusterService::probe with the cluster's own shares only, and the verdict kept (above).
Result<QList<NodeProbeResult>> probeAndRecord(Store &store, const QString &workspace, const QString &name,
                                              const ClusterEvents &events, const CancelFlag *cancel)
{
    const auto ws = store.workspace(workspace);
    if (!ws)
        return ws.failure();
    const auto cluster = store.cluster(ws->id, name);
    if (!cluster)
        return cluster.failure();
    if (cluster->kind == ClusterKind::Slurm)  // Slurm's own node states rule there
        return ClusterService(store).probe(workspace, name, events, cancel);
    const QList<Node> nodes = store.nodes(cluster->id);
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' has no nodes in service (resize it first)").arg(name));
    ProbeOptions options;
    const QList<Share> all = store.shares(ws->id);
    options.shares = sharesOfCluster(all, cluster->kind == ClusterKind::Local, cluster->id);
    options.otherShares = otherShareNames(all, options.shares);
    options.trainerDirectory = DataPaths::trainerDirectory();
    options.trainerCopied = TrainerDeployment::localBundle(options.trainerDirectory).ok();
    options.cancel = cancel;
    const QList<NodeProbeResult> results = probeCluster(*cluster, nodes, options, events.check);
    ClusterService::recordFacts(store, results);
    if (cluster->kind == ClusterKind::Ssh && !(cancel && cancel->isCancelled()))
        recordProbe(store, results);
    return results;
}

} // namespace

// What the worker thread and the GUI share: the cancel flag and host key answers.
struct ClusterWorker::Shared
{
    std::mutex mutex;
    std::condition_variable answered;
    QHash<int, bool> answers;
    int nextQuestion = 0;
    CancelFlag cancel;
};

ClusterWorker::ClusterWorker(const QString &databasePath, QObject *parent)
    : QObject(parent), m_databasePath(databasePath), m_context(new QObject), m_shared(std::make_shared<Shared>())
{
    m_thread.setObjectName(QStringLiteral("ClusterWorker"));
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.start();
}

ClusterWorker::~ClusterWorker()
{
    cancel();
    m_thread.quit();
    m_thread.wait();
}

QString ClusterWorker::hostKeyId(const HostKeyQuestion &q)
{
    return QStringLiteral("%1:%2 %3 %4").arg(q.host).arg(q.port).arg(q.keyType, q.fingerprint);
}

void ClusterWorker::post(const std::function<void()> &toGui)
{
    QMetaObject::invokeMethod(this, toGui, Qt::QueuedConnection);
}

int ClusterWorker::start(const std::function<void(int)> &work)
{
    const int id = ++m_nextRequest;
    if (m_running++ == 0)
        Q_EMIT busyChanged(true);
    QMetaObject::invokeMethod(m_context, [this, id, work] {
        m_shared->cancel.reset();
        work(id);
        post([this] {
            if (--m_running == 0)
                Q_EMIT busyChanged(false);
        });
    }, Qt::QueuedConnection);
    return id;
}

ClusterEvents ClusterWorker::events(int requestId)
{
    ClusterEvents e;
    e.message = [this, requestId](const QString &line) { post([=, this] { Q_EMIT message(requestId, line); }); };
    e.check = [this, requestId](const ProbeCheck &check) { post([=, this] { Q_EMIT checkArrived(requestId, check); }); };
    return e;
}

int ClusterWorker::testNodes(const CreateClusterRequest &request)
{
    return start([this, request](int id) {
        CreateClusterRequest r = request;
        const std::shared_ptr<Shared> shared = m_shared;
        r.confirmHostKey = hostKeyConfirmer(id);
        QList<Share> shares;
        QStringList others;
        Store store;
        if (store.open(m_databasePath)) {
            if (const auto ws = store.workspace(r.workspace)) {
                const QList<Share> all = store.shares(ws->id);
                shares = sharesOfCluster(all, r.local, 0);  // a new cluster has no shares yet
                others = otherShareNames(all, shares);
            }
        }
        const QList<NodeProbeResult> results = ClusterService::testNodes(r, shares, events(id), &shared->cancel, others);
        bool passed = !results.isEmpty() && !shared->cancel.isCancelled();
        for (const NodeProbeResult &result : results)
            passed = passed && result.allPassed();
        const QString error = shared->cancel.isCancelled() ? tr("Cancelled") : QString();
        post([=, this] { Q_EMIT testFinished(id, passed, error); });
    });
}

std::function<bool(const HostKeyQuestion &)> ClusterWorker::hostKeyConfirmer(int id)
{
    const std::shared_ptr<Shared> shared = m_shared;
    // Blocks this thread until the GUI answers: ClusterService asks one at a time.
    return [this, shared, id](const HostKeyQuestion &q) {
        int questionId = 0;
        {
            std::lock_guard guard(shared->mutex);
            if (shared->cancel.isCancelled())
                return false;
            questionId = ++shared->nextQuestion;
        }
        post([=, this] { Q_EMIT hostKeyQuestion(id, questionId, q); });
        std::unique_lock lock(shared->mutex);
        shared->answered.wait(lock, [&] { return shared->answers.contains(questionId) || shared->cancel.isCancelled(); });
        return shared->answers.take(questionId);
    };
}

int ClusterWorker::slurmPartitions(const CreateClusterRequest &request)
{
    return start([this, request](int id) {
        CreateClusterRequest r = request;
        r.confirmHostKey = hostKeyConfirmer(id);
        QStringList names;
        QString error;
        if (auto login = ClusterService::slurmLoginTransport(r); !login) {
            error = login.error();
        } else if (const auto found = SlurmCluster::partitions(**login); !found) {
            error = found.error();
        } else {
            for (const SlurmQueries::Partition &p : *found) {
                if (p.isDefault)
                    names.prepend(p.name);
                else
                    names << p.name;
            }
        }
        post([=, this] { Q_EMIT slurmPartitionsListed(id, names, error); });
    });
}

void ClusterWorker::answerHostKey(int questionId, bool accept)
{
    {
        std::lock_guard guard(m_shared->mutex);
        m_shared->answers.insert(questionId, accept);
    }
    m_shared->answered.notify_all();
}

void ClusterWorker::cancel()
{
    {
        std::lock_guard guard(m_shared->mutex);
        m_shared->cancel.cancel();
    }
    m_shared->answered.notify_all();
}

int ClusterWorker::createCluster(const CreateClusterRequest &request, const QSet<QString> &acceptedHostKeys)
{
    return start([this, request, acceptedHostKeys](int id) {
        CreateClusterRequest r = request;
        // The user answered in the connection test: no second question.
        r.confirmHostKey = [acceptedHostKeys](const HostKeyQuestion &q) { return acceptedHostKeys.contains(hostKeyId(q)); };
        Store store;
        Result<Cluster> cluster = fail(QString());
        if (const auto opened = store.open(m_databasePath); !opened)
            cluster = opened.failure();
        else
            cluster = ClusterService(store).create(r, events(id));
        // Checked again now that the cluster's own SSH setup exists: what still fails marks
        // its node unusable, so "create although checks failed" never looks healthy.
        if (cluster && cluster->kind == ClusterKind::Ssh) {
            ClusterEvents checks = events(id);
            checks.check = [message = checks.message](const ProbeCheck &c) {
                if (!c.passed)
                    message(QStringLiteral("node %1: %2 failed: %3 (unusable until Test connection passes)")
                                .arg(c.node.isEmpty() ? QStringLiteral("all") : c.node, c.title, c.detail));
            };
            checks.message(QStringLiteral("Checking the nodes again"));
            (void)probeAndRecord(store, r.workspace, r.name, checks, nullptr);
        }
        const qint64 clusterId = cluster ? cluster->id : 0;
        const QString error = cluster ? QString() : cluster.error();
        post([=, this] { Q_EMIT finished(id, clusterId, error); });
    });
}

int ClusterWorker::resize(const QString &workspace, const QString &cluster, int targetNodeCount)
{
    return start([=, this](int id) {
        Store store;
        Result<Cluster> result = fail(QString());
        if (const auto opened = store.open(m_databasePath); !opened)
            result = opened.failure();
        else
            result = ClusterService(store).resize(workspace, cluster, targetNodeCount, events(id));
        const qint64 clusterId = result ? result->id : 0;
        const QString error = result ? QString() : result.error();
        post([=, this] { Q_EMIT finished(id, clusterId, error); });
    });
}

int ClusterWorker::probe(const QString &workspace, const QString &cluster)
{
    return start([=, this](int id) {
        Store store;
        QString error;
        bool passed = false;
        if (const auto opened = store.open(m_databasePath); !opened) {
            error = opened.error();
        } else if (const auto results = probeAndRecord(store, workspace, cluster, events(id), &m_shared->cancel);
                   !results) {
            error = results.error();
        } else {
            passed = !m_shared->cancel.isCancelled();
            for (const NodeProbeResult &r : *results)
                passed = passed && r.allPassed();
        }
        post([=, this] { Q_EMIT testFinished(id, passed, error); });
    });
}

int ClusterWorker::remove(const QString &workspace, const QString &cluster)
{
    return start([=, this](int id) {
        Store store;
        QString error;
        if (const auto opened = store.open(m_databasePath); !opened)
            error = opened.error();
        else if (const auto removed = ClusterService(store).remove(workspace, cluster); !removed)
            error = removed.error();
        post([=, this] { Q_EMIT finished(id, 0, error); });
    });
}

int ClusterWorker::runSetup(const QString &workspace, const QString &cluster, const QStringList &nodes)
{
    return start([=, this](int id) {
        Store store;
        qint64 clusterId = 0;
        QString error;
        if (const auto opened = store.open(m_databasePath); !opened) {
            error = opened.error();
        } else if (const auto runs = ClusterService(store).runSetup(workspace, cluster, nodes, events(id),
                                                                     &m_shared->cancel);
                   !runs) {
            error = runs.error();
        } else {
            error = SetupTask::failureSummary(*runs);
            clusterId = clusterIdOf(store, workspace, cluster);
        }
        post([=, this] { Q_EMIT finished(id, clusterId, error); });
    });
}

} // namespace TrainDesk

#include "NodeSampling.h"

#include "cluster/TransportFactory.h"
#include "metrics/SystemSampler.h"
#include "store/Store.h"

#include <QtConcurrent/QtConcurrentRun>

namespace TrainDesk {

namespace {

int intervalFromEnvironment()
{
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("TRAINDESK_SYSTEM_SAMPLE_SECONDS", &ok);
    return ok && seconds > 0 ? seconds : NodeSampling::defaultIntervalSeconds;
}

} // namespace

NodeSampling::NodeSampling(Store &store, int intervalSeconds)
    : m_store(store), m_intervalSeconds(intervalSeconds > 0 ? intervalSeconds : intervalFromEnvironment())
{
    m_pool.setMaxThreadCount(4);
}

NodeSampling::~NodeSampling()
{
    m_pool.waitForDone();
}

QSet<qint64> NodeSampling::tick(const QList<Job> &running)
{
    QSet<qint64> stored;
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (!it->sample.isFinished()) {
            ++it;
            continue;
        }
        const Result<SystemSample> sample = it->sample.result();
        if (sample) {
            // The job may be gone (deleted meanwhile): then there is nothing to keep it with.
            if (m_store.addSystemSample(it->jobId, sample->toJson()))
                stored.insert(it->jobId);
        } else if (!m_reported.contains(sample.error())) {
            m_reported.insert(sample.error());
            qWarning("traindesk agent: system sample of job #%lld: %s", static_cast<long long>(it->jobId),
                     qPrintable(sample.error()));
        }
        it = m_pending.erase(it);
    }

    QSet<qint64> active;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const Job &job : running) {
        active.insert(job.id);
        const bool busy = std::any_of(m_pending.cbegin(), m_pending.cend(),
                                      [&](const Pending &p) { return p.jobId == job.id; });
        const QDateTime last = m_lastStart.value(job.id);
        if (busy || (last.isValid() && last.msecsTo(now) < qint64(m_intervalSeconds) * 1000))
            continue;
        m_lastStart.insert(job.id, now);
        start(job);
    }
    for (auto it = m_lastStart.begin(); it != m_lastStart.end();)
        it = active.contains(it.key()) ? std::next(it) : m_lastStart.erase(it);
    return stored;
}

void NodeSampling::start(const Job &job)
{
    const auto cluster = m_store.clusterById(job.clusterId);
    if (!cluster || cluster->kind == ClusterKind::Slurm)
        return;
    const QList<Node> nodes = m_store.allNodes(cluster->id);
    for (const QString &name : job.nodes) {
        const auto node = std::find_if(nodes.cbegin(), nodes.cend(), [&](const Node &n) { return n.name == name; });
        if (node == nodes.cend())
            continue;
        // Opening is cheap (an SSH transport connects on first use, in the pool).
        auto transport = openTransport(*cluster, *node);
        if (!transport)
            continue;
        std::shared_ptr<Transport> t = *transport;
        m_pending.append({job.id, QtConcurrent::run(&m_pool, [t, name] { return SystemSampler::sample(*t, name); })});
    }
}

} // namespace TrainDesk

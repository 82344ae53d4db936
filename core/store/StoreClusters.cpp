// Store: clusters and their nodes.
#include "Store.h"

#include "Names.h"
#include "StoreRows.h"

namespace TrainDesk {

using namespace StoreRows;

Result<Cluster> Store::createCluster(const Cluster &cluster, const QList<Node> &nodes)
{
    if (auto valid = validateName(QStringLiteral("cluster"), cluster.name); !valid)
        return valid.failure();
    if (this->cluster(cluster.workspaceId, cluster.name))
        return fail(QStringLiteral("cluster '%1' already exists").arg(cluster.name));
    if (nodes.isEmpty())
        return fail(QStringLiteral("cluster '%1' needs at least one node").arg(cluster.name));
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, tx.error()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO clusters(workspace_id, name, kind, target_node_count, mount_root, "
                             "setup_task, created, ssh_key_file, ssh_secret, scheduler, node_lost_grace) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(cluster.workspaceId);
    q.addBindValue(cluster.name);
    q.addBindValue(toString(cluster.kind));
    q.addBindValue(cluster.targetNodeCount);
    q.addBindValue(text(cluster.mountRoot));
    q.addBindValue(text(cluster.setupTask));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(cluster.sshKeyFile));
    q.addBindValue(text(cluster.sshSecret));
    q.addBindValue(QString::fromUtf8(cluster.kind == ClusterKind::Slurm ? cluster.slurm.toJson() : QByteArray("{}")));
    q.addBindValue(cluster.nodeLostGraceSeconds);
    if (!q.exec())
        return fail(uniqueViolation(q) ? QStringLiteral("cluster '%1' already exists").arg(cluster.name)
                                       : QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, q.lastError().text()));
    const qint64 clusterId = q.lastInsertId().toLongLong();
    int index = 0;
    for (const Node &n : nodes) {
        QSqlQuery nq(m_db);
        nq.prepare(QStringLiteral("INSERT INTO nodes(cluster_id, idx, name, host, port, user, slots, state, "
                                  "state_reason, parked, facts) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        nq.addBindValue(clusterId);
        nq.addBindValue(index++);
        nq.addBindValue(n.name);
        nq.addBindValue(text(n.host));
        nq.addBindValue(n.port);
        nq.addBindValue(text(n.user));
        nq.addBindValue(n.slotCount);
        nq.addBindValue(toString(n.state));
        nq.addBindValue(text(n.stateReason));
        nq.addBindValue(n.parked ? 1 : 0);
        nq.addBindValue(n.facts.isEmpty() ? QStringLiteral("{}") : n.facts);
        if (!nq.exec())
            return fail(QStringLiteral("cannot add node '%1' to cluster '%2': %3")
                            .arg(n.name, cluster.name, nq.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot create cluster '%1': %2").arg(cluster.name, tx.error()));
    return clusterById(clusterId);
}

Result<Cluster> Store::cluster(qint64 workspaceId, const QString &name) const
{
    return selectOne<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE workspace_id = ? AND name = ?"),
                              {workspaceId, name}, clusterFrom, QStringLiteral("cluster '%1' not found").arg(name));
}

Result<Cluster> Store::clusterById(qint64 id) const
{
    return selectOne<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE id = ?"), {id}, clusterFrom,
                              QStringLiteral("cluster #%1 not found").arg(id));
}

QList<Cluster> Store::clusters(qint64 workspaceId) const
{
    return selectAll<Cluster>(m_db, QStringLiteral("SELECT * FROM clusters WHERE workspace_id = ? ORDER BY name"),
                              {workspaceId}, clusterFrom);
}

QList<Node> Store::nodes(qint64 clusterId) const
{
    return selectAll<Node>(m_db, QStringLiteral("SELECT * FROM nodes WHERE cluster_id = ? AND parked = 0 ORDER BY idx"),
                           {clusterId}, nodeFrom);
}

QList<Node> Store::allNodes(qint64 clusterId) const
{
    return selectAll<Node>(m_db, QStringLiteral("SELECT * FROM nodes WHERE cluster_id = ? ORDER BY idx"),
                           {clusterId}, nodeFrom);
}

VoidResult Store::setNodeParked(qint64 nodeId, bool parked, NodeState state)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET parked = ?, state = ?, state_reason = '' WHERE id = ?"));
    q.addBindValue(parked ? 1 : 0);
    q.addBindValue(toString(state));
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::setNodeFacts(qint64 nodeId, int slotCount, const QString &facts)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET slots = ?, facts = ?, gpus = ? WHERE id = ?"));
    q.addBindValue(qMax(1, slotCount));
    q.addBindValue(facts.isEmpty() ? QStringLiteral("{}") : facts);
    // The probe lists each GPU nvidia-smi answered with (none when it failed).
    q.addBindValue(int(QJsonDocument::fromJson(facts.toUtf8()).object().value(QStringLiteral("gpus")).toArray().size()));
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::setClusterTarget(qint64 clusterId, int targetNodeCount)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE clusters SET target_node_count = ? WHERE id = ?"));
    q.addBindValue(targetNodeCount);
    q.addBindValue(clusterId);
    if (!q.exec())
        return fail(QStringLiteral("cannot resize cluster #%1: %2").arg(clusterId).arg(q.lastError().text()));
    return {};
}

VoidResult Store::deleteCluster(qint64 clusterId)
{
    const auto cl = clusterById(clusterId);
    if (!cl)
        return cl.failure();
    Transaction tx(m_db);
    if (!tx.active())
        return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, tx.error()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE cluster_id = ? AND state IN ('queued','running','terminating')"));
    q.addBindValue(clusterId);
    if (q.exec() && q.next() && q.value(0).toInt() > 0)
        return fail(QStringLiteral("cluster '%1' has %2 queued or running jobs; terminate them first")
                        .arg(cl->name).arg(q.value(0).toInt()));
    // Finished jobs go with their cluster (their files stay on the share).
    for (const QString &sql : {QStringLiteral("DELETE FROM jobs WHERE cluster_id = ?"),
                               QStringLiteral("DELETE FROM clusters WHERE id = ?")}) {
        QSqlQuery d(m_db);
        d.prepare(sql);
        d.addBindValue(clusterId);
        if (!d.exec())
            return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, d.lastError().text()));
    }
    if (!tx.commit())
        return fail(QStringLiteral("cannot delete cluster '%1': %2").arg(cl->name, tx.error()));
    return {};
}

VoidResult Store::setNodeState(qint64 nodeId, NodeState state, const QString &reason)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE nodes SET state = ?, state_reason = ?, last_seen = ? WHERE id = ?"));
    q.addBindValue(toString(state));
    q.addBindValue(text(reason));
    q.addBindValue(timeText(QDateTime::currentDateTimeUtc()));
    q.addBindValue(nodeId);
    if (!q.exec())
        return fail(QStringLiteral("cannot update node #%1: %2").arg(nodeId).arg(q.lastError().text()));
    return {};
}

// --- shares ---

} // namespace TrainDesk

#include "TransportFactory.h"

#include "transport/LocalTransport.h"
#include "transport/SshTransport.h"
#include "cluster/ClusterCredentials.h"
#include "cluster/NodeAddress.h"
#include "cluster/SlurmEnvironment.h"
#include "store/Store.h"

namespace TrainDesk {

Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node)
{
    switch (cluster.kind) {
    case ClusterKind::Local:
        return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
    case ClusterKind::Ssh: {
        // Cheap: the transport connects (or takes a pooled connection) on first use.
        auto parameters = ClusterCredentials::sshParameters(cluster, node);
        if (!parameters)
            return parameters.failure();
        return std::shared_ptr<Transport>(std::make_shared<SshTransport>(*parameters));
    }
    case ClusterKind::Slurm: {
        // TrainDesk reaches only the login node; the compute nodes' files are on the shared
        // file system the login node sees, so every node's transport is the login node's.
        // The user's Slurm settings of the cluster, not those the agent happened to start with.
        if (cluster.slurm.loginIsLocal())
            return std::shared_ptr<Transport>(std::make_shared<LocalTransport>(SlurmEnvironment::load(cluster.id)));
        const auto address = parseNodeAddress(cluster.slurm.login);
        if (!address)
            return fail(QStringLiteral("cluster '%1': login node: %2").arg(cluster.name, address.error()));
        Node login = node;
        login.name = QStringLiteral("login");
        login.host = address->host;
        login.port = address->port;
        login.user = address->user;
        auto parameters = ClusterCredentials::sshParameters(cluster, login);
        if (!parameters)
            return parameters.failure();
        return std::shared_ptr<Transport>(std::make_shared<SshTransport>(*parameters));
    }
    }
    return fail(QStringLiteral("node %1 of cluster '%2': unknown cluster kind").arg(node.name, cluster.name));
}

Result<std::shared_ptr<Transport>> openHeadTransport(const Store &store, const Job &job)
{
    if (job.nodes.isEmpty())
        return fail(QStringLiteral("job '%1' has not started: it has no nodes yet").arg(job.name));
    const auto cluster = store.clusterById(job.clusterId);
    if (!cluster)
        return cluster.failure();
    for (const Node &n : store.allNodes(cluster->id)) {
        if (n.name == job.nodes.first())
            return openTransport(*cluster, n);
    }
    return fail(QStringLiteral("job '%1': its head node %2 is no longer in cluster '%3'")
                    .arg(job.name, job.nodes.first(), cluster->name));
}

} // namespace TrainDesk

#include "TransportFactory.h"

#include "transport/LocalTransport.h"
#include "transport/SshTransport.h"
#include "cluster/ClusterCredentials.h"
#include "cluster/NodeAddress.h"
#include "cluster/SlurmEnvironment.h"
#include "store/Store.h"

namespace TrainDesk {

namespace {

std::shared_ptr<Transport> sshTransport(SshParameters p, const TransportOptions &options)
{
    p.hostKeyPolicy = options.hostKeyPolicy;
    p.confirmHostKey = options.confirmHostKey;
    p.hostKeyAccepted = options.hostKeyAccepted;
    p.connectTimeoutMs = options.connectTimeoutMs;
    return std::make_shared<SshTransport>(p);
}

// TrainDesk reaches a Slurm cluster through its login node only: the compute nodes' files
// are on the shared file system the login node sees. `base` gives what is not the address.
Result<Node> slurmLoginNode(const QString &login, Node base = {})
{
    const auto address = parseNodeAddress(login);
    if (!address)
        return address.failure();
    base.name = QStringLiteral("login");
    base.host = address->host;
    base.port = address->port;
    base.user = address->user;
    return base;
}

} // namespace

Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node, const TransportOptions &options)
{
    switch (cluster.kind) {
    case ClusterKind::Local:
        return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
    case ClusterKind::Ssh: {
        auto parameters = ClusterCredentials::sshParameters(cluster, node);
        if (!parameters)
            return parameters.failure();
        return sshTransport(*parameters, options);
    }
    case ClusterKind::Slurm: {
        // Every node's transport is the login node's. The user's Slurm settings of the
        // cluster, not those the agent happened to start with.
        if (cluster.slurm.loginIsLocal())
            return std::shared_ptr<Transport>(std::make_shared<LocalTransport>(SlurmEnvironment::load(cluster.id)));
        const auto login = slurmLoginNode(cluster.slurm.login, node);
        if (!login)
            return fail(QStringLiteral("cluster '%1': login node: %2").arg(cluster.name, login.error()));
        auto parameters = ClusterCredentials::sshParameters(cluster, *login);
        if (!parameters)
            return parameters.failure();
        return sshTransport(*parameters, options);
    }
    }
    return fail(QStringLiteral("node %1 of cluster '%2': unknown cluster kind").arg(node.name, cluster.name));
}

std::shared_ptr<Transport> openSshTransport(SshParameters login, const TransportOptions &options)
{
    return sshTransport(std::move(login), options);
}

Result<std::shared_ptr<Transport>> openSlurmLogin(const SlurmSettings &slurm, const SshCredentials &credentials,
                                                  const TransportOptions &options)
{
    // A cluster being created on this machine runs with this process's Slurm settings (they
    // are saved with it once it is created).
    if (slurm.loginIsLocal())
        return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
    const auto login = slurmLoginNode(slurm.login);
    if (!login)
        return login.failure();
    SshParameters p;
    p.nodeName = login->name;
    p.host = login->host;
    p.port = login->port;
    p.user = login->user;
    p.credentials = credentials;
    return sshTransport(p, options);
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

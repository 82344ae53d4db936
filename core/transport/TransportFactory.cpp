#include "TransportFactory.h"

#include "LocalTransport.h"
#include "SshTransport.h"
#include "cluster/ClusterCredentials.h"

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
    }
    return fail(QStringLiteral("node %1 of cluster '%2': unknown cluster kind").arg(node.name, cluster.name));
}

} // namespace TrainDesk

#include "TransportFactory.h"

#include "LocalTransport.h"

namespace TrainDesk {

Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node)
{
    switch (cluster.kind) {
    case ClusterKind::Local:
        return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
    case ClusterKind::Ssh:
        break;
    }
    return fail(QStringLiteral("node %1 of cluster '%2': SSH clusters are not available in this build")
                    .arg(node.name, cluster.name));
}

} // namespace TrainDesk

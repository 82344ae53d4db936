#pragma once

#include "store/Entities.h"

namespace TrainDesk {

// Whether the nodes of `cluster` see `share`: a local share is a folder of this machine,
// which only a cluster on this machine sees (the local cluster, Slurm with its login here);
// a cluster-path or replicated share lives on the nodes of its own cluster only. The
// probe checks these shares and the launch links them; the others are no job's business there.
inline bool clusterSeesShare(const Share &share, const Cluster &cluster)
{
    if (share.kind == ShareKind::Local)
        return cluster.kind == ClusterKind::Local || (cluster.kind == ClusterKind::Slurm && cluster.slurm.loginIsLocal());
    return share.clusterId == cluster.id;
}

} // namespace TrainDesk

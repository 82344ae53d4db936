#pragma once

#include "common/Result.h"
#include "store/Entities.h"
#include "transport/SshParameters.h"

namespace TrainDesk {

// The secrets of an SSH cluster, kept sealed in Cluster::sshSecret.
struct ClusterSecrets
{
    QString password;
    QString keyPassphrase;
};

namespace ClusterCredentials {

Result<QString> seal(const ClusterSecrets &secrets);
Result<ClusterSecrets> open(const Cluster &cluster);
// How to reach `node` of an SSH cluster: its address and the cluster's credentials.
// Unknown host keys are refused: they are accepted when the cluster is created.
Result<SshParameters> sshParameters(const Cluster &cluster, const Node &node);

} // namespace ClusterCredentials
} // namespace TrainDesk

#pragma once
// A cluster as asked for (`cluster create`, the GUI's cluster wizard): names, nodes,
// credentials and settings, before anything is checked or stored (cluster/ClusterService).
#include "store/Entities.h"
#include "transport/SshParameters.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace TrainDesk {

struct CreateClusterRequest
{
    QString workspace = QStringLiteral("default");
    QString name;
    bool local = false;       // the embedded kind: this machine, no SSH
    QStringList nodes;        // [NAME=]user@host[:port]
    QString headNode;         // name or user@host[:port] of the head node; default: the first
    QString keyFile;
    QString keyPassphrase;
    QString password;
    bool generateSshKeys = false;   // TrainDesk's ed25519 key, deployed to every node
    bool acceptNewHostKeys = false;
    std::function<bool(const HostKeyQuestion &)> confirmHostKey;  // asked for new keys when set (GUI)
    QString setupTask;
    QString mountRoot;        // default: ~/traindesk/mounts/<ws>/<cluster> of the head node's user
    // A Slurm cluster: `slurm.login` is "local" or user@host[:port] (then logged in to as an
    // SSH node with the credentials above); the rest are sbatch defaults.
    std::optional<SlurmSettings> slurm;
    int connectTimeoutMs = 10000;
    int nodeLostGraceSeconds = 120;  // see Cluster::nodeLostGraceSeconds
};

} // namespace TrainDesk

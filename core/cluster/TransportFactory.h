#pragma once

#include "transport/SshParameters.h"
#include "transport/Transport.h"
#include "store/Entities.h"

#include <functional>
#include <memory>

namespace TrainDesk {

class Store;

// The one place where transports are built: every other part of TrainDesk asks here.

// How a login checks the node's host key and how long it may take. The defaults are those of
// a stored cluster (known host keys only, 10 s); creating and probing clusters ask for new
// keys (the GUI) or accept them (the CLI when told), and may wait longer or shorter.
struct TransportOptions
{
    HostKeyPolicy hostKeyPolicy = HostKeyPolicy::KnownOnly;
    // Runs on the connecting thread; the caller serializes questions if it asks the user.
    std::function<bool(const HostKeyQuestion &)> confirmHostKey;
    // Told about each new key recorded (to show its fingerprint).
    std::function<void(const HostKeyQuestion &)> hostKeyAccepted;
    int connectTimeoutMs = 10000;
};

// The transport that reaches `node` of `cluster`: this machine for the local cluster, the
// login node for every node of a Slurm cluster. Cheap: it logs in on first use.
Result<std::shared_ptr<Transport>> openTransport(const Cluster &cluster, const Node &node,
                                                 const TransportOptions &options = {});

// The transport to the head node of a job that has started (where its files are). Parked
// nodes count: a job keeps the nodes it started on.
Result<std::shared_ptr<Transport>> openHeadTransport(const Store &store, const Job &job);

// A node of a cluster not stored yet (being created): `login` names it and holds its address
// and the credentials to try; the host-key and timeout settings are those of `options`.
std::shared_ptr<Transport> openSshTransport(SshParameters login, const TransportOptions &options);

// The login node of a Slurm cluster not stored yet: `slurm.login` is "local" (this machine,
// with this process's Slurm settings) or user@host[:port]. Not logged in to yet.
Result<std::shared_ptr<Transport>> openSlurmLogin(const SlurmSettings &slurm, const SshCredentials &credentials,
                                                  const TransportOptions &options);

} // namespace TrainDesk

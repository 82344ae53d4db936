#pragma once

#include <QString>
#include <QStringList>

#include <functional>

namespace TrainDesk {

// How to log in. Methods are tried in this order, as OpenSSH does: the key file, the
// ssh-agent (when SSH_AUTH_SOCK is set and useAgent), the user's default identities
// (~/.ssh/id_ed25519, id_ecdsa, id_rsa, when useDefaultIdentities), the password.
struct SshCredentials
{
    QString keyFile;
    QString keyPassphrase;  // secret: never logged
    QString password;       // secret: never logged
    bool useAgent = true;
    bool useDefaultIdentities = true;

    // The default identities of this machine's user that exist, in the order OpenSSH tries them.
    static QStringList defaultIdentities();

};

// What the user is asked about a host key TrainDesk has not seen before.
struct HostKeyQuestion
{
    QString nodeName;
    QString host;
    int port = 22;
    QString keyType;      // e.g. ssh-ed25519
    QString fingerprint;  // SHA256:...
};

enum class HostKeyPolicy {
    KnownOnly,  // an unknown key is refused (jobs, monitoring)
    AcceptNew,  // an unknown key is recorded (--accept-new-host-keys)
    Ask,        // confirmHostKey decides (the GUI wizard)
};

struct SshParameters
{
    QString nodeName;  // for messages: the node's name in its cluster
    QString host;
    int port = 22;
    QString user;
    SshCredentials credentials;
    QString knownHostsPath;  // empty: <data dir>/known_hosts
    HostKeyPolicy hostKeyPolicy = HostKeyPolicy::KnownOnly;
    // Runs on the connecting (worker) thread; the GUI hops to its own thread to ask.
    std::function<bool(const HostKeyQuestion &)> confirmHostKey;
    // Told about each new key recorded (to show its fingerprint), on the connecting thread.
    std::function<void(const HostKeyQuestion &)> hostKeyAccepted;
    int connectTimeoutMs = 10000;    // TCP connect, handshake and each blocking step
    int keepaliveIntervalMs = 30000;

    // "node1 (alice@host:22)": the start of every message about this node.
    QString describe() const;
    // Connections are shared between callers with the same key: the address, the user
    // and a hash of the credentials (so two clusters never share a login by accident).
    QString poolKey() const;
    QString effectiveKnownHostsPath() const;
};

} // namespace TrainDesk

#include "ClusterMesh.h"

#include "SshKeys.h"
#include "common/DataPaths.h"
#include "transport/KnownHosts.h"
#include "transport/SshParameters.h"
#include "transport/Transport.h"

#include <QFile>

namespace TrainDesk::ClusterMesh {

namespace {

QString quoted(const QString &value)
{
    // ssh_config takes double quotes around values with spaces.
    QString v = value;
    v.remove(QLatin1Char('"'));
    return QLatin1Char('"') + v + QLatin1Char('"');
}

} // namespace

QString directoryRelativePath(const Cluster &cluster)
{
    return QStringLiteral(".traindesk/clusters/%1-%2").arg(cluster.workspaceId).arg(cluster.name);
}

QString configRelativePath(const Cluster &cluster) { return directoryRelativePath(cluster) + QStringLiteral("/ssh_config"); }

VoidResult setUp(const Cluster &cluster, const QList<Node> &nodes, const TransportOpener &open)
{
    if (nodes.size() < 2)
        return {};
    const Node &headNode = nodes.first();
    auto head = open(headNode);
    if (!head)
        return head.failure();
    const auto home = (*head)->exec(QStringLiteral("printf '%s' \"$HOME\""), 30000);
    if (!home)
        return home.failure();
    const QString headHome = QString::fromUtf8(home->stdOut);
    if (home->exitCode != 0 || !headHome.startsWith(QLatin1Char('/')))
        return fail(QStringLiteral("node %1: cannot find the home directory").arg(headNode.name));
    const QString dir = headHome + QLatin1Char('/') + directoryRelativePath(cluster);

    // The key pair lives in the data directory too, so a node that joins later gets it.
    const QString localKey = DataPaths::dataDirectory()
        + QStringLiteral("/ssh/clusters/%1-%2/id_ed25519").arg(cluster.workspaceId).arg(cluster.name);
    const auto pair = SshKeys::ensureKeyPair(localKey, QStringLiteral("traindesk-cluster-%1").arg(cluster.name));
    if (!pair)
        return pair.failure();
    QFile privateKey(pair->privateKeyPath);
    if (!privateKey.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1").arg(pair->privateKeyPath));

    QString config = QStringLiteral("# Written by TrainDesk for cluster '%1': how mpirun on the head node reaches the nodes.\n")
                         .arg(cluster.name);
    QString knownHosts;
    const KnownHosts trusted(SshParameters().effectiveKnownHostsPath());
    for (const Node &n : nodes) {
        config += QStringLiteral("Host %1\n  HostName %1\n  Port %2\n  User %3\n  IdentityFile %4\n  IdentitiesOnly yes\n"
                                 "  UserKnownHostsFile %5\n  StrictHostKeyChecking accept-new\n  BatchMode yes\n")
                      .arg(n.host).arg(n.port)
                      .arg(n.user, quoted(dir + QStringLiteral("/id_ed25519")), quoted(dir + QStringLiteral("/known_hosts")));
        // The host keys TrainDesk verified, so the head node does not trust blindly.
        for (const HostKey &key : trusted.keys(n.host, n.port))
            knownHosts += QStringLiteral("%1 %2 %3\n").arg(KnownHosts::hostPattern(n.host, n.port), key.type,
                                                          QString::fromLatin1(key.blob.toBase64()));
    }
    const auto owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    if (auto ok = (*head)->makeDirectories(dir); !ok)
        return ok;
    if (auto ok = (*head)->exec(QStringLiteral("chmod 700 \"$HOME\"/.traindesk"), 30000); !ok)
        return ok.failure();
    if (auto ok = (*head)->writeFile(dir + QStringLiteral("/id_ed25519"), privateKey.readAll(), owner); !ok)
        return ok;
    if (auto ok = (*head)->writeFile(dir + QStringLiteral("/id_ed25519.pub"), pair->publicKeyLine.toUtf8() + '\n', owner); !ok)
        return ok;
    if (auto ok = (*head)->writeFile(dir + QStringLiteral("/known_hosts"), knownHosts.toUtf8(), owner); !ok)
        return ok;
    if (auto ok = (*head)->writeFile(dir + QStringLiteral("/ssh_config"), config.toUtf8(), owner); !ok)
        return ok;
    for (const Node &n : nodes) {
        auto transport = n.name == headNode.name ? head : open(n);
        if (!transport)
            return transport.failure();
        if (auto ok = SshKeys::deployPublicKey(**transport, pair->publicKeyLine); !ok)
            return ok;
    }
    return {};
}

} // namespace TrainDesk::ClusterMesh

#include "ClusterMesh.h"

#include "SshKeys.h"
#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "transport/KnownHosts.h"
#include "transport/SshParameters.h"
#include "transport/Transport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <thread>
#include <vector>

namespace TrainDesk::ClusterMesh {

namespace {

QString quoted(const QString &value)
{
    // ssh_config takes double quotes around values with spaces.
    QString v = value;
    v.remove(QLatin1Char('"'));
    return QLatin1Char('"') + v + QLatin1Char('"');
}

// What setUp writes into the cluster's folder on the head node.
const QStringList meshFiles{QStringLiteral("id_ed25519"), QStringLiteral("id_ed25519.pub"),
                            QStringLiteral("known_hosts"), QStringLiteral("ssh_config")};

// Removes setUp's files from the head node's folder of the cluster, then the folder when
// nothing else is in it. A folder whose public key is not ours belongs to another
// TrainDesk (another data directory): it stays. Prints absent, foreign, removed or kept.
QString removeFolderCommand(const Cluster &cluster, const QString &publicKeyLine)
{
    QStringList files;
    for (const QString &f : meshFiles)
        files << shellQuote(f);
    return QStringLiteral("d=\"$HOME\"/%1; [ -d \"$d\" ] || { echo absent; exit 0; }; "
                          "if [ -f \"$d/id_ed25519.pub\" ] && ! grep -qxF -- %2 \"$d/id_ed25519.pub\"; then "
                          "echo foreign; exit 0; fi; "
                          "cd \"$d\" && rm -f -- %3 && cd / && if rmdir -- \"$d\" 2>/dev/null; then echo removed; "
                          "else echo kept; fi")
        .arg(shellQuote(directoryRelativePath(cluster)), shellQuote(publicKeyLine.trimmed()),
             files.join(QLatin1Char(' ')));
}

} // namespace

QString globalId(const Cluster &cluster)
{
    return QStringLiteral("%1-%2").arg(DataPaths::installationId()).arg(cluster.id);
}

QString directoryRelativePath(const Cluster &cluster)
{
    return QStringLiteral(".traindesk/clusters/%1-%2").arg(globalId(cluster), cluster.name);
}

QString configRelativePath(const Cluster &cluster) { return directoryRelativePath(cluster) + QStringLiteral("/ssh_config"); }

QString localKeyPath(const Cluster &cluster)
{
    return DataPaths::dataDirectory()
        + QStringLiteral("/ssh/clusters/%1-%2/id_ed25519").arg(globalId(cluster), cluster.name);
}

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

    const auto pair = SshKeys::ensureKeyPair(localKeyPath(cluster), QStringLiteral("traindesk-cluster-%1").arg(cluster.name));
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

TearDownReport tearDown(const Cluster &cluster, const QList<Node> &nodes, const TransportOpener &open,
                        const std::function<void(const QString &)> &message)
{
    TearDownReport report;
    const QString localKey = localKeyPath(cluster);
    QFile pub(localKey + QStringLiteral(".pub"));
    // No key pair here: setUp never ran for this cluster (one node, or not an SSH cluster).
    if (!pub.open(QIODevice::ReadOnly))
        return report;
    const QString keyLine = QString::fromUtf8(pub.readAll()).trimmed();
    pub.close();
    // Each node's lines in a report of its own, told in node order once all answered.
    std::vector<TearDownReport> perNode(size_t(nodes.size()));
    const QString folder = QStringLiteral("~/") + directoryRelativePath(cluster);
    std::vector<std::thread> threads;
    for (qsizetype i = 0; i < nodes.size() && !keyLine.isEmpty(); ++i) {
        threads.emplace_back([&, i] {
            const Node &node = nodes.at(i);
            TearDownReport &mine = perNode[size_t(i)];
            const bool head = i == 0;
            const auto transport = open(node);
            const auto removed = transport ? SshKeys::removePublicKey(**transport, keyLine) : Result<int>(transport.failure());
            if (!removed) {
                // Transport errors name the node already.
                const QString why = removed.error().startsWith(QStringLiteral("node ") + node.name)
                    ? removed.error()
                    : QStringLiteral("node %1: %2").arg(node.name, removed.error());
                mine.leftBehind.append(QStringLiteral("%1; its ~/.ssh/authorized_keys still holds the cluster key '%2'%3: "
                                                      "remove it by hand")
                                           .arg(why, keyLine,
                                                head ? QStringLiteral(" and %1 holds its key pair").arg(folder) : QString()));
                return;
            }
            mine.removed.append(*removed > 0
                                    ? QStringLiteral("node %1: removed the cluster key from ~/.ssh/authorized_keys").arg(node.name)
                                    : QStringLiteral("node %1: ~/.ssh/authorized_keys holds no cluster key (already removed, "
                                                     "or a home shared with another node)").arg(node.name));
            if (!head)
                return;
            const auto folderRemoved = (*transport)->exec(removeFolderCommand(cluster, keyLine), 30000);
            const QString outcome = folderRemoved && folderRemoved->exitCode == 0
                ? QString::fromUtf8(folderRemoved->stdOut).trimmed()
                : QString();
            if (outcome == QLatin1String("removed") || outcome == QLatin1String("kept"))
                mine.removed.append(QStringLiteral("node %1: removed the cluster's key pair, known_hosts and ssh_config "
                                                   "from %2%3")
                                        .arg(node.name, folder,
                                             outcome == QLatin1String("kept")
                                                 ? QStringLiteral(" (the folder stays: it holds other files)")
                                                 : QString()));
            else if (outcome == QLatin1String("foreign"))
                mine.leftBehind.append(QStringLiteral("node %1: %2 holds another key (another TrainDesk's cluster): left as it is")
                                        .arg(node.name, folder));
            else if (outcome != QLatin1String("absent"))
                mine.leftBehind.append(QStringLiteral("node %1: cannot remove %2: %3")
                                           .arg(node.name, folder,
                                                folderRemoved ? QString::fromLocal8Bit(folderRemoved->stdErr).trimmed()
                                                              : folderRemoved.error()));
        });
    }
    for (std::thread &t : threads)
        t.join();
    const auto say = [&](QStringList &list, const QString &line) {
        list << line;
        if (message)
            message(line);
    };
    for (const TearDownReport &node : perNode) {
        for (const QString &line : node.removed)
            say(report.removed, line);
        for (const QString &line : node.leftBehind)
            say(report.leftBehind, line);
    }
    // The key pair here goes too: a cluster made later under this name gets a new one.
    QFile::remove(localKey);
    QFile::remove(localKey + QStringLiteral(".pub"));
    QDir().rmdir(QFileInfo(localKey).absolutePath());
    if (QFile::exists(localKey))
        say(report.leftBehind, QStringLiteral("cannot remove the cluster's key %1").arg(localKey));
    else
        say(report.removed, QStringLiteral("removed the cluster's key pair from this computer (%1)").arg(localKey));
    return report;
}

} // namespace TrainDesk::ClusterMesh

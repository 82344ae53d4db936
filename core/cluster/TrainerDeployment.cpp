#include "TrainerDeployment.h"

#include "cluster/TransportFactory.h"
#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <thread>

namespace TrainDesk::TrainerDeployment {

namespace {

const QString executableName = QStringLiteral("traindesk-trainer");
const QString pluginName = QStringLiteral("libtraindesk-trainer-cuda.so");

} // namespace

Result<Bundle> localBundle(const QString &trainerDirectory)
{
    Bundle bundle;
    bundle.executable = QDir(trainerDirectory).filePath(executableName);
    if (!QFileInfo(bundle.executable).isExecutable())
        return fail(QStringLiteral("no %1 in %2 to copy to the nodes (set TRAINDESK_TRAINER_DIR)").arg(executableName, trainerDirectory));
    const QString plugin = QDir(trainerDirectory).filePath(pluginName);
    if (QFileInfo::exists(plugin))
        bundle.cudaPlugin = plugin;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &path : {bundle.executable, bundle.cudaPlugin}) {
        if (path.isEmpty())
            continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        hash.addData(&f);
    }
    bundle.id = QString::fromLatin1(hash.result().toHex().left(16));
    return bundle;
}

QString remoteDirectory(const Cluster &cluster, const Bundle &bundle)
{
    return cluster.mountRoot + QStringLiteral("/.traindesk-trainer/") + bundle.id;
}

namespace {

// Whether the node has the bundle (the executable is written last: once it is there, the whole bundle is).
Result<bool> isOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle)
{
    const QString installed = remoteDirectory(cluster, bundle) + QLatin1Char('/') + executableName;
    const auto there = transport.exec(QStringLiteral("test -x %1").arg(shellQuote(installed)), 15000);
    if (!there)
        return there.failure();
    return there->exitCode == 0;
}

} // namespace

VoidResult ensureOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle)
{
    const auto there = isOnNode(transport, cluster, bundle);
    if (!there)
        return there.failure();
    if (*there)
        return {};
    const QString directory = remoteDirectory(cluster, bundle);
    if (auto made = transport.makeDirectories(directory); !made)
        return made;
    const auto executable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
        | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther;
    for (const QString &path : {bundle.cudaPlugin, bundle.executable}) {
        if (path.isEmpty())
            continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        const QString target = directory + QLatin1Char('/') + QFileInfo(path).fileName();
        if (auto written = transport.writeFile(target, f.readAll(), executable); !written)
            return fail(QStringLiteral("cannot copy the trainer to %1 (%2): %3").arg(transport.nodeName(), target, written.error()));
    }
    return {};
}

VoidResult ensureOnNodes(const Cluster &cluster, const QList<Node> &nodes, const Bundle &bundle)
{
    // Looked for on every node at once (the common case: there already); copied one node at
    // a time, looking again first, since nodes that share a home (NFS) share the folder too.
    QList<std::shared_ptr<Transport>> transports(nodes.size());
    QStringList errors(nodes.size());
    QList<bool> there(nodes.size(), false);
    std::vector<std::thread> threads;
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        threads.emplace_back([&, i] {
            auto transport = openTransport(cluster, nodes.at(i));
            if (!transport) {
                errors[i] = transport.error();
                return;
            }
            transports[i] = *transport;
            const auto found = isOnNode(**transport, cluster, bundle);
            if (!found)
                errors[i] = found.error();
            else
                there[i] = *found;
        });
    }
    for (std::thread &t : threads)
        t.join();
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        if (errors.at(i).isEmpty() && !there.at(i)) {
            if (auto copied = ensureOnNode(*transports.at(i), cluster, bundle); !copied)
                errors[i] = copied.error();
        }
        if (!errors.at(i).isEmpty())
            return fail(QStringLiteral("node %1: %2").arg(nodes.at(i).name, errors.at(i)));
    }
    return {};
}

} // namespace TrainDesk::TrainerDeployment

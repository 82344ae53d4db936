#include "TrainerDeployment.h"

#include "common/ResultLog.h"
#include "cluster/TransportFactory.h"
#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUuid>

#include <thread>

namespace TrainDesk::TrainerDeployment {

namespace {

const QString executableName = QStringLiteral("traindesk-trainer");
const QString pluginName = QStringLiteral("libtraindesk-trainer-cuda.so");

} // namespace

namespace {

// The newest portable trainer in `directory`, or empty.
QString portableArchive(const QString &directory)
{
    const QFileInfoList found = QDir(directory).entryInfoList({QStringLiteral("traindesk-trainer-*-linux-x86_64.tar.gz")},
                                                              QDir::Files, QDir::Time);
    return found.isEmpty() ? QString() : found.first().absoluteFilePath();
}

} // namespace

Result<Bundle> localBundle(const QString &trainerDirectory)
{
    Bundle bundle;
    // Beside the executable (a build), or where the package installs it (GNUInstallDirs' lib
    // or its multiarch form).
    for (const QString &dir : {trainerDirectory, QDir(trainerDirectory).filePath(QStringLiteral("../lib/traindesk")),
                               QDir(trainerDirectory).filePath(QStringLiteral("../lib/x86_64-linux-gnu/traindesk"))}) {
        bundle.archive = portableArchive(dir);
        if (!bundle.archive.isEmpty())
            break;
    }
    if (bundle.archive.isEmpty()) {
        bundle.executable = QDir(trainerDirectory).filePath(executableName);
        if (!QFileInfo(bundle.executable).isExecutable())
            return fail(QStringLiteral("no %1 in %2 to copy to the nodes (set TRAINDESK_TRAINER_DIR)").arg(executableName, trainerDirectory));
        const QString plugin = QDir(trainerDirectory).filePath(pluginName);
        if (QFileInfo::exists(plugin))
            bundle.cudaPlugin = plugin;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &path : {bundle.archive, bundle.executable, bundle.cudaPlugin}) {
        if (path.isEmpty())
            continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        hash.addData(&f);
    }
    bundle.sha256 = QString::fromLatin1(hash.result().toHex());
    bundle.id = bundle.sha256.left(16);
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

namespace {

// The archive into a temporary folder beside the final one, checked, unpacked, renamed:
// the folder appears whole or not at all, also to a node sharing the home (NFS).
VoidResult unpackOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle)
{
    QFile f(bundle.archive);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(bundle.archive, f.errorString()));
    const QString directory = remoteDirectory(cluster, bundle);
    const QString part = directory + QStringLiteral(".part-%1").arg(QUuid::createUuid().toString(QUuid::Id128).left(12));
    const QString archive = part + QStringLiteral("/trainer.tar.gz");
    if (auto made = transport.makeDirectories(part); !made)
        return made;
    if (auto written = transport.writeFile(archive, f.readAll(), QFileDevice::ReadOwner | QFileDevice::WriteOwner); !written)
        return fail(QStringLiteral("cannot copy the trainer to %1 (%2): %3").arg(transport.nodeName(), archive, written.error()));
    const QString script = QStringLiteral(
        "cd %1 && if ! echo %2'  trainer.tar.gz' | sha256sum -c --status; then echo 'checksum mismatch: the copy of %3 "
        "differs from the one on this machine' >&2; cd / && rm -rf %1; exit 3; fi && tar -xzf trainer.tar.gz --strip-components=1 "
        "&& rm trainer.tar.gz && cd / && { mv -T %1 %4 2>/dev/null || { rm -rf %1; test -x %4/traindesk-trainer; }; }")
                               .arg(shellQuote(part), bundle.sha256, QFileInfo(bundle.archive).fileName(), shellQuote(directory));
    const auto unpacked = transport.exec(script, 300000);
    if (!unpacked)
        return unpacked.failure();
    if (unpacked->exitCode != 0) {
        // The unpack's failure is the one to report; a part folder left behind is named in the log.
        logFailure(transport.exec(QStringLiteral("rm -rf %1").arg(shellQuote(part)), 30000),
                   QStringLiteral("%1: cannot remove %2").arg(transport.nodeName(), part));
        return fail(QStringLiteral("cannot unpack the trainer on %1 into %2: %3")
                        .arg(transport.nodeName(), directory, QString::fromLocal8Bit(unpacked->stdErr).trimmed().right(500)));
    }
    return {};
}

} // namespace

VoidResult ensureOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle)
{
    const auto there = isOnNode(transport, cluster, bundle);
    if (!there)
        return there.failure();
    if (*there)
        return {};
    if (!bundle.archive.isEmpty())
        return unpackOnNode(transport, cluster, bundle);
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

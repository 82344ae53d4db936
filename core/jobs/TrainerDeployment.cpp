#include "TrainerDeployment.h"

#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

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

VoidResult ensureOnNode(Transport &transport, const Cluster &cluster, const Bundle &bundle)
{
    const QString directory = remoteDirectory(cluster, bundle);
    const QString installed = directory + QLatin1Char('/') + executableName;
    // The executable is written last: once it is there, the whole bundle is.
    const auto there = transport.exec(QStringLiteral("test -x %1").arg(shellQuote(installed)), 15000);
    if (!there)
        return there.failure();
    if (there->exitCode == 0)
        return {};
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

} // namespace TrainDesk::TrainerDeployment

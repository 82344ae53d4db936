#include "SlurmEnvironment.h"

#include "common/DataPaths.h"

#include <QFile>
#include <QSaveFile>

namespace TrainDesk::SlurmEnvironment {

namespace {

QString pathOf(qint64 clusterId)
{
    return DataPaths::dataDirectory() + QStringLiteral("/slurm-cluster-%1.env").arg(clusterId);
}

} // namespace

QStringList fromThisProcess()
{
    QStringList environment;
    for (const char *name : {"SLURM_CONF", "SLURM_CLUSTERS"}) {
        const QString value = qEnvironmentVariable(name);
        if (!value.isEmpty() && !value.contains(QLatin1Char('\n')))
            environment << QLatin1String(name) + QLatin1Char('=') + value;
    }
    return environment;
}

VoidResult save(qint64 clusterId, const QStringList &environment)
{
    // Written (or removed) at every create: a cluster made later with a reused id never
    // takes an earlier one's settings.
    if (environment.isEmpty()) {
        QFile::remove(pathOf(clusterId));
        return {};
    }
    QSaveFile file(pathOf(clusterId));
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
    file.write(environment.join(QLatin1Char('\n')).toUtf8() + '\n');
    if (!file.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
    return {};
}

QStringList load(qint64 clusterId)
{
    QFile file(pathOf(clusterId));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList environment;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.contains('='))
            environment << QString::fromUtf8(line);
    }
    return environment;
}

} // namespace TrainDesk::SlurmEnvironment

#include "DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

namespace TrainDesk::DataPaths {

QString dataDirectory()
{
    const QString home = qEnvironmentVariable("TRAINDESK_HOME");
    if (!home.isEmpty())
        return QDir(home).absolutePath();
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return dir + QStringLiteral("/traindesk");
}

QString databasePath() { return dataDirectory() + QStringLiteral("/traindesk.db"); }

QString sharesDirectory() { return dataDirectory() + QStringLiteral("/shares"); }

QString clusterMountRoot(const QString &workspace, const QString &cluster)
{
    return dataDirectory() + QStringLiteral("/mounts/%1/%2").arg(workspace, cluster);
}

QString trainerDirectory()
{
    const QString dir = qEnvironmentVariable("TRAINDESK_TRAINER_DIR");
    if (!dir.isEmpty())
        return QDir(dir).absolutePath();
    return QCoreApplication::applicationDirPath();
}

} // namespace TrainDesk::DataPaths

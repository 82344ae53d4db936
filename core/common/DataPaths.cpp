#include "DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSaveFile>
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

QString installationId()
{
    const QString path = dataDirectory() + QStringLiteral("/installation-id");
    QFile in(path);
    if (in.open(QIODevice::ReadOnly)) {
        const QString id = QString::fromLatin1(in.readAll()).trimmed();
        if (id.size() == 16)
            return id;
    }
    QDir().mkpath(dataDirectory());
    const QString id = QStringLiteral("%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    // Made whole in one step: of two processes making it at once, each gets one, the last stays;
    // both ran before any cluster of this data directory could be named by it.
    QSaveFile out(path);
    if (out.open(QIODevice::WriteOnly)) {
        out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        out.write(id.toLatin1() + '\n');
        out.commit();
    }
    QFile again(path);
    if (again.open(QIODevice::ReadOnly)) {
        const QString stored = QString::fromLatin1(again.readAll()).trimmed();
        if (stored.size() == 16)
            return stored;
    }
    return id;
}

QString trainerDirectory()
{
    const QString dir = qEnvironmentVariable("TRAINDESK_TRAINER_DIR");
    if (!dir.isEmpty())
        return QDir(dir).absolutePath();
    return QCoreApplication::applicationDirPath();
}

} // namespace TrainDesk::DataPaths

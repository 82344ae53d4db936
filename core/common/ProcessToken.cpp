#include "ProcessToken.h"

#include <QCoreApplication>
#include <QSysInfo>

#include <cerrno>
#include <signal.h>

namespace TrainDesk {

QString processToken()
{
    return QStringLiteral("%1-%2").arg(QSysInfo::machineHostName()).arg(QCoreApplication::applicationPid());
}

bool processIsGone(const QString &token)
{
    const QString prefix = QSysInfo::machineHostName() + QLatin1Char('-');
    if (!token.startsWith(prefix))
        return false;
    bool ok = false;
    const qint64 pid = token.mid(prefix.size()).toLongLong(&ok);
    if (!ok || pid <= 0 || pid == QCoreApplication::applicationPid())
        return false;
    return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

} // namespace TrainDesk

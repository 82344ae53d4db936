#include "SshParameters.h"

#include "common/DataPaths.h"

#include <QCryptographicHash>
#include <QStringList>

namespace TrainDesk {

QString SshParameters::describe() const
{
    const QString address = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    const QString where = QStringLiteral("%1@%2:%3").arg(user, address).arg(port);
    return nodeName.isEmpty() ? where : QStringLiteral("node %1 (%2)").arg(nodeName, where);
}

QString SshParameters::poolKey() const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &part : {credentials.keyFile, credentials.keyPassphrase, credentials.password,
                                QString::number(credentials.useAgent), effectiveKnownHostsPath()}) {
        hash.addData(part.toUtf8());
        hash.addData(QByteArrayView("\0", 1));
    }
    return QStringLiteral("%1@%2:%3#%4").arg(user, host).arg(port).arg(QString::fromLatin1(hash.result().toHex()));
}

QString SshParameters::effectiveKnownHostsPath() const
{
    return knownHostsPath.isEmpty() ? DataPaths::dataDirectory() + QStringLiteral("/known_hosts") : knownHostsPath;
}

} // namespace TrainDesk

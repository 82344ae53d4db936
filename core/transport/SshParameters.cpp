#include "SshParameters.h"

#include "common/DataPaths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace TrainDesk {

QStringList SshCredentials::defaultIdentities()
{
    QStringList found;
    for (const char *name : {"id_ed25519", "id_ecdsa", "id_rsa"}) {
        const QString path = QDir::homePath() + QStringLiteral("/.ssh/") + QLatin1String(name);
        if (QFileInfo(path).isFile())
            found << path;
    }
    return found;
}

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
                                QString::number(credentials.useAgent), QString::number(credentials.useDefaultIdentities),
                                effectiveKnownHostsPath()}) {
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

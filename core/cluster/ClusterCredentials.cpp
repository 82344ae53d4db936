#include "ClusterCredentials.h"

#include "SecretBox.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk::ClusterCredentials {

Result<QString> seal(const ClusterSecrets &secrets)
{
    if (secrets.password.isEmpty() && secrets.keyPassphrase.isEmpty())
        return QString();
    const QJsonObject o{{"password", secrets.password}, {"keyPassphrase", secrets.keyPassphrase}};
    return SecretBox::seal(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
}

Result<ClusterSecrets> open(const Cluster &cluster)
{
    const auto text = SecretBox::open(cluster.sshSecret);
    if (!text)
        return fail(QStringLiteral("cluster '%1': %2").arg(cluster.name, text.error()));
    if (text->isEmpty())
        return ClusterSecrets{};
    const QJsonObject o = QJsonDocument::fromJson(text->toUtf8()).object();
    return ClusterSecrets{o.value("password").toString(), o.value("keyPassphrase").toString()};
}

Result<SshParameters> sshParameters(const Cluster &cluster, const Node &node)
{
    const auto secrets = open(cluster);
    if (!secrets)
        return secrets.failure();
    SshParameters p;
    p.nodeName = node.name;
    p.host = node.host;
    p.port = node.port;
    p.user = node.user;
    p.credentials.keyFile = cluster.sshKeyFile;
    p.credentials.keyPassphrase = secrets->keyPassphrase;
    p.credentials.password = secrets->password;
    p.hostKeyPolicy = HostKeyPolicy::KnownOnly;
    return p;
}

} // namespace TrainDesk::ClusterCredentials

#include "AgentChannel.h"

#include <QDir>
#include <QJsonDocument>
#include <QLocalSocket>

namespace TrainDesk::AgentChannel {

QString socketPath(const QString &dataDirectory)
{
    return QDir(dataDirectory).filePath(QStringLiteral("agent.sock"));
}

QString lockPath(const QString &dataDirectory)
{
    return QDir(dataDirectory).filePath(QStringLiteral("agent.lock"));
}

QString logPath(const QString &dataDirectory)
{
    return QDir(dataDirectory).filePath(QStringLiteral("agent.log"));
}

void send(QLocalSocket &socket, const QJsonObject &message)
{
    socket.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    socket.flush();
}

QJsonObject takeMessage(QLocalSocket &socket)
{
    while (socket.canReadLine()) {
        const QJsonDocument doc = QJsonDocument::fromJson(socket.readLine());
        if (doc.isObject())
            return doc.object();
    }
    return {};
}

} // namespace TrainDesk::AgentChannel

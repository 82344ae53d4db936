#include "AgentSubscription.h"

#include "AgentChannel.h"

#include <QDeadlineTimer>
#include <QJsonArray>

namespace TrainDesk {

AgentSubscription::AgentSubscription(QString dataDirectory, QObject *parent)
    : QObject(parent), m_dataDirectory(std::move(dataDirectory))
{
    connect(&m_socket, &QLocalSocket::disconnected, this, [this] {
        if (!m_subscribed)
            return;
        m_subscribed = false;
        Q_EMIT lost();
    });
}

bool AgentSubscription::isSubscribed() const
{
    return m_subscribed && m_socket.state() == QLocalSocket::ConnectedState;
}

VoidResult AgentSubscription::subscribe(int timeoutMs)
{
    if (isSubscribed())
        return {};
    // Events are read only after the answer, so that none is taken for it.
    disconnect(&m_socket, &QLocalSocket::readyRead, this, nullptr);
    m_socket.abort();
    m_subscribed = false;
    QDeadlineTimer deadline(timeoutMs);
    m_socket.connectToServer(AgentChannel::socketPath(m_dataDirectory));
    if (!m_socket.waitForConnected(int(deadline.remainingTime())))
        return fail(QStringLiteral("cannot reach the TrainDesk agent at %1: %2")
                        .arg(AgentChannel::socketPath(m_dataDirectory), m_socket.errorString()));
    AgentChannel::send(m_socket, {{"op", "subscribe"}});
    QJsonObject answer;
    while ((answer = AgentChannel::takeMessage(m_socket)).isEmpty()) {
        if (deadline.hasExpired() || !m_socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
            return fail(QStringLiteral("the TrainDesk agent did not answer a subscription within %1 s")
                            .arg(timeoutMs / 1000.0));
    }
    if (!answer.value(QStringLiteral("ok")).toBool())
        return fail(QStringLiteral("the TrainDesk agent refused a subscription: %1")
                        .arg(answer.value(QStringLiteral("error")).toString()));
    m_subscribed = true;
    connect(&m_socket, &QLocalSocket::readyRead, this, &AgentSubscription::readEvents);
    readEvents();  // what came together with the answer
    return {};
}

void AgentSubscription::readEvents()
{
    QList<qint64> changed;
    for (QJsonObject message = AgentChannel::takeMessage(m_socket); !message.isEmpty();
         message = AgentChannel::takeMessage(m_socket)) {
        if (message.value(QStringLiteral("event")).toString() != QLatin1String("changed"))
            continue;
        for (const QJsonValue id : message.value(QStringLiteral("jobs")).toArray())
            changed.append(id.toInteger());
    }
    if (!changed.isEmpty())
        Q_EMIT jobsChanged(changed);
}

} // namespace TrainDesk

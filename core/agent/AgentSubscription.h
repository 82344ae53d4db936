#pragma once

#include "common/Result.h"

#include <QList>
#include <QLocalSocket>
#include <QObject>

namespace TrainDesk {

// The agent's pushes, delivered in the owner's event loop (the GUI's worker thread): a
// connection of its own that asked to "subscribe" (see AgentChannel) and turns each
// "changed" event into jobsChanged. It never starts an agent; the owner does that first.
class AgentSubscription : public QObject
{
    Q_OBJECT

public:
    explicit AgentSubscription(QString dataDirectory, QObject *parent = nullptr);

    // Connects to the running agent and subscribes; waits for the agent's answer.
    VoidResult subscribe(int timeoutMs = 5000);
    bool isSubscribed() const;

Q_SIGNALS:
    void jobsChanged(const QList<qint64> &jobIds);
    // The agent went away (it stopped when idle, or was killed): subscribe again once a
    // new one runs.
    void lost();

private:
    void readEvents();

    QString m_dataDirectory;
    QLocalSocket m_socket;
    bool m_subscribed = false;
};

} // namespace TrainDesk

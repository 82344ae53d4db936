#pragma once

#include "common/Result.h"

#include <QJsonObject>
#include <QLocalSocket>
#include <QString>

namespace TrainDesk {

// A client's line to the agent of a data directory (see AgentChannel for the messages).
// Blocking calls with timeouts, usable without an event loop (CLI) and in a worker thread.
class AgentClient
{
public:
    explicit AgentClient(QString dataDirectory, QString agentProgram = defaultProgram());

    // $TRAINDESK_AGENT_PROGRAM when set (tests of the GUI library), else this executable:
    // `traindesk` is the app, the CLI and the agent.
    static QString defaultProgram();

    // Connects to the running agent; when none answers, starts one detached (its output
    // to agent.log in the data directory) and connects to it.
    VoidResult connectOrStart(int timeoutMs = 15000);
    // Connects only if an agent runs.
    bool connectExisting(int timeoutMs = 1000);
    bool isConnected() const { return m_socket.state() == QLocalSocket::ConnectedState; }

    // Sends a request and waits for its answer ({"ok": false, "error": ...} becomes a failure).
    Result<QJsonObject> request(const QJsonObject &message, int timeoutMs = 60000);
    // After a "subscribe" request: waits up to timeoutMs for the next pushed event.
    // Empty when none came; a failure when the agent went away.
    Result<QJsonObject> nextEvent(int timeoutMs);

    // Whether an agent runs (the lock is held), without connecting: for `agent status`.
    static bool isRunning(const QString &dataDirectory, qint64 *pid = nullptr);

private:
    Result<QJsonObject> readMessage(int timeoutMs, bool wantEvent);
    VoidResult startAgent();

    QString m_dataDirectory;
    QString m_program;
    QLocalSocket m_socket;
    QList<QJsonObject> m_pendingEvents;  // events that arrived while waiting for an answer
};

} // namespace TrainDesk

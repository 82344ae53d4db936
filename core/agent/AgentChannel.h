#pragma once

#include <QJsonObject>
#include <QString>

class QLocalSocket;

namespace TrainDesk {

// Where an agent lives and how it talks: one agent per data directory, found by files in
// that directory, speaking JSON objects one per line over an owner-only local socket.
namespace AgentChannel {

QString socketPath(const QString &dataDirectory);
QString lockPath(const QString &dataDirectory);
QString logPath(const QString &dataDirectory);

// Requests: {"op": "status" | "wake" | "subscribe" | "terminate" (with "job") | "stop"}.
// Answers: {"ok": true, ...} or {"ok": false, "error": "..."}; a subscriber then gets
// {"event": "changed", "jobs": [ids]} whenever a job's state or metrics moved.
void send(QLocalSocket &socket, const QJsonObject &message);
// The next complete line on the socket as an object, or an empty object when none is
// buffered yet (call again after readyRead).
QJsonObject takeMessage(QLocalSocket &socket);

} // namespace AgentChannel
} // namespace TrainDesk

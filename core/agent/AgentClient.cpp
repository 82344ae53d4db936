#include "AgentClient.h"

#include "AgentChannel.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QLockFile>
#include <QProcess>
#include <QThread>

namespace TrainDesk {

AgentClient::AgentClient(QString dataDirectory, QString agentProgram)
    : m_dataDirectory(std::move(dataDirectory)), m_program(std::move(agentProgram))
{
}

QString AgentClient::defaultProgram()
{
    const QString program = qEnvironmentVariable("TRAINDESK_AGENT_PROGRAM");
    return program.isEmpty() ? QCoreApplication::applicationFilePath() : program;
}

bool AgentClient::connectExisting(int timeoutMs)
{
    if (isConnected())
        return true;
    m_socket.abort();
    m_socket.connectToServer(AgentChannel::socketPath(m_dataDirectory));
    return m_socket.waitForConnected(timeoutMs);
}

VoidResult AgentClient::connectOrStart(int timeoutMs)
{
    if (connectExisting(1000))
        return {};
    bool started = false;
    if (!isRunning(m_dataDirectory)) {
        if (auto start = startAgent(); !start)
            return start;
        started = true;
    }
    // Several clients may start agents at once: the lock lets one of them stay, and all
    // clients connect to that one when its socket appears.
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (connectExisting(200))
            return {};
        // An agent that was stopping when we looked (it holds its lock until its database is
        // closed) has gone meanwhile: start the next one.
        if (!started && !isRunning(m_dataDirectory)) {
            if (auto start = startAgent(); !start)
                return start;
            started = true;
        }
        QThread::msleep(50);
    }
    return fail(QStringLiteral("the TrainDesk agent did not answer within %1 s (see %2)")
                    .arg(timeoutMs / 1000)
                    .arg(AgentChannel::logPath(m_dataDirectory)));
}

VoidResult AgentClient::startAgent()
{
    QDir().mkpath(m_dataDirectory);
    QProcess process;
    process.setProgram(m_program);
    process.setArguments({QStringLiteral("agent"), QStringLiteral("--foreground")});
    // Its own session (startDetached), nothing inherited: a client's terminal or a test's
    // output pipe must not wait for an agent that lives on.
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(AgentChannel::logPath(m_dataDirectory), QIODevice::Append);
    process.setStandardErrorFile(AgentChannel::logPath(m_dataDirectory), QIODevice::Append);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TRAINDESK_HOME"), m_dataDirectory);
    process.setProcessEnvironment(environment);
    if (!process.startDetached())
        return fail(QStringLiteral("cannot start the TrainDesk agent (%1 agent): %2").arg(m_program, process.errorString()));
    return {};
}

bool AgentClient::isRunning(const QString &dataDirectory, qint64 *pid)
{
    QLockFile lock(AgentChannel::lockPath(dataDirectory));
    lock.setStaleLockTime(0);
    if (lock.tryLock(0)) {
        lock.unlock();
        return false;
    }
    if (pid) {
        QString host, app;
        lock.getLockInfo(pid, &host, &app);
    }
    return true;
}

Result<QJsonObject> AgentClient::request(const QJsonObject &message, int timeoutMs)
{
    if (!isConnected())
        return fail(QStringLiteral("not connected to the TrainDesk agent"));
    AgentChannel::send(m_socket, message);
    auto answer = readMessage(timeoutMs, false);
    if (!answer)
        return answer;
    if (!answer->value(QStringLiteral("ok")).toBool())
        return fail(answer->value(QStringLiteral("error")).toString());
    return answer;
}

Result<QJsonObject> AgentClient::nextEvent(int timeoutMs)
{
    if (!m_pendingEvents.isEmpty())
        return m_pendingEvents.takeFirst();
    return readMessage(timeoutMs, true);
}

Result<QJsonObject> AgentClient::readMessage(int timeoutMs, bool wantEvent)
{
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        for (QJsonObject m = AgentChannel::takeMessage(m_socket); !m.isEmpty(); m = AgentChannel::takeMessage(m_socket)) {
            const bool isEvent = m.contains(QStringLiteral("event"));
            if (isEvent == wantEvent)
                return m;
            if (isEvent)
                m_pendingEvents.append(m);
        }
        if (m_socket.state() != QLocalSocket::ConnectedState)
            return fail(QStringLiteral("the TrainDesk agent closed the connection"));
        if (deadline.hasExpired()) {
            if (wantEvent)
                return QJsonObject{};
            return fail(QStringLiteral("the TrainDesk agent did not answer within %1 s").arg(timeoutMs / 1000));
        }
        m_socket.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime())));
    }
}

} // namespace TrainDesk

// agent, agent status, agent stop: the control plane that starts and watches jobs.
#include "Command.h"

#include "agent/Agent.h"
#include "agent/AgentChannel.h"
#include "agent/AgentClient.h"
#include "common/DataPaths.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

int idleExitSeconds()
{
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("TRAINDESK_AGENT_IDLE_SECONDS", &ok);
    return ok && seconds > 0 ? seconds : 60;
}

int runInForeground(Context &c)
{
    AgentOptions options;
    options.dataDirectory = DataPaths::dataDirectory();
    options.service = c.args.isSet(QStringLiteral("service"));
    options.idleExitSeconds = idleExitSeconds();
    Agent agent(options);
    if (auto started = agent.start(); !started)
        return c.error(started.error());
    QObject::connect(&agent, &Agent::finished, qApp, &QCoreApplication::quit, Qt::QueuedConnection);
    return QCoreApplication::exec();
}

QString statusText(const QJsonObject &s)
{
    return QStringLiteral("The agent runs (pid %1) since %2%3 for %4.\n%5; last look at the jobs %6; %7 client(s) "
                          "connected.\n")
        .arg(s.value(QStringLiteral("pid")).toInteger())
        .arg(s.value(QStringLiteral("since")).toString(),
             s.value(QStringLiteral("service")).toBool() ? QStringLiteral(" as a service") : QString(),
             s.value(QStringLiteral("dataDirectory")).toString(), s.value(QStringLiteral("activity")).toString(),
             s.value(QStringLiteral("lastTick")).toString())
        .arg(s.value(QStringLiteral("clients")).toInt());
}

} // namespace

VoidResult wakeAgent()
{
    AgentClient client(DataPaths::dataDirectory());
    if (auto connected = client.connectOrStart(); !connected)
        return connected;
    if (auto woken = client.request({{"op", "wake"}}); !woken)
        return woken.failure();
    return {};
}

VoidResult ensureAgentRuns()
{
    // A connection is enough: only a listening agent accepts it (a dead one's socket refuses).
    return AgentClient(DataPaths::dataDirectory()).connectOrStart();
}

namespace {

int runAgent(Context &c)
{
    if (c.args.isSet(QStringLiteral("foreground")))
        return runInForeground(c);
    AgentClient client(DataPaths::dataDirectory());
    if (auto connected = client.connectOrStart(); !connected)
        return c.error(connected.error());
    const auto status = client.request({{"op", "status"}});
    if (!status)
        return c.error(status.error());
    return c.print(*status, statusText(*status));
}

int runAgentStatus(Context &c)
{
    const QString dataDirectory = DataPaths::dataDirectory();
    AgentClient client(dataDirectory);
    if (!client.connectExisting()) {
        const QJsonObject none{{"running", false}, {"dataDirectory", dataDirectory}};
        return c.print(none, QStringLiteral("No agent runs for %1; any job command starts one.\n").arg(dataDirectory));
    }
    auto status = client.request({{"op", "status"}});
    if (!status)
        return c.error(status.error());
    status->insert(QStringLiteral("running"), true);
    status->remove(QStringLiteral("ok"));
    return c.print(*status, statusText(*status));
}

int runAgentStop(Context &c)
{
    AgentClient client(DataPaths::dataDirectory());
    if (!client.connectExisting())
        return c.print(QJsonObject{{"stopped", false}}, QStringLiteral("No agent runs.\n"));
    if (auto stopped = client.request({{"op", "stop"}}); !stopped)
        return c.error(stopped.error());
    // Returns when it has gone (its database closed), so scripts can go on safely.
    QDeadlineTimer deadline(15000);
    while (AgentClient::isRunning(DataPaths::dataDirectory()) && !deadline.hasExpired())
        QThread::msleep(50);
    if (AgentClient::isRunning(DataPaths::dataDirectory()))
        return c.error(QStringLiteral("the agent was asked to stop but still runs after 15 s"));
    return c.print(QJsonObject{{"stopped", true}}, QStringLiteral("The agent stopped.\n"));
}

} // namespace

QList<Command> agentCommands()
{
    QList<Command> commands;
    const QCommandLineOption foreground(QStringLiteral("foreground"),
                                        QStringLiteral("Run the agent in this process (its log on stderr)."));
    const QCommandLineOption service(QStringLiteral("service"),
                                     QStringLiteral("With --foreground: never exit for lack of work (systemd unit)."));
    commands.append({{"agent"}, "Start the agent that schedules and watches jobs (clients start it on demand).",
                     {foreground, service}, runAgent});
    commands.append({{"agent", "status"}, "Say whether the agent runs, since when, and what it is doing.", {},
                     runAgentStatus});
    commands.append({{"agent", "stop"}, "Stop the agent (running jobs go on; the next client starts it again).", {},
                     runAgentStop});
    return commands;
}

} // namespace TrainDesk::Cli

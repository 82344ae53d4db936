#include "Command.h"

#include "TerminalText.h"

#include "JsonQuery.h"

#include "common/CappedRead.h"
#include "jobspec/JobSpec.h"
#include "store/Store.h"

#include <csignal>

namespace TrainDesk::Cli {

QString Context::workspaceName() const
{
    const QString ws = args.value(QStringLiteral("workspace"));
    return ws.isEmpty() ? QStringLiteral("default") : ws;
}

Result<QString> Context::required(const QString &option) const
{
    const QString value = args.value(option);
    if (value.isEmpty())
        return fail(QStringLiteral("missing required option --%1").arg(option));
    return value;
}

Result<Workspace> Context::workspace() const { return store.workspace(workspaceName()); }

Result<Experiment> Context::experiment() const
{
    const auto ws = workspace();
    if (!ws)
        return ws.failure();
    const auto name = required(QStringLiteral("experiment"));
    if (!name)
        return name.failure();
    return store.experiment(ws->id, *name);
}

Result<NamedInExperiment> Context::namedInExperiment(const QString &option) const
{
    const auto ws = workspace();
    if (!ws)
        return ws.failure();
    const auto exp = experiment();
    if (!exp)
        return exp.failure();
    const auto name = required(option);
    if (!name)
        return name.failure();
    return NamedInExperiment{*ws, *exp, *name};
}

int Context::print(const QJsonValue &json, const Table &table)
{
    return print(json, table.render());
}

int Context::print(const QJsonValue &json, const QString &text)
{
    // Only commands with --query define it: ask the parsed names, not isSet().
    if (args.optionNames().contains(QStringLiteral("query"))) {
        const auto part = queryJson(json, args.value(QStringLiteral("query")));
        if (!part)
            return error(part.error());
        // -o table asked for by name: the part as a table, as `az ... --query ... -o table` prints it.
        if (args.isSet(QStringLiteral("output")) && !this->json())
            out << tableOf(*part).render();
        else
            out << (part->isString() && !this->json() ? part->toString() + QLatin1Char('\n') : toJsonText(*part));
        out.flush();
        return 0;
    }
    // JSON escapes control characters itself; text for a terminal gets them made visible
    // (names and values may come from files and nodes others write).
    if (this->json())
        out << toJsonText(json);
    else
        out << (TerminalText::isTerminal(stdout) ? TerminalText::sanitized(text) : text);
    out.flush();
    return 0;
}

int Context::error(const QString &message)
{
    err << "error: " << message << '\n';
    err.flush();
    return 1;
}

namespace {

CancelFlag *interruptFlag = nullptr;
extern "C" void onInterrupt(int)
{
    if (interruptFlag)
        interruptFlag->cancel();
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

CancelOnInterrupt::CancelOnInterrupt(CancelFlag &flag)
{
    interruptFlag = &flag;
    m_previous = std::signal(SIGINT, onInterrupt);
}

CancelOnInterrupt::~CancelOnInterrupt()
{
    std::signal(SIGINT, m_previous);
    interruptFlag = nullptr;
}

QCommandLineOption workspaceOption()
{
    return {{QStringLiteral("w"), QStringLiteral("workspace")}, QStringLiteral("Workspace (default: default)."),
            QStringLiteral("WS")};
}

QCommandLineOption experimentOption()
{
    return {{QStringLiteral("e"), QStringLiteral("experiment")}, QStringLiteral("Experiment."), QStringLiteral("EXP")};
}

QCommandLineOption option(const QStringList &names, const QString &description, const QString &value)
{
    return value.isEmpty() ? QCommandLineOption(names, description) : QCommandLineOption(names, description, value);
}

QCommandLineOption nameOption(const QString &what)
{
    return {{QStringLiteral("n"), QStringLiteral("name")}, QStringLiteral("Name of the %1.").arg(what),
            QStringLiteral("NAME")};
}

QCommandLineOption nameOption(const QString &what, const QString &letter, const QString &longName)
{
    return {{QStringLiteral("n"), QStringLiteral("name"), letter, longName},
            QStringLiteral("Name of the %1 (-n or -%2).").arg(what, letter), QStringLiteral("NAME")};
}

QCommandLineOption queryOption()
{
    return {QStringLiteral("query"),
            QStringLiteral("Print only this part of the JSON view: fields joined by dots, [N] for an element, [*] or [] "
                           "for each element, .{key:path, ...} to pick fields (e.g. nodeStateCounts.idleNodeCount, "
                           "nodes[*].state, \"[].{name:name, state:executionState}\")."),
            QStringLiteral("PATH")};
}

QCommandLineOption clusterOption()
{
    return {{QStringLiteral("c"), QStringLiteral("cluster")}, QStringLiteral("Cluster."), QStringLiteral("CLUSTER")};
}

QCommandLineOption fileOption(const QString &description)
{
    return {{QStringLiteral("f"), QStringLiteral("file")}, description, QStringLiteral("FILE")};
}

Result<QByteArray> readSpecFile(Context &c)
{
    const auto path = c.required(QStringLiteral("file"));
    if (!path)
        return path.failure();
    // A cap, so that /dev/zero or a huge file is refused instead of filling the memory.
    return readCapped(*path, maxJobSpecBytes);
}

} // namespace TrainDesk::Cli

// workspace create|show|delete|list and experiment create|show|delete|list.
#include "Command.h"
#include "JsonViews.h"

#include "store/Store.h"

#include <QJsonArray>

namespace TrainDesk::Cli {

namespace {

Table workspaceTable(const QList<Workspace> &list)
{
    Table t{{QStringLiteral("Name"), QStringLiteral("Created")}, {}};
    for (const Workspace &ws : list)
        t.rows.append({ws.name, ws.created.toString(Qt::ISODate)});
    return t;
}

Table experimentTable(const QList<Experiment> &list)
{
    Table t{{QStringLiteral("Name"), QStringLiteral("Created")}, {}};
    for (const Experiment &e : list)
        t.rows.append({e.name, e.created.toString(Qt::ISODate)});
    return t;
}

QCommandLineOption workspaceNameOption()
{
    return nameOption(QStringLiteral("workspace"), QStringLiteral("w"), QStringLiteral("workspace"));
}

QCommandLineOption experimentNameOption()
{
    return nameOption(QStringLiteral("experiment"), QStringLiteral("e"), QStringLiteral("experiment"));
}

// The workspace named by -n or -w (one option in workspace commands).
Result<QString> workspaceNameArg(Context &c) { return c.required(QStringLiteral("name")); }

} // namespace

namespace {

int runWorkspaceCreate(Context &c)
{
    const auto name = workspaceNameArg(c);
    if (!name)
        return c.error(name.error());
    const auto ws = c.store.createWorkspace(*name);
    if (!ws)
        return c.error(ws.error());
    return c.print(toJson(*ws), workspaceTable({*ws}));
}

int runWorkspaceShow(Context &c)
{
    const auto name = workspaceNameArg(c);
    if (!name)
        return c.error(name.error());
    const auto ws = c.store.workspace(*name);
    if (!ws)
        return c.error(ws.error());
    return c.print(toJson(*ws), workspaceTable({*ws}));
}

int runWorkspaceDelete(Context &c)
{
    const auto name = workspaceNameArg(c);
    if (!name)
        return c.error(name.error());
    if (auto deleted = c.store.deleteWorkspace(*name); !deleted)
        return c.error(deleted.error());
    return 0;
}

int runWorkspaceList(Context &c)
{
    const QList<Workspace> list = c.store.workspaces();
    QJsonArray array;
    for (const Workspace &ws : list)
        array.append(toJson(ws));
    return c.print(array, workspaceTable(list));
}

// `experiment create` and `experiment show` differ only in the store call that gives the row.
int printExperiment(Context &c, const std::function<Result<Experiment>(qint64 workspaceId, const QString &name)> &row)
{
    const auto ws = c.workspace();
    if (!ws)
        return c.error(ws.error());
    const auto name = c.required("name");
    if (!name)
        return c.error(name.error());
    const auto exp = row(ws->id, *name);
    if (!exp)
        return c.error(exp.error());
    return c.print(toJson(*exp, ws->name), experimentTable({*exp}));
}

int runExperimentCreate(Context &c)
{
    return printExperiment(c, [&c](qint64 ws, const QString &name) { return c.store.createExperiment(ws, name); });
}

int runExperimentShow(Context &c)
{
    return printExperiment(c, [&c](qint64 ws, const QString &name) { return c.store.experiment(ws, name); });
}

int runExperimentList(Context &c)
{
    const auto ws = c.workspace();
    if (!ws)
        return c.error(ws.error());
    const QList<Experiment> list = c.store.experiments(ws->id);
    QJsonArray array;
    for (const Experiment &e : list)
        array.append(toJson(e, ws->name));
    return c.print(array, experimentTable(list));
}

} // namespace

QList<Command> workspaceCommands()
{
    QList<Command> commands;
    commands.append({{"workspace", "create"}, "Create a workspace.", {workspaceNameOption()}, runWorkspaceCreate});
    commands.append({{"workspace", "show"}, "Show a workspace.", {workspaceNameOption(), queryOption()}, runWorkspaceShow});
    commands.append({{"workspace", "delete"}, "Delete a workspace and everything in it.", {workspaceNameOption()},
                     runWorkspaceDelete});
    commands.append({{"workspace", "list"}, "List workspaces.", {queryOption()}, runWorkspaceList});

    commands.append({{"experiment", "create"}, "Create an experiment.", {workspaceOption(), experimentNameOption()},
                     runExperimentCreate});
    commands.append({{"experiment", "show"}, "Show an experiment.", {workspaceOption(), experimentNameOption(), queryOption()},
                     runExperimentShow});
    commands.append({{"experiment", "list"}, "List the experiments of a workspace.", {workspaceOption(), queryOption()}, runExperimentList});
    return commands;
}

} // namespace TrainDesk::Cli

// cluster list|show and cluster node list.
#include "Command.h"
#include "JsonViews.h"

#include "store/Store.h"

#include <QJsonArray>

namespace TrainDesk::Cli {

namespace {

// The tutorial's summary row: Name, State, Idle, Running, Preparing, Leaving, Unusable.
Table clusterTable(const QList<QPair<Cluster, QList<Node>>> &clusters)
{
    Table t{{"Name", "State", "Idle", "Running", "Preparing", "Leaving", "Unusable"}, {}};
    for (const auto &[cluster, nodes] : clusters) {
        const NodeCounts n = countNodes(nodes);
        t.rows.append({cluster.name, clusterState(cluster, nodes), QString::number(n.idle), QString::number(n.running),
                       QString::number(n.preparing), QString::number(n.leaving), QString::number(n.unusable)});
    }
    return t;
}

} // namespace

QList<Command> clusterCommands()
{
    QList<Command> commands;
    commands.append({{"cluster", "list"}, "List the clusters of a workspace.", {workspaceOption()}, [](Context &c) {
        const auto ws = c.workspace();
        if (!ws)
            return c.error(ws.error());
        QList<QPair<Cluster, QList<Node>>> rows;
        QJsonArray array;
        for (const Cluster &cl : c.store.clusters(ws->id)) {
            const QList<Node> nodes = c.store.nodes(cl.id);
            rows.append({cl, nodes});
            array.append(toJson(cl, nodes, ws->name));
        }
        return c.print(array, clusterTable(rows));
    }});
    commands.append({{"cluster", "show"}, "Show a cluster's node counts.", {workspaceOption(), nameOption("cluster")},
                     [](Context &c) {
        const auto ws = c.workspace();
        if (!ws)
            return c.error(ws.error());
        const auto name = c.required("name");
        if (!name)
            return c.error(name.error());
        const auto cl = c.store.cluster(ws->id, *name);
        if (!cl)
            return c.error(cl.error());
        const QList<Node> nodes = c.store.nodes(cl->id);
        return c.print(toJson(*cl, nodes, ws->name), clusterTable({{*cl, nodes}}));
    }});
    commands.append({{"cluster", "node", "list"}, "List a cluster's nodes.", {workspaceOption(), clusterOption()},
                     [](Context &c) {
        const auto ws = c.workspace();
        if (!ws)
            return c.error(ws.error());
        const auto name = c.required("cluster");
        if (!name)
            return c.error(name.error());
        const auto cl = c.store.cluster(ws->id, *name);
        if (!cl)
            return c.error(cl.error());
        Table t{{"Name", "Host", "Port", "Slots", "State", "Reason"}, {}};
        QJsonArray array;
        for (const Node &n : c.store.nodes(cl->id)) {
            t.rows.append({n.name, n.host, QString::number(n.port), QString::number(n.slotCount), toString(n.state),
                           n.stateReason});
            array.append(toJson(n));
        }
        return c.print(array, t);
    }});
    return commands;
}

} // namespace TrainDesk::Cli

// cluster create|show|list|resize|setup|delete|probe and cluster node list|exec|setup-logs.
#include "ClusterBurnIn.h"
#include "Command.h"
#include "JsonViews.h"

#include "cluster/ClusterService.h"
#include "cluster/NodeProbe.h"
#include "cluster/TransportFactory.h"
#include "store/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

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

QCommandLineOption clusterNameOption()
{
    return nameOption(QStringLiteral("cluster"), QStringLiteral("c"), QStringLiteral("cluster"));
}

// Progress goes to stderr, so that stdout holds only the result (-o json stays parseable).
ClusterEvents printingEvents(Context &c)
{
    ClusterEvents events;
    events.message = [&c](const QString &line) {
        c.err << line << '\n';
        c.err.flush();
    };
    events.check = [&c](const ProbeCheck &check) {
        if (c.json())
            return;
        c.out << check.toText() << '\n';
        c.out.flush();
    };
    return events;
}

Result<Cluster> clusterArgument(Context &c, const QString &option)
{
    const auto ws = c.workspace();
    if (!ws)
        return ws.failure();
    const auto name = c.required(option);
    if (!name)
        return name.failure();
    return c.store.cluster(ws->id, *name);
}

QString gpuSummary(const Node &n)
{
    const NodeFacts facts = NodeFacts::fromJson(QJsonDocument::fromJson(n.facts.toUtf8()).object());
    return QString::number(facts.gpus.size());
}

QJsonObject setupRunJson(const SetupLog &log)
{
    return QJsonObject{{"node", log.node}, {"started", log.started.toString(Qt::ISODateWithMs)},
                       {"ended", log.ended.toString(Qt::ISODateWithMs)},
                       {"exitCode", log.exitCode ? QJsonValue(*log.exitCode) : QJsonValue()},
                       {"error", log.error}, {"stdout", log.stdOutPath}, {"stderr", log.stdErrPath}};
}

int createCluster(Context &c)
{
    CreateClusterRequest r;
    r.workspace = c.workspaceName();
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    r.name = *name;
    r.local = c.args.isSet(QStringLiteral("local"));
    const QString nodes = c.args.value(QStringLiteral("nodes"));
    const QString slurmLogin = c.args.value(QStringLiteral("slurm"));
    if (int(r.local) + int(!nodes.isEmpty()) + int(!slurmLogin.isEmpty()) != 1)
        return c.error(QStringLiteral("give one of --local, --nodes user@host[:port],... or --slurm local|user@host[:port]"));
    if (!slurmLogin.isEmpty()) {
        SlurmSettings s;
        s.login = slurmLogin;
        s.partition = c.args.value(QStringLiteral("partition"));
        s.account = c.args.value(QStringLiteral("account"));
        s.qos = c.args.value(QStringLiteral("qos"));
        bool ok = true;
        const QString gpus = c.args.value(QStringLiteral("gpus-per-node"));
        s.gpusPerNode = gpus.isEmpty() ? 0 : gpus.toInt(&ok);
        if (!ok || s.gpusPerNode < 0)
            return c.error(QStringLiteral("--gpus-per-node: expected a whole number >= 0, found '%1'").arg(gpus));
        r.slurm = s;
    } else {
        for (const char *option : {"partition", "account", "qos", "gpus-per-node"}) {
            if (c.args.isSet(QString::fromLatin1(option)))
                return c.error(QStringLiteral("--%1 is for Slurm clusters (with --slurm)").arg(QString::fromLatin1(option)));
        }
    }
    r.nodes = nodes.split(QLatin1Char(','), Qt::SkipEmptyParts);
    r.headNode = c.args.value(QStringLiteral("head-node"));
    r.keyFile = c.args.value(QStringLiteral("ssh-key"));
    r.keyPassphrase = c.args.value(QStringLiteral("key-passphrase"));
    if (r.keyPassphrase.isEmpty())
        r.keyPassphrase = qEnvironmentVariable("TRAINDESK_SSH_KEY_PASSPHRASE");
    // The environment keeps a password out of the process list.
    r.password = c.args.value(QStringLiteral("password"));
    if (r.password.isEmpty())
        r.password = qEnvironmentVariable("TRAINDESK_SSH_PASSWORD");
    r.generateSshKeys = c.args.isSet(QStringLiteral("generate-ssh-keys"));
    r.acceptNewHostKeys = c.args.isSet(QStringLiteral("accept-new-host-keys"));
    r.setupTask = c.args.value(QStringLiteral("setup-task"));
    if (const QString grace = c.args.value(QStringLiteral("node-lost-grace")); !grace.isEmpty()) {
        bool ok = false;
        r.nodeLostGraceSeconds = grace.toInt(&ok);
        if (!ok || r.nodeLostGraceSeconds < 1)
            return c.error(QStringLiteral("--node-lost-grace: expected whole seconds >= 1, found '%1'").arg(grace));
    }
    r.mountRoot = c.args.value(QStringLiteral("mount-root"));
    if (!r.mountRoot.isEmpty() && !r.mountRoot.startsWith(QLatin1Char('/')))
        return c.error(QStringLiteral("--mount-root: expected an absolute path, found '%1'").arg(r.mountRoot));
    const bool onThisMachine = r.local || (r.slurm && r.slurm->loginIsLocal());
    if (onThisMachine && (!r.keyFile.isEmpty() || r.generateSshKeys || !r.password.isEmpty()))
        return c.error(QStringLiteral("a cluster on this machine (--local, --slurm local) takes no SSH credentials"));
    const auto cluster = ClusterService(c.store).create(r, printingEvents(c));
    if (!cluster)
        return c.error(cluster.error());
    const QList<Node> created = c.store.nodes(cluster->id);
    return c.print(toJson(*cluster, created, r.workspace), clusterTable({{*cluster, created}}));
}

int runSetup(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    if (c.args.isSet(QStringLiteral("install-missing"))) {
        ClusterEvents events;
        events.message = [&c](const QString &line) { c.err << line << '\n'; };
        if (const QStringList failed = ClusterService(c.store).installMissingPackages(c.workspaceName(), *name, events);
            !failed.isEmpty())
            return c.error(failed.join(QStringLiteral("; ")));
        // Without a setup task, the packages were the whole job.
        if (const auto ws = c.workspace(); ws) {
            if (const auto cluster = c.store.cluster(ws->id, *name); cluster && cluster->setupTask.isEmpty())
                return 0;
        }
    }
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    const auto runs = ClusterService(c.store).runSetup(c.workspaceName(), *name, c.args.values(QStringLiteral("node")),
                                                       printingEvents(c), &cancel);
    if (!runs)
        return c.error(runs.error());
    Table t{{"Node", "Exit code", "Stdout", "Stderr", "Error"}, {}};
    QJsonArray array;
    for (const SetupLog &run : *runs) {
        t.rows.append({run.node, run.exitCode ? QString::number(*run.exitCode) : QStringLiteral("-"), run.stdOutPath,
                       run.stdErrPath, run.error});
        array.append(setupRunJson(run));
    }
    c.print(array, t);
    if (const QString failed = SetupTask::failureSummary(*runs); !failed.isEmpty())
        return c.error(failed);
    return 0;
}

} // namespace

namespace {

int runClusterList(Context &c)
{
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
}

int runClusterShow(Context &c)
{
    const auto cl = clusterArgument(c, QStringLiteral("name"));
    if (!cl)
        return c.error(cl.error());
    // The states as stored are shown all the same, after a warning.
    if (auto refreshed = ClusterService(c.store).refresh(cl->id); !refreshed)
        c.err << "warning: cannot refresh the node states: " << refreshed.error() << '\n';
    const auto fresh = c.store.clusterById(cl->id);
    const QList<Node> nodes = c.store.nodes(cl->id);
    return c.print(toJson(*fresh, nodes, c.workspaceName()), clusterTable({{*fresh, nodes}}));
}

int runClusterResize(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    bool ok = false;
    const int target = c.args.value(QStringLiteral("target")).toInt(&ok);
    if (!ok)
        return c.error(QStringLiteral("--target: expected a node count, found '%1'").arg(c.args.value("target")));
    const auto cl = ClusterService(c.store).resize(c.workspaceName(), *name, target, printingEvents(c));
    if (!cl)
        return c.error(cl.error());
    const QList<Node> nodes = c.store.nodes(cl->id);
    return c.print(toJson(*cl, nodes, c.workspaceName()), clusterTable({{*cl, nodes}}));
}

int runClusterDelete(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    const bool keepKeys = c.args.isSet(QStringLiteral("keep-keys"));
    const auto removed = ClusterService(c.store).remove(c.workspaceName(), *name, keepKeys);
    if (!removed)
        return c.error(removed.error());
    QString text = QStringLiteral("Deleted cluster '%1'\n").arg(*name);
    for (const QString &line : removed->removed)
        text += QStringLiteral("  %1\n").arg(line);
    // What stays on a node needs the user: said on stderr, as a warning.
    for (const QString &line : removed->leftBehind)
        c.err << "warning: " << line << '\n';
    if (keepKeys)
        text += QStringLiteral("  kept the cluster's key on the nodes (--keep-keys)\n");
    return c.print(QJsonObject{{"name", *name}, {"deleted", true},
                               {"removed", QJsonArray::fromStringList(removed->removed)},
                               {"leftBehind", QJsonArray::fromStringList(removed->leftBehind)}},
                   text);
}

int runClusterProbe(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    const auto results = ClusterService(c.store).probe(c.workspaceName(), *name, printingEvents(c));
    if (!results)
        return c.error(results.error());
    int failed = 0;
    QJsonArray array;
    for (const NodeProbeResult &r : *results) {
        for (const ProbeCheck &check : r.checks) {
            failed += check.passed ? 0 : 1;
            array.append(QJsonObject{{"node", check.node}, {"check", check.id}, {"title", check.title},
                                     {"passed", check.passed}, {"detail", check.detail}, {"hint", check.hint}});
        }
    }
    QJsonArray burnIn;
    if (c.args.isSet(QStringLiteral("burn-in"))) {
        const auto cluster = c.store.cluster(c.workspace()->id, *name);
        const auto failedNodes = cluster ? burnInCluster(c, *cluster, burnIn) : Result<int>(cluster.failure());
        if (!failedNodes)
            return c.error(failedNodes.error());
        if (*failedNodes > 0)
            failed += *failedNodes;
    }
    if (c.json())
        c.print(c.args.isSet(QStringLiteral("burn-in")) ? QJsonValue(QJsonObject{{"checks", array}, {"burnIn", burnIn}})
                                                        : QJsonValue(array),
                QString());
    if (failed > 0)
        return c.error(QStringLiteral("%1 check%2 failed").arg(failed).arg(failed == 1 ? "" : "s"));
    return 0;
}

int runClusterNodeList(Context &c)
{
    const auto cl = clusterArgument(c, QStringLiteral("cluster"));
    if (!cl)
        return c.error(cl.error());
    // The states as stored are shown all the same, after a warning.
    if (auto refreshed = ClusterService(c.store).refresh(cl->id); !refreshed)
        c.err << "warning: cannot refresh the node states: " << refreshed.error() << '\n';
    Table t{{"Name", "Host", "Port", "Slots", "GPUs", "State", "Last seen", "Reason"}, {}};
    QJsonArray array;
    for (const Node &n : c.store.nodes(cl->id)) {
        t.rows.append({n.name, n.host, QString::number(n.port), QString::number(n.slotCount), gpuSummary(n),
                       toString(n.state), n.lastSeen.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                       n.stateReason});
        array.append(toJson(n));
    }
    return c.print(array, t);
}

int runClusterNodeExec(Context &c)
{
    for (const QString &required : {QStringLiteral("cluster"), QStringLiteral("name"), QStringLiteral("exec")}) {
        if (auto value = c.required(required); !value)
            return c.error(value.error());
    }
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    ExecHandlers handlers;
    handlers.onStdOut = [](const QByteArray &data) {
        fwrite(data.constData(), 1, size_t(data.size()), stdout);
        fflush(stdout);
    };
    handlers.onStdErr = [](const QByteArray &data) {
        fwrite(data.constData(), 1, size_t(data.size()), stderr);
        fflush(stderr);
    };
    c.out.flush();
    const auto status = ClusterService(c.store).exec(c.workspaceName(), c.args.value("cluster"), c.args.value("name"),
                                                    c.args.value("exec"), handlers, &cancel);
    if (!status)
        return c.error(status.error());
    return *status;
}

int runClusterNodeSetupLogs(Context &c)
{
    const auto cluster = c.required(QStringLiteral("cluster"));
    if (!cluster)
        return c.error(cluster.error());
    const auto logs = ClusterService(c.store).setupLogs(c.workspaceName(), *cluster, c.args.value("name"));
    if (!logs)
        return c.error(logs.error());
    Table t{{"Node", "Started", "Exit code", "Stdout", "Stderr"}, {}};
    QJsonArray array;
    for (const SetupLog &log : *logs) {
        const QString exit = log.exitCode ? QString::number(*log.exitCode) : log.error;
        t.rows.append({log.node, log.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), exit,
                       log.stdOutPath, log.stdErrPath});
        array.append(setupRunJson(log));
    }
    return c.print(array, t);
}

} // namespace

QList<Command> clusterCommands()
{
    QList<Command> commands;
    commands.append({{"cluster", "create"}, "Create a cluster of SSH nodes, a Slurm cluster, or one of this machine.",
                     {workspaceOption(), clusterNameOption(),
                      option({"local"}, "The cluster is this machine (no SSH)."),
                      option({"slurm"}, "A Slurm cluster reached through its login node: 'local' (TrainDesk runs on it) "
                                        "or user@host[:port] (over SSH, with the credentials below). Slurm queues and "
                                        "runs the jobs.", "LOGIN"),
                      option({"partition"}, "Slurm: the partition jobs go to (default: Slurm's default).", "PARTITION"),
                      option({"account"}, "Slurm: the account jobs are charged to.", "ACCOUNT"),
                      option({"qos"}, "Slurm: the quality of service of the jobs.", "QOS"),
                      option({"gpus-per-node"}, "Slurm: GPUs to ask for on every node (--gres=gpu:N).", "N"),
                      option({"nodes"}, "The nodes, comma-separated: [NAME=]user@host[:port]. The first is the head node "
                                        "unless --head-node says otherwise.", "NODES"),
                      option({"head-node"}, "The head node (rank 0): a node's name or address.", "NODE"),
                      option({"k", "ssh-key"}, "Private key file to log in with.", "KEYFILE"),
                      option({"key-passphrase"}, "Passphrase of the key (or $TRAINDESK_SSH_KEY_PASSPHRASE).", "PASSPHRASE"),
                      option({"p", "password"}, "Password to log in with (or $TRAINDESK_SSH_PASSWORD, which keeps it out "
                                                "of the process list).", "PASSWORD"),
                      option({"generate-ssh-keys"}, "Make TrainDesk's ed25519 key (in the data directory) and add it to "
                                                    "~/.ssh/authorized_keys on every node, as ssh-copy-id does; the key "
                                                    "alone logs in after that."),
                      option({"accept-new-host-keys"}, "Trust host keys TrainDesk has not seen before (their fingerprints "
                                                       "are printed). A changed key is always refused."),
                      option({"setup-task"}, "Command run on every node when it joins the cluster.", "CMD"),
                      option({"node-lost-grace"}, "Seconds a node of a running job may be out of reach before the job "
                                                  "fails with NodeUnreachable (default 120).", "SECONDS"),
                      option({"mount-root"}, "Where shares appear on the nodes ($AZ_BATCHAI_MOUNT_ROOT).", "DIR")},
                     createCluster});
    commands.append({{"cluster", "list"}, "List the clusters of a workspace.", {workspaceOption(), queryOption()}, runClusterList});
    commands.append({{"cluster", "show"}, "Show a cluster's node counts (after asking the nodes how they are).",
                     {workspaceOption(), clusterNameOption(), queryOption()}, runClusterShow});
    commands.append({{"cluster", "resize"}, "Set the number of nodes in service; nodes above it drain and leave, 0 "
                                            "parks the cluster.",
                     {workspaceOption(), clusterNameOption(),
                      option({"t", "target"}, "Target node count.", "N")}, runClusterResize});
    commands.append({{"cluster", "setup"}, "Run the setup task again (after its script changed, say) on every node or "
                                           "the --node ones; nodes running a job are refused.",
                     {workspaceOption(), clusterNameOption(),
                      option({"node"}, "Run it on this node only (repeat for more).", "NODE"),
                      option({"install-missing"}, "First install the Debian/Ubuntu packages of the shared libraries the "
                                                  "trainer lacks on each node (as 'cluster probe' names them), with "
                                                  "apt-get where the node's user may use sudo without a password.")},
                     runSetup});
    commands.append({{"cluster", "delete"}, "Delete a cluster (refused while it has queued or running jobs) and take "
                                            "back the key its nodes use to reach each other: its line in every node's "
                                            "~/.ssh/authorized_keys, its key files on the head node and here. Nodes "
                                            "that cannot be reached are named; the cluster is deleted all the same.",
                     {workspaceOption(), clusterNameOption(),
                      option({"keep-keys"}, "Leave the cluster's key on the nodes and here.")}, runClusterDelete});
    commands.append({{"cluster", "probe"}, "Check every node: reachable, logged in, OS, cores, memory, GPUs, Open MPI, "
                                           "trainer, mount root, shares, SSH from the head node, a shared network.",
                     {workspaceOption(), clusterNameOption(),
                      {QStringLiteral("burn-in"), QStringLiteral("Then burn the nodes in: GPU health, self-check and memory "
                                                                 "test, all-reduce bandwidth between nodes; a node that fails "
                                                                 "is unusable until a burn-in passes.")}},
                     runClusterProbe});
    commands.append(burnInScheduleCommand());
    commands.append({{"cluster", "node", "list"}, "List a cluster's nodes.", {workspaceOption(), clusterOption(), queryOption()},
                     runClusterNodeList});
    commands.append({{"cluster", "node", "exec"}, "Run a command on a node; its output streams, and the command's exit "
                                                  "code is the exit code. Ctrl-C ends it on the node.",
                     {workspaceOption(), clusterOption(), nameOption("node"),
                      option({"exec"}, "The command (run by /bin/sh on the node).", "CMD")}, runClusterNodeExec});
    commands.append({{"cluster", "node", "setup-logs"}, "List the runs of the setup task (newest first) and their logs.",
                     {workspaceOption(), clusterOption(), nameOption("node")}, runClusterNodeSetupLogs});
    return commands;
}

} // namespace TrainDesk::Cli

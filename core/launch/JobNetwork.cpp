#include "JobNetwork.h"

#include "common/ShellQuote.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <algorithm>

namespace TrainDesk {

namespace {

bool isLoopbackHost(const QString &host)
{
    return host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
}

// "10.0.0.5/24" -> its network "10.0.0.0/24" (IPv4 only, as the probe records).
QString networkOf(const QString &cidr)
{
    const auto [address, prefix] = QHostAddress::parseSubnet(cidr);
    if (address.protocol() != QAbstractSocket::IPv4Protocol || prefix < 0)
        return {};
    const quint32 mask = prefix == 0 ? 0 : ~quint32(0) << (32 - prefix);
    return QStringLiteral("%1/%2").arg(QHostAddress(address.toIPv4Address() & mask).toString()).arg(prefix);
}

bool contains(const QString &network, const QString &host)
{
    QHostAddress address(host);
    if (address.protocol() != QAbstractSocket::IPv4Protocol)
        return false;
    return address.isInSubnet(QHostAddress::parseSubnet(network));
}

} // namespace

QString JobNetwork::commonInterface() const
{
    if (interfaces.isEmpty())
        return {};
    for (const QString &i : interfaces) {
        if (i != interfaces.first())
            return {};
    }
    return interfaces.first();
}

QString JobNetwork::describe(const QList<Node> &nodes) const
{
    QStringList parts;
    for (qsizetype i = 0; i < interfaces.size() && i < nodes.size(); ++i)
        parts << QStringLiteral("%1 on %2").arg(interfaces.at(i), nodes.at(i).name);
    return parts.join(QStringLiteral(", "));
}

JobNetwork JobNetwork::of(const QList<Node> &nodes)
{
    JobNetwork result;
    if (nodes.size() < 2) {
        result.reason = QStringLiteral("one node: its processes meet on it");
        return result;
    }
    bool allLoopback = true;
    for (const Node &n : nodes)
        allLoopback = allLoopback && isLoopbackHost(n.host);
    if (allLoopback) {
        result.reason = QStringLiteral("every node is on this machine's loopback");
        return result;
    }
    // Per node: network -> its interface there.
    QList<QMap<QString, QString>> perNode;
    QStringList unprobed;
    for (const Node &n : nodes) {
        QMap<QString, QString> networks;
        const QJsonArray addresses = QJsonDocument::fromJson(n.facts.toUtf8()).object().value("addresses").toArray();
        for (const QJsonValue &a : addresses) {
            const QString cidr = a.toObject().value("address").toString();
            const QString network = networkOf(cidr);
            if (network.isEmpty() || QHostAddress(cidr.section(QLatin1Char('/'), 0, 0)).isLoopback())
                continue;
            if (!networks.contains(network))
                networks.insert(network, a.toObject().value("interface").toString());
        }
        if (addresses.isEmpty())
            unprobed << n.name;
        perNode << networks;
    }
    if (!unprobed.isEmpty()) {
        result.reason = QStringLiteral("the interfaces of %1 are not known: neither the cluster's creation nor this "
                                       "job's start could read them ('traindesk cluster probe' says why)")
                            .arg(unprobed.join(QStringLiteral(", ")));
        return result;
    }
    QStringList shared = perNode.first().keys();
    for (const auto &networks : perNode) {
        shared.erase(std::remove_if(shared.begin(), shared.end(), [&](const QString &s) { return !networks.contains(s); }),
                     shared.end());
    }
    if (shared.isEmpty()) {
        result.reason = QStringLiteral("the probe found no IPv4 network that every node of the job is on");
        return result;
    }
    // The head node's own address says which network the job was meant to use.
    result.network = shared.first();
    for (const QString &s : shared) {
        if (contains(s, nodes.first().host)) {
            result.network = s;
            break;
        }
    }
    for (const auto &networks : perNode)
        result.interfaces << networks.value(result.network);
    return result;
}

QStringList JobNetwork::applyTo(ToolkitLaunch &launch, EnvironmentList &environment, const QStringList &userVariables,
                                const QString &userCommand, const QList<Node> &nodes) const
{
    if (network.isEmpty()) {
        if (nodes.size() < 2)
            return {};
        return {QStringLiteral("network interfaces: none set for Gloo, NCCL or Open MPI: %1").arg(reason)};
    }
    QStringList set;
    QStringList kept;
    auto add = [&](const QString &name, const QString &value) {
        if (userVariables.contains(name)) {
            kept << name;
            return;
        }
        for (auto &entry : environment) {
            if (entry.first == name) {
                entry.second = value;
                set << name + QLatin1Char('=') + value;
                return;
            }
        }
        environment.append({name, value});
        set << name + QLatin1Char('=') + value;
    };
    // Open MPI takes a network as well as an interface: one value for every node. Include
    // and exclude may not both be given: a user's exclude stands.
    for (const QString &framework : {QStringLiteral("btl"), QStringLiteral("oob")}) {
        const QString include = QStringLiteral("OMPI_MCA_%1_tcp_if_include").arg(framework);
        const QString exclude = QStringLiteral("OMPI_MCA_%1_tcp_if_exclude").arg(framework);
        if (userVariables.contains(exclude) || userCommand.contains(QStringLiteral("%1_tcp_if_").arg(framework)))
            kept << (userVariables.contains(exclude) ? exclude : framework + QStringLiteral("_tcp_if_* (the command line)"));
        else
            add(include, network);
    }
    const QString common = commonInterface();
    if (!common.isEmpty()) {
        add(QStringLiteral("GLOO_SOCKET_IFNAME"), common);
        add(QStringLiteral("NCCL_SOCKET_IFNAME"), common);
    } else if (launch.kind == ToolkitLaunch::Kind::Tasks) {
        // Each task is told its own node's name for the interface.
        for (const QString &name : {QStringLiteral("GLOO_SOCKET_IFNAME"), QStringLiteral("NCCL_SOCKET_IFNAME")}) {
            if (userVariables.contains(name)) {
                kept << name;
                continue;
            }
            for (LaunchTask &task : launch.tasks)
                task.environment.append({name, interfaces.value(task.nodeIndex)});
            set << name + QStringLiteral("=<each task's node's interface>");
        }
    } else {
        // One value for every rank: NCCL takes a list of exact names ("=" in front); Gloo
        // would use every interface of a list, so it is left alone.
        QStringList names;
        for (const QString &i : interfaces) {
            if (!names.contains(i))
                names << i;
        }
        add(QStringLiteral("NCCL_SOCKET_IFNAME"), QLatin1Char('=') + names.join(QLatin1Char(',')));
        set << QStringLiteral("(not GLOO_SOCKET_IFNAME: the nodes name the interface differently; set it in "
                              "environmentVariables if the job uses Gloo)");
    }
    QStringList notes{QStringLiteral("network %1 (%2), from the nodes' recorded interfaces: %3")
                          .arg(network, describe(nodes), set.isEmpty() ? QStringLiteral("nothing set") : set.join(QLatin1Char(' ')))};
    if (!kept.isEmpty())
        notes << QStringLiteral("network interfaces: the job's own %1 kept (environmentVariables win)").arg(kept.join(QStringLiteral(", ")));
    return notes;
}

QString JobNetwork::interfaceLookupText(const QString &address, const QStringList &names)
{
    QStringList exports;
    for (const QString &name : names)
        exports << QStringLiteral("%1=\"$td_if\"").arg(name);
    return QStringLiteral("td_if=$(ip -o -4 addr show 2>/dev/null | awk -v a=%1 %2); if [ -n \"$td_if\" ]; then export %3; fi")
        .arg(shellQuote(address), shellQuote(QStringLiteral("{ split($4, p, \"/\") } p[1] == a { print $2; exit }")),
             exports.join(QLatin1Char(' ')));
}

QStringList JobNetwork::applyInSlurm(ToolkitLaunch &launch, const QStringList &userVariables, const QList<Node> &nodes)
{
    if (nodes.size() < 2)
        return {};
    QStringList names;
    QStringList kept;
    for (const QString &name : {QStringLiteral("GLOO_SOCKET_IFNAME"), QStringLiteral("NCCL_SOCKET_IFNAME")})
        (userVariables.contains(name) ? kept : names) << name;
    QStringList notes;
    if (!kept.isEmpty())
        notes << QStringLiteral("network interfaces: the job's own %1 kept (environmentVariables win)").arg(kept.join(QStringLiteral(", ")));
    if (names.isEmpty())
        return notes;
    if (launch.kind != ToolkitLaunch::Kind::Tasks) {
        notes << QStringLiteral("network interfaces: none set for Gloo or NCCL (one value for every rank, and Slurm's "
                                "nodes record none): set GLOO_SOCKET_IFNAME in environmentVariables if the job uses Gloo");
        return notes;
    }
    for (LaunchTask &task : launch.tasks)
        task.setup = interfaceLookupText(nodes.at(task.nodeIndex).host, names);
    notes << QStringLiteral("network interfaces: %1 of each task = the interface holding the Slurm NodeAddr of its node, "
                            "looked up there (ip addr)").arg(names.join(QStringLiteral(" and ")));
    return notes;
}

} // namespace TrainDesk

#include "ResourcePlacement.h"

namespace TrainDesk {

namespace {

QString counted(int n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

int freeOf(const QList<bool> &held)
{
    return int(held.count(false));
}

// The first `n` free indices, or fewer when there are not as many.
QList<int> takeFree(const QList<bool> &held, int n)
{
    QList<int> taken;
    for (int i = 0; i < held.size() && taken.size() < n; ++i) {
        if (!held.at(i))
            taken << i;
    }
    return taken;
}

int gpusOn(const ResourceDemand &demand, int nodeGpus)
{
    return demand.gpus ? *demand.gpus : qMin(demand.ranks, nodeGpus);
}

} // namespace

QString ResourceDemand::describe() const
{
    if (wholeNodes)
        return counted(nodeCount, "whole node", "whole nodes");
    QStringList parts;
    if (gpus && *gpus > 0)
        parts << counted(*gpus, "GPU", "GPUs");
    parts << counted(cores, "core", "cores");
    return parts.join(QStringLiteral(" and "));
}

ResourcePlacement::ResourcePlacement(const QList<Offer> &nodes)
{
    for (const Offer &o : nodes)
        m_nodes.insert(o.node, {o, QList<bool>(qMax(1, o.cores), false), QList<bool>(qMax(0, o.gpus), false)});
}

void ResourcePlacement::hold(const QStringList &nodes, const QList<NodeGrant> &grants)
{
    if (grants.isEmpty()) {
        for (const QString &name : nodes) {
            if (auto it = m_nodes.find(name); it != m_nodes.end()) {
                it->coreHeld.fill(true);
                it->gpuHeld.fill(true);
            }
        }
        return;
    }
    mark(grants, true);
}

void ResourcePlacement::release(const QList<NodeGrant> &grants)
{
    mark(grants, false);
}

void ResourcePlacement::mark(const QList<NodeGrant> &grants, bool held)
{
    // Indices outside a node's counts (a node probed again with fewer) are ignored.
    for (const NodeGrant &g : grants) {
        auto it = m_nodes.find(g.node);
        if (it == m_nodes.end())
            continue;
        for (int c : g.cores) {
            if (c >= 0 && c < it->coreHeld.size())
                it->coreHeld[c] = held;
        }
        for (int i : g.gpus) {
            if (i >= 0 && i < it->gpuHeld.size())
                it->gpuHeld[i] = held;
        }
    }
}

std::optional<NodeGrant> ResourcePlacement::fit(const ResourceDemand &demand, const NodeState &node) const
{
    if (demand.wholeNodes) {
        if (!isFree(node.offer.node))
            return std::nullopt;
        return NodeGrant{node.offer.node, takeFree(node.coreHeld, int(node.coreHeld.size())),
                         takeFree(node.gpuHeld, int(node.gpuHeld.size()))};
    }
    const int cores = qMin(demand.cores, int(node.coreHeld.size()));
    const int gpus = gpusOn(demand, int(node.gpuHeld.size()));
    if (freeOf(node.coreHeld) < cores || freeOf(node.gpuHeld) < gpus)
        return std::nullopt;
    return NodeGrant{node.offer.node, takeFree(node.coreHeld, cores), takeFree(node.gpuHeld, gpus)};
}

std::optional<ResourcePlacement::Placement> ResourcePlacement::place(const ResourceDemand &demand,
                                                                     const QStringList &candidates)
{
    Placement p;
    p.wholeNodes = demand.wholeNodes;
    const int wanted = demand.wholeNodes ? qMax(1, demand.nodeCount) : 1;
    for (const QString &name : candidates) {
        const auto it = m_nodes.constFind(name);
        if (it == m_nodes.cend() || p.nodes.contains(name))
            continue;
        if (const auto grant = fit(demand, *it)) {
            p.nodes << name;
            p.grants << *grant;
            if (p.nodes.size() == wanted)
                break;
        }
    }
    if (p.nodes.size() < wanted)
        return std::nullopt;
    hold(p.nodes, p.grants);
    return p;
}

QString ResourcePlacement::whyNot(const ResourceDemand &demand, const QStringList &candidates) const
{
    QStringList usable;
    for (const QString &name : candidates) {
        if (m_nodes.contains(name))
            usable << name;
    }
    if (usable.isEmpty())
        return QStringLiteral("needs %1, no node is ready (idle or running)").arg(demand.describe());
    if (demand.wholeNodes) {
        int free = 0;
        for (const QString &name : usable)
            free += isFree(name) ? 1 : 0;
        return QStringLiteral("needs %1, %2 of %3 free").arg(demand.describe()).arg(free).arg(usable.size());
    }
    // Per node, what is short: GPUs first (they are what people wait for).
    QStringList shortOf;
    for (const QString &name : usable) {
        const NodeState &n = m_nodes[name];
        const int gpus = gpusOn(demand, int(n.gpuHeld.size()));
        if (gpus > int(n.gpuHeld.size()))
            shortOf << QStringLiteral("node %1 has %2").arg(name, counted(int(n.gpuHeld.size()), "GPU", "GPUs"));
        else if (freeOf(n.gpuHeld) < gpus)
            shortOf << QStringLiteral("node %1 has %2 free").arg(name, counted(freeOf(n.gpuHeld), "GPU", "GPUs"));
        else
            shortOf << QStringLiteral("node %1 has %2 free").arg(name, counted(freeOf(n.coreHeld), "core", "cores"));
    }
    return QStringLiteral("needs %1, %2").arg(demand.describe(), shortOf.join(QStringLiteral(", ")));
}

int ResourcePlacement::freeCores(const QString &node) const
{
    return m_nodes.contains(node) ? freeOf(m_nodes[node].coreHeld) : 0;
}

int ResourcePlacement::freeGpus(const QString &node) const
{
    return m_nodes.contains(node) ? freeOf(m_nodes[node].gpuHeld) : 0;
}

bool ResourcePlacement::isFree(const QString &node) const
{
    const auto it = m_nodes.constFind(node);
    return it != m_nodes.cend() && !it->coreHeld.contains(true) && !it->gpuHeld.contains(true);
}

} // namespace TrainDesk

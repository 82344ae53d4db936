#include "ResourceSnapshot.h"

#include "jobs/ProgressWatch.h"
#include "launch/JobSpecContext.h"
#include "store/Store.h"

namespace TrainDesk {

QHash<qint64, ResourceSnapshot::JobReliability> ResourceSnapshot::readReliability(const Store &store)
{
    QHash<qint64, JobReliability> reliability;
    const QHash<qint64, QList<JobAttempt>> attempts = store.allJobAttempts();
    for (auto it = attempts.cbegin(); it != attempts.cend(); ++it)
        reliability[it.key()].attempts = *it;
    const QHash<qint64, QByteArray> silences = store.allJobSilences();
    for (auto it = silences.cbegin(); it != silences.cend(); ++it) {
        if (const auto silence = ProgressWatch::Silence::fromJson(*it); silence && !silence->text().isEmpty())
            reliability[it.key()].silence = silence->text();
    }
    return reliability;
}

const Job *ResourceSnapshot::findJob(qint64 jobId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const ExperimentEntry &exp : ws.experiments) {
            for (const Job &job : exp.jobs) {
                if (job.id == jobId)
                    return &job;
            }
        }
    }
    return nullptr;
}

const ResourceSnapshot::WorkspaceEntry *ResourceSnapshot::findWorkspace(qint64 workspaceId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        if (ws.workspace.id == workspaceId)
            return &ws;
    }
    return nullptr;
}

const ResourceSnapshot::ExperimentEntry *ResourceSnapshot::findExperiment(qint64 experimentId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const ExperimentEntry &exp : ws.experiments) {
            if (exp.experiment.id == experimentId)
                return &exp;
        }
    }
    return nullptr;
}

const ResourceSnapshot::ClusterEntry *ResourceSnapshot::findCluster(qint64 clusterId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const ClusterEntry &c : ws.clusters) {
            if (c.cluster.id == clusterId)
                return &c;
        }
    }
    return nullptr;
}

const Share *ResourceSnapshot::findShare(qint64 shareId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const Share &share : ws.shares) {
            if (share.id == shareId)
                return &share;
        }
    }
    return nullptr;
}

const Job *ResourceSnapshot::activeJobOnNode(qint64 clusterId, const QString &nodeName) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const ExperimentEntry &exp : ws.experiments) {
            for (const Job &job : exp.jobs) {
                if (job.clusterId == clusterId && isActive(job.state) && job.nodes.contains(nodeName))
                    return &job;
            }
        }
    }
    return nullptr;
}

SpecContext ResourceSnapshot::specContext(qint64 workspaceId, qint64 clusterId) const
{
    SpecContext context;
    const ClusterEntry *c = findCluster(clusterId);
    if (c) {
        context.cluster = c->cluster.name;
        context.clusterNodeCount = int(c->nodes.size());
    }
    if (const WorkspaceEntry *ws = findWorkspace(workspaceId)) {
        context.workspace = ws->workspace.name;
        if (c) {
            setShares(context, ws->shares, c->cluster, [this](qint64 id) {
                const ClusterEntry *owner = findCluster(id);
                return owner ? owner->cluster.name : QStringLiteral("#%1").arg(id);
            });
        } else {
            // No cluster chosen yet: every share may be meant.
            QStringList all;
            for (const Share &s : ws->shares)
                all << s.name;
            context.shareNames = all;
        }
    }
    return context;
}

const SweepSummary *ResourceSnapshot::findSweep(qint64 sweepId) const
{
    for (const WorkspaceEntry &ws : workspaces) {
        for (const ExperimentEntry &exp : ws.experiments) {
            for (const SweepSummary &s : exp.sweeps) {
                if (s.sweep.id == sweepId)
                    return &s;
            }
        }
    }
    return nullptr;
}

QByteArray ResourceSnapshot::signature() const
{
    QByteArray s;
    for (const WorkspaceEntry &ws : workspaces) {
        s += "W" + QByteArray::number(ws.workspace.id) + ws.workspace.name.toUtf8();
        for (const ExperimentEntry &exp : ws.experiments) {
            s += "E" + QByteArray::number(exp.experiment.id) + exp.experiment.name.toUtf8();
            for (const Job &j : exp.jobs) {
                s += "J" + QByteArray::number(j.id) + j.name.toUtf8() + toString(j.state).toUtf8()
                     + QByteArray::number(j.exitCode.value_or(-999)) + j.started.toString().toUtf8()
                     + j.ended.toString().toUtf8() + QByteArray::number(j.errors.size())
                     + j.nodes.join(QLatin1Char(',')).toUtf8() + "R" + j.rankNodes.join(QLatin1Char(',')).toUtf8();
                if (importedRuns.contains(j.id))
                    s += "I";
                if (const auto r = reliability.constFind(j.id); r != reliability.constEnd())
                    s += "A" + QByteArray::number(r->attempts.size()) + r->silence.toUtf8();
            }
            for (const SweepSummary &sw : exp.sweeps) {
                s += "X" + QByteArray::number(sw.sweep.id) + sw.sweep.name.toUtf8() + toString(sw.sweep.state).toUtf8();
                for (const TrialRow &t : sw.trials)
                    s += "T" + QByteArray::number(t.jobId) + t.state.toUtf8() + toString(t.status).toUtf8()
                         + QByteArray::number(t.evaluations) + QByteArray::number(t.best.value_or(-1e300), 'g', 10);
            }
        }
        for (const ClusterEntry &c : ws.clusters) {
            s += "C" + QByteArray::number(c.cluster.id) + c.cluster.name.toUtf8()
                 + QByteArray::number(c.cluster.targetNodeCount);
            for (const Node &n : c.nodes)
                s += "N" + QByteArray::number(n.id) + n.name.toUtf8() + toString(n.state).toUtf8() + n.stateReason.toUtf8();
        }
        for (const Share &sh : ws.shares) {
            s += "S" + QByteArray::number(sh.id) + sh.name.toUtf8();
            for (const QString &folder : shareFolders.value(sh.id))
                s += "F" + folder.toUtf8() + "/";
        }
    }
    return s;
}

} // namespace TrainDesk

#pragma once

// A store with workspace `ws`, experiment `exp`, the one-node cluster `local` (this
// machine, mount root in `dir`) and the local share `share`: what the runner tests need.
#include "store/Store.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace TrainDesk::Testing {

inline VoidResult createLocalCluster(Store &store, const QTemporaryDir &dir, int slotCount = 1)
{
    const auto ws = store.createWorkspace("ws");
    if (!ws)
        return ws.failure();
    if (auto exp = store.createExperiment(ws->id, "exp"); !exp)
        return exp.failure();
    Cluster c;
    c.workspaceId = ws->id;
    c.name = "local";
    c.targetNodeCount = 1;
    c.mountRoot = dir.filePath("mounts");
    Node n;
    n.name = "localhost";
    n.host = "localhost";
    n.slotCount = slotCount;
    if (auto cluster = store.createCluster(c, {n}); !cluster)
        return cluster.failure();
    Share s;
    s.workspaceId = ws->id;
    s.name = "share";
    s.path = dir.filePath("share");
    if (!QDir().mkpath(s.path))
        return fail("cannot create " + s.path);
    if (auto share = store.createShare(s); !share)
        return share.failure();
    return {};
}

// A job.json for that cluster: one node, `processCount` MPI ranks of `commandLine`, an
// optional job preparation, stdout and stderr on the share.
inline QByteArray localJobSpec(const QString &commandLine, int processCount, const QString &prep = {})
{
    QJsonObject mpi{{"commandLine", commandLine}, {"processCount", processCount}};
    QJsonObject props{{"nodeCount", 1}, {"customMpiSettings", mpi},
                      {"stdOutErrPathPrefix", "$AZ_BATCHAI_JOB_MOUNT_ROOT/share"}};
    if (!prep.isEmpty())
        props.insert("jobPreparation", QJsonObject{{"commandLine", prep}});
    return QJsonDocument(QJsonObject{{"properties", props}}).toJson();
}

} // namespace TrainDesk::Testing

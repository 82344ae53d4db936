#include "EmbeddedDefaults.h"

#include "common/DataPaths.h"
#include "jobs/JobSubmission.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QThread>

static void initCoreResources() { Q_INIT_RESOURCE(traindesk_core); }

namespace TrainDesk::EmbeddedDefaults {

QByteArray demoJobSpec()
{
    initCoreResources();
    QFile file(QStringLiteral(":/traindesk/jobs/fashion-mnist-demo.json"));
    file.open(QIODevice::ReadOnly);
    return file.readAll();
}

VoidResult ensure(Store &store)
{
    auto ws = store.workspace(QLatin1String(workspaceName));
    const bool newWorkspace = !ws;
    if (newWorkspace) {
        ws = store.createWorkspace(QLatin1String(workspaceName));
        // Another process (a second CLI started at the same moment) made it first: it also
        // makes the demo pieces.
        if (!ws && store.workspace(QLatin1String(workspaceName)))
            return {};
        if (!ws)
            return ws.failure();
    }
    // Only a brand-new workspace gets the demo pieces: a user who deleted them keeps them deleted.
    if (!newWorkspace)
        return {};
    auto exp = store.createExperiment(ws->id, QLatin1String(experimentName));
    if (!exp)
        return exp.failure();

    Share share;
    share.workspaceId = ws->id;
    share.name = QLatin1String(shareName);
    share.kind = ShareKind::Local;
    share.path = DataPaths::sharesDirectory() + QLatin1Char('/') + QLatin1String(shareName);
    if (!QDir().mkpath(share.path))
        return fail(QStringLiteral("cannot create the local share folder %1").arg(share.path));
    if (auto created = store.createShare(share); !created)
        return created.failure();

    Cluster cluster;
    cluster.workspaceId = ws->id;
    cluster.name = QLatin1String(clusterName);
    cluster.kind = ClusterKind::Local;
    cluster.targetNodeCount = 1;
    cluster.mountRoot = DataPaths::clusterMountRoot(ws->name, cluster.name);
    Node node;
    node.name = QStringLiteral("localhost");
    node.host = QStringLiteral("localhost");
    node.port = 0;
    node.user = qEnvironmentVariable("USER");
    node.slotCount = qMax(1, QThread::idealThreadCount());
    if (auto created = store.createCluster(cluster, {node}); !created)
        return created.failure();

    SubmitRequest demo;
    demo.workspace = ws->name;
    demo.experiment = exp->name;
    demo.job = QLatin1String(demoJobName);
    demo.cluster = cluster.name;
    demo.spec = demoJobSpec();
    demo.draft = true;
    if (auto created = JobSubmission(store).submit(demo); !created)
        return created.failure();
    return {};
}

} // namespace TrainDesk::EmbeddedDefaults

// Trainer deployment to the nodes of an SSH cluster (TrainerDeployment::ensureOnNodes, as a
// job start does it): ROUNDS rounds in one process, the first with the nodes' connections
// and the trainer folder as the caller left them, the rest with pooled connections.
// Usage: bench_deploy WORKSPACE CLUSTER ROUNDS   (TRAINDESK_HOME names the data directory)
#include "common/DataPaths.h"
#include "cluster/TrainerDeployment.h"
#include "store/Store.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace TrainDesk;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_deploy WORKSPACE CLUSTER ROUNDS\n");
        return 2;
    }
    Store store;
    if (auto opened = store.open(DataPaths::databasePath()); !opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error()));
        return 1;
    }
    const auto ws = store.workspace(QString::fromLocal8Bit(argv[1]));
    const auto cluster = ws ? store.cluster(ws->id, QString::fromLocal8Bit(argv[2])) : Result<Cluster>(ws.failure());
    if (!cluster) {
        std::fprintf(stderr, "%s\n", qPrintable(cluster.error()));
        return 1;
    }
    const auto bundle = TrainerDeployment::localBundle(DataPaths::trainerDirectory());
    if (!bundle) {
        std::fprintf(stderr, "%s\n", qPrintable(bundle.error()));
        return 1;
    }
    const QList<Node> nodes = store.nodes(cluster->id);
    for (int round = 0; round < std::atoi(argv[3]); ++round) {
        QElapsedTimer timer;
        timer.start();
        if (auto done = TrainerDeployment::ensureOnNodes(*cluster, nodes, *bundle); !done) {
            std::fprintf(stderr, "%s\n", qPrintable(done.error()));
            return 1;
        }
        const double seconds = timer.nsecsElapsed() / 1e9;
        std::printf("%.3f %.3f\n", seconds, seconds / nodes.size());
    }
    return 0;
}

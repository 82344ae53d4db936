#include "MultiNodeJob.h"

#include "cluster/ClusterMesh.h"
#include "cluster/NodeProbe.h"
#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <thread>

namespace TrainDesk::MultiNodeJob {

VoidResult checkHeadReachesWorkers(const Cluster &cluster, const QList<Node> &nodes, Transport &head)
{
    QList<QString> errors(nodes.size());
    std::vector<std::thread> threads;
    for (qsizetype i = 1; i < nodes.size(); ++i) {
        threads.emplace_back([&, i] {
            const auto hop = head.exec(headToNodeSshCommand(nodes.at(i), ClusterMesh::configRelativePath(cluster),
                                                            QStringLiteral("true")),
                                       30000);
            if (!hop)
                errors[i] = hop.error();
            else if (hop->exitCode != 0)
                errors[i] = QStringLiteral("the head node %1 cannot log in to node %2 with ssh (mpirun needs that): %3")
                                .arg(nodes.first().name, nodes.at(i).name,
                                     QString::fromLocal8Bit(hop->stdErr).trimmed());
        });
    }
    for (std::thread &t : threads)
        t.join();
    QStringList failed;
    for (const QString &e : errors) {
        if (!e.isEmpty())
            failed << e;
    }
    if (!failed.isEmpty())
        return fail(failed.join(QStringLiteral("; ")) + QStringLiteral(" (run 'traindesk cluster probe' for hints)"));
    return {};
}

QString launchPrefix(const Cluster &cluster)
{
    if (cluster.kind != ClusterKind::Ssh)
        return {};
    return QStringLiteral("cfg=\"$HOME\"/%1; if [ -f \"$cfg\" ]; then export OMPI_MCA_plm_rsh_args=\"-F $cfg\"; fi; ")
        .arg(shellQuote(ClusterMesh::configRelativePath(cluster)));
}

} // namespace TrainDesk::MultiNodeJob

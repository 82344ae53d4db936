#include "ClusterBurnIn.h"

#include "jobs/NodeBurnIn.h"
#include "store/Store.h"

#include <QJsonObject>

namespace TrainDesk::Cli {

Result<int> burnInCluster(Context &c, const Cluster &cluster, QJsonArray &json)
{
    QList<Node> nodes;
    for (const Node &n : c.store.nodes(cluster.id)) {
        if (n.state == NodeState::Running || n.state == NodeState::Leaving || n.state == NodeState::Preparing)
            c.err << "burn-in: " << n.name << " is " << toString(n.state) << ": left out\n";
        else
            nodes << n;
    }
    c.err << "burn-in of " << nodes.size() << " node" << (nodes.size() == 1 ? "" : "s") << " of cluster '" << cluster.name
          << "'...\n";
    c.err.flush();
    NodeBurnIn burnIn(c.store);
    const auto report = burnIn.run(cluster, nodes, [&c](const BurnInFigure &f) {
        if (c.json())
            return;
        c.out << f.toText() << '\n';
        c.out.flush();
    });
    if (!report)
        return report.failure();
    burnIn.applyVerdicts(cluster, nodes, *report);
    for (const BurnInFigure &f : report->figures) {
        const char *outcome = f.outcome == BurnInFigure::Outcome::Passed ? "passed"
                            : f.outcome == BurnInFigure::Outcome::Failed ? "failed" : "skipped";
        QJsonObject o{{"nodes", QJsonArray::fromStringList(f.nodes)}, {"check", f.id}, {"title", f.title},
                      {"outcome", outcome}, {"detail", f.detail}};
        if (f.id == QLatin1String("allreduce")) {
            o.insert("busBandwidthGBps", f.measured);
            o.insert("leastExpectedGBps", f.expected);
        }
        json.append(o);
    }
    for (auto it = report->failedNodes.cbegin(); it != report->failedNodes.cend(); ++it)
        c.err << "node " << it.key() << " is unusable until a burn-in passes: " << it.value() << '\n';
    return int(report->failedNodes.size());
}

Command burnInScheduleCommand()
{
    return {{"cluster", "burn-in"},
            "When the cluster's nodes are burnt in besides 'cluster probe --burn-in': before each job's start, every N "
            "hours (looked at when a job is about to start), or not.",
            {workspaceOption(), nameOption(QStringLiteral("cluster")),
             {QStringLiteral("before-each-job"), QStringLiteral("Burn in a job's nodes before it starts.")},
             {QStringLiteral("every-hours"), QStringLiteral("Burn in the nodes when the last burn-in is older than N hours."),
              QStringLiteral("N")},
             {QStringLiteral("off"), QStringLiteral("Only on demand.")}},
            [](Context &c) {
                const auto ws = c.workspace();
                if (!ws)
                    return c.error(ws.error());
                const auto name = c.required(QStringLiteral("name"));
                if (!name)
                    return c.error(name.error());
                const auto cluster = c.store.cluster(ws->id, *name);
                if (!cluster)
                    return c.error(cluster.error());
                BurnInSchedule schedule = c.store.burnInSchedule(cluster->id);
                if (c.args.isSet(QStringLiteral("off"))) {
                    schedule.beforeEachJob = false;
                    schedule.everyHours = 0;
                }
                if (c.args.isSet(QStringLiteral("before-each-job")))
                    schedule.beforeEachJob = true;
                if (c.args.isSet(QStringLiteral("every-hours"))) {
                    bool ok = false;
                    const int hours = c.args.value(QStringLiteral("every-hours")).toInt(&ok);
                    if (!ok || hours < 1 || hours > 24 * 365)
                        return c.error(QStringLiteral("--every-hours: expected a number of hours from 1 to 8760, found '%1'")
                                           .arg(c.args.value(QStringLiteral("every-hours"))));
                    schedule.everyHours = hours;
                }
                if (auto ok = c.store.setBurnInSchedule(schedule); !ok)
                    return c.error(ok.error());
                QString text = QStringLiteral("cluster '%1': burn-in ").arg(*name);
                QStringList when;
                if (schedule.beforeEachJob)
                    when << QStringLiteral("before each job");
                if (schedule.everyHours > 0)
                    when << QStringLiteral("every %1 h").arg(schedule.everyHours);
                text += when.isEmpty() ? QStringLiteral("on demand only") : when.join(QStringLiteral(" and "));
                if (schedule.lastRun.isValid())
                    text += QStringLiteral(" (last run %1)").arg(schedule.lastRun.toString(Qt::ISODate));
                return c.print(QJsonObject{{"cluster", *name}, {"beforeEachJob", schedule.beforeEachJob},
                                           {"everyHours", schedule.everyHours},
                                           {"lastRun", schedule.lastRun.toString(Qt::ISODate)}},
                               text + QLatin1Char('\n'));
            }};
}

} // namespace TrainDesk::Cli

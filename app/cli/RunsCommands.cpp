// runs import|export: runs of TensorBoard folders made runs of an experiment, read in place
// (metrics/TensorBoardImport), and every series of chosen runs as one CSV.
#include "Command.h"

#include "cluster/ImportedRunNodes.h"
#include "common/CsvField.h"
#include "metrics/EventFiles.h"
#include "metrics/MetricCsv.h"
#include "metrics/MetricRows.h"
#include "metrics/TensorBoardFolder.h"
#include "metrics/TensorBoardImport.h"
#include "store/Names.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QThread>


namespace TrainDesk::Cli {

namespace {

constexpr int watchIntervalMs = 1000;

QString countText(qint64 n, const char *one)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(one)).arg(n == 1 ? QString() : QStringLiteral("s"));
}

// Where the folder is: here (DIR), on a node of a cluster (--cluster C [--node N] DIR, read
// over SFTP), or under a share (--share S [PATH]: here or on the share's node).
Result<TensorBoardImport::Target> importTarget(Context &c)
{
    const QStringList positional = c.args.positionalArguments();
    const QString experiment = c.args.value(QStringLiteral("experiment"));
    const QString cluster = c.args.value(QStringLiteral("cluster"));
    const QString node = c.args.value(QStringLiteral("node"));
    if (c.args.isSet(QStringLiteral("share"))) {
        if (positional.size() > 1 || !cluster.isEmpty())
            return fail(QStringLiteral("runs import --share NAME: give at most one PATH in the share, and no --cluster "
                                       "(the share says where it is)"));
        const auto folder = ImportedRunNodes::shareFolder(c.store, c.workspaceName(), c.args.value(QStringLiteral("share")),
                                                          positional.value(0), node);
        if (!folder)
            return folder.failure();
        return TensorBoardImport::target(c.store, c.workspaceName(), experiment, folder->folder, folder->place);
    }
    if (positional.size() != 1)
        return fail(QStringLiteral("runs import: give one folder (DIR), found %1").arg(positional.size()));
    if (cluster.isEmpty()) {
        if (!node.isEmpty())
            return fail(QStringLiteral("runs import --node %1: name its cluster with --cluster").arg(node));
        return TensorBoardImport::target(c.store, c.workspaceName(), experiment, positional.first());
    }
    const auto place = ImportedRunNodes::nodePlace(c.store, c.workspaceName(), cluster, node);
    if (!place)
        return place.failure();
    return TensorBoardImport::target(c.store, c.workspaceName(), experiment, positional.first(), *place);
}

QString folderText(const TensorBoardImport::Target &target)
{
    return (target.files ? target.files->place() : QString()) + TensorBoardFolder::displayName(target.root);
}

// `traindesk runs import DIR|--cluster C [--node N] DIR|--share S [PATH] [--experiment NAME] [--watch]`
int runsImport(Context &c)
{
    const auto target = importTarget(c);
    if (!target)
        return c.error(target.error());
    const QString shownRoot = folderText(*target);
    TensorBoardImport import(c.store, *target);
    const auto first = import.update();
    if (!first)
        return c.error(first.error());
    for (const QString &problem : first->problems)
        c.err << "warning: " << problem << '\n';
    c.err.flush();
    const QString text = QStringLiteral("%1 in %2 (%3 new) into experiment %4: %5 read (%6 bytes)\n")
                             .arg(countText(first->runsFound, "run"), shownRoot)
                             .arg(first->runsAdded)
                             .arg(target->experiment, countText(first->pointsRead, "point"))
                             .arg(first->bytesRead);
    const QJsonObject json{{"experiment", target->experiment}, {"folder", TensorBoardFolder::displayName(target->root)},
                           {"node", target->node},
                           {"runs", first->runsFound}, {"added", first->runsAdded},
                           {"points", double(first->pointsRead)}, {"bytes", double(first->bytesRead)},
                           {"problems", QJsonArray::fromStringList(first->problems)}};
    if (!c.args.isSet(QStringLiteral("watch")))
        return c.print(json, text);
    c.out << text;
    c.out.flush();
    // Follow: every second, what the files grew by, and new runs and files; Ctrl-C ends it.
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    QSet<QString> named(first->problems.begin(), first->problems.end());
    while (!cancel.isCancelled()) {
        QThread::msleep(watchIntervalMs);
        const auto next = import.update();
        if (!next)
            return c.error(next.error());
        for (const QString &problem : next->problems) {
            if (!named.contains(problem)) {
                named.insert(problem);
                c.err << "warning: " << problem << '\n';
            }
        }
        c.err.flush();
        if (next->pointsRead > 0 || next->runsAdded > 0) {
            c.out << QStringLiteral("%1 new, %2 read (%3 bytes)\n")
                         .arg(countText(next->runsAdded, "run"), countText(next->pointsRead, "point"))
                         .arg(next->bytesRead);
            c.out.flush();
        }
    }
    return 0;
}

// `traindesk runs export`: every series of every chosen run, one CSV.
int runsExport(Context &c)
{
    const auto exp = c.experiment();
    if (!exp)
        return c.error(exp.error());
    QList<Job> jobs = c.store.jobs(exp->id);
    const QStringList chosen = c.args.values(QStringLiteral("run"));
    if (!chosen.isEmpty()) {
        QList<Job> picked;
        for (const QString &name : chosen) {
            const auto found = std::find_if(jobs.begin(), jobs.end(), [&](const Job &j) { return j.name == name; });
            if (found == jobs.end())
                return c.error(QStringLiteral("experiment '%1' has no run '%2'").arg(exp->name, name));
            picked << *found;
        }
        jobs = picked;
    }
    const CsvText mode = c.args.isSet(QStringLiteral("csv-raw")) ? CsvText::Raw : CsvText::Safe;
    c.out << "run,series,step,time,value,file\n";
    for (const Job &job : jobs) {
        const QString run = csvField(job.name, mode);
        auto read = MetricRows::forEachRecord(c.store, job.id, [&](const MetricRecord &r) {
            const QString time = MetricCsv::number(r.time);
            if (r.kind == QLatin1String("scalar")) {
                c.out << run << ',' << csvField(r.name, mode) << ',' << (r.step >= 0 ? QString::number(r.step) : QString())
                      << ',' << time << ',' << MetricCsv::number(r.value) << ',' << csvField(r.file, mode) << '\n';
            } else if (r.kind == QLatin1String("train") || r.kind == QLatin1String("val")) {
                // The trainer's series, by the names its metrics.jsonl gives them.
                const qint64 step = r.globalStep >= 0 ? r.globalStep : r.step;
                for (const char *key : {"loss", "acc", "val_loss", "val_acc", "lr", "images_per_sec"}) {
                    const double value = r.number(QLatin1String(key));
                    if (std::isnan(value))
                        continue;
                    c.out << run << ',' << csvField(r.kind + QLatin1Char('/') + QLatin1String(key), mode) << ','
                          << (step >= 0 ? QString::number(step) : QString()) << ',' << time << ','
                          << MetricCsv::number(value) << ",\n";
                }
            }
            return true;
        });
        if (!read)
            return c.error(read.error());
    }
    c.out.flush();
    return 0;
}

} // namespace

QList<Command> runsCommands()
{
    QList<Command> commands;
    Command import{{"runs", "import"},
                   "Make every run of a TensorBoard folder DIR (each folder holding event files, named by its path "
                   "as TensorBoard names it) a run of an experiment, read in place: only how far each file was read "
                   "is stored. Run again, it reads only what the files grew by; --watch follows them until Ctrl-C. "
                   "A folder on a cluster's node (--cluster C [--node N] DIR) or under a share (--share S [PATH]) is "
                   "read the same way over SFTP, where it is; nothing there is changed.",
                   {workspaceOption(), clusterOption(),
                    {QStringList{QStringLiteral("node")},
                     QStringLiteral("The node of --cluster (or of a share's cluster) the folder is on (default: its first)."),
                     QStringLiteral("NODE")},
                    {QStringList{QStringLiteral("share")},
                     QStringLiteral("Read the folder PATH under this share (default: the share itself) where the share is."),
                     QStringLiteral("SHARE")},
                    {{QStringLiteral("e"), QStringLiteral("experiment")},
                     QStringLiteral("Experiment (made if missing; default: the folder's name)."), QStringLiteral("EXP")},
                    {QStringLiteral("watch"), QStringLiteral("Keep reading what the files grow by, every second, until Ctrl-C.")}},
                   runsImport};
    import.argument = QStringLiteral("DIR|PATH");
    commands.append(import);
    commands.append({{"runs", "export"}, "Print every series of the chosen runs (default: all of the experiment's) "
                     "as one CSV: run,series,step,time,value,file (imported runs read from their files).",
                     {workspaceOption(), experimentOption(),
                      {QStringList{QStringLiteral("run")}, QStringLiteral("A run (job) to export; give it again for more."),
                       QStringLiteral("NAME")},
                      {QStringList{QStringLiteral("csv-raw")},
                       QStringLiteral("Every text cell as it is (for programs, not spreadsheets).")}},
                     runsExport});
    return commands;
}

} // namespace TrainDesk::Cli

// data list, data fetch NAME: the data sets the bundled trainer reads, fetched into a share.
#include "Command.h"

#include "datasets/DataSetCatalogue.h"
#include "datasets/DataSetMirror.h"
#include "common/ShellQuote.h"
#include "datasets/DataSetShareFetch.h"
#include "shares/ShareService.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

namespace TrainDesk::Cli {

namespace {

// "download: <address> 40% (68199228 of 170498071 bytes)" on stderr, each tenth (each 16 MiB
// when the size is unknown).
class DownloadProgress
{
public:
    explicit DownloadProgress(Context &c) : m_c(c) {}
    void operator()(qint64 done, qint64 total, const QString &what)
    {
        const qint64 step = total > 0 ? int(done * 10 / total) : done / (16 * 1024 * 1024);
        if (what == m_what && step == m_step)
            return;
        m_what = what;
        m_step = step;
        m_c.err << "fetch: " << what << ' ';
        if (total > 0)
            m_c.err << step * 10 << "% (" << done << " of " << total << " bytes)\n";
        else
            m_c.err << done << " bytes\n";
        m_c.err.flush();
    }

private:
    Context &m_c;
    QString m_what;
    qint64 m_step = -1;
};

int listDataSets(Context &c)
{
    Table t{{"Name", "Title", "Files", "Trainer", "Source"}, {}};
    QJsonArray array;
    for (const DataSet &set : DataSetCatalogue::all()) {
        QStringList names;
        QJsonArray files;
        for (const DataSetFile &f : set.files) {
            names << f.name;
            QJsonArray urls;
            for (const QString &mirror : set.mirrors)
                urls.append(set.url(mirror, f));
            files.append(QJsonObject{{"name", f.name}, {"md5", f.md5}, {"urls", urls}});
        }
        t.rows.append({set.name, set.title, names.join(QStringLiteral(", ")), "--format " + set.trainerFormat,
                       QUrl(set.mirrors.first()).host()});
        array.append(QJsonObject{{"name", set.name}, {"title", set.title}, {"homepage", set.homepage},
                                 {"trainerFormat", set.trainerFormat}, {"files", files}});
    }
    return c.print(array, t);
}

// How to place the files by hand when this machine cannot download them.
// Every option the command needs is in it (the workspace too), so that it runs as printed.
QString byHandHint(const DataSet &set, const QString &workspace, const QString &share, const QString &directory)
{
    QStringList urls;
    QStringList from;
    for (const DataSetFile &f : set.files) {
        urls << set.url(set.mirrors.first(), f);
        from << QStringLiteral("--from %1").arg(f.name);
    }
    const QString them = set.files.size() == 1 ? QStringLiteral("it") : QStringLiteral("them");
    return QStringLiteral("\nTo place %1 by hand, download %2 on a machine that can (a browser will do), bring %1 "
                          "here and run:\n  traindesk data fetch %3 -w %4 --share %5 --path %6 %7\n(any file name will "
                          "do: each file is recognised and verified by its published md5)")
        .arg(them, urls.join(QStringLiteral(", ")), set.name, shellQuote(workspace), shellQuote(share),
             shellQuote(directory), from.join(QLatin1Char(' ')));
}

int fetchDataSet(Context &c, const DataSet &published)
{
    ShareService service(c.store);
    const auto shareName = c.required(QStringLiteral("share"));
    if (!shareName)
        return c.error(shareName.error());
    const auto share = service.find(c.workspaceName(), *shareName);
    if (!share)
        return c.error(share.error());
    const QString directory = c.args.isSet(QStringLiteral("path")) ? c.args.value(QStringLiteral("path")) : published.name;
    bool numeric = false;
    const int timeout = c.args.value(QStringLiteral("timeout")).toInt(&numeric);
    if (!numeric || timeout < 1)
        return c.error(QStringLiteral("--timeout: expected a number of seconds (at least 1), found '%1'")
                           .arg(c.args.value(QStringLiteral("timeout"))));

    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    DownloadProgress progress(c);
    FetchOptions options;
    options.from = c.args.values(QStringLiteral("from"));
    options.inactivitySeconds = timeout;
    options.cancel = &cancel;
    options.log = [&c](const QString &line) {
        c.err << "fetch: " << line << '\n';
        c.err.flush();
    };
    options.progress = [&progress](qint64 done, qint64 total, const QString &what) { progress(done, total, what); };

    const auto resolved = DataSetMirror::fromEnvironment(published);
    if (!resolved)
        return c.error(resolved.error());
    const DataSet &set = *resolved;

    const auto outcome = fetchIntoShare(service, *share, directory, set, options);
    if (!outcome) {
        const bool network = options.from.isEmpty() && outcome.error().startsWith(QLatin1String("cannot download"));
        return c.error(outcome.error() + (network ? byHandHint(set, c.workspaceName(), share->name, directory) : QString()));
    }

    Table t{{"File", "Action", "MD5", "Size", "Source"}, {}};
    QJsonArray files;
    for (const FetchedFile &f : outcome->fetched.files) {
        t.rows.append({f.name, toString(f.action), f.md5, QString::number(f.size), f.source});
        files.append(QJsonObject{{"name", f.name}, {"action", toString(f.action)}, {"md5", f.md5},
                                 {"size", f.size}, {"source", f.source}});
    }
    QString text = t.render();
    text += outcome->fetched.changed
                ? QStringLiteral("%1 is in share '%2', folder %3 (%4).\n").arg(set.title, share->name, directory, outcome->folder)
                : QStringLiteral("Nothing to do: %1 is already in share '%2', folder %3 (%4), verified.\n")
                      .arg(set.title, share->name, directory, outcome->folder);
    if (outcome->uploaded > 0)
        text += QStringLiteral("Copied %1 file%2 to the share's nodes.\n").arg(outcome->uploaded).arg(outcome->uploaded == 1 ? "" : "s");
    text += QStringLiteral("A job reads it with: traindesk-trainer --data $AZ_BATCHAI_JOB_MOUNT_ROOT/%1/%2\n")
                .arg(share->name, directory);
    return c.print(QJsonObject{{"dataSet", set.name}, {"share", share->name}, {"path", directory},
                               {"folder", outcome->folder}, {"changed", outcome->fetched.changed},
                               {"uploaded", outcome->uploaded}, {"files", files}},
                   text);
}

} // namespace

QList<Command> dataCommands()
{
    QCommandLineOption timeout(QStringList{"timeout"}, "Give a download up after this many seconds without data (default 60).",
                               "SECONDS", "60");
    QList<Command> commands;
    commands.append({{"data", "list"}, "List the data sets 'data fetch' places in a share.", {}, listDataSets});
    // One command per data set, so that `data fetch cifar10` reads as the name it is.
    for (const DataSet &set : DataSetCatalogue::all()) {
        QStringList names;
        for (const DataSetFile &f : set.files)
            names << f.name;
        commands.append(
            {{"data", "fetch", set.name},
             QStringLiteral("Fetch %1 into a share, checksum-verified.").arg(set.title),
             {workspaceOption(), option({"s", "share"}, "The share to put it in.", "NAME"),
              option({"path"}, QStringLiteral("Folder of the share (default: %1).").arg(set.name), "DIR"),
              option({"from"}, QStringLiteral("A file downloaded by hand (%1), or a folder holding it; repeat for "
                                              "more. Verified by its md5 like a download.")
                                   .arg(names.join(QStringLiteral(", "))),
                     "FILE"),
              timeout},
             [set](Context &c) { return fetchDataSet(c, set); }});
    }
    return commands;
}

} // namespace TrainDesk::Cli

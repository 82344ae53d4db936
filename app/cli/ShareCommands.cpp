// share create|list|show|delete, share directory create, share file upload|download|list.
#include "Command.h"
#include "ProgressPrinter.h"

#include "shares/ShareService.h"
#include "store/Store.h"

#include <QJsonArray>
#include <QJsonObject>

namespace TrainDesk::Cli {

namespace {

QCommandLineOption shareOption() { return option({"s", "share"}, "Name of the share.", "NAME"); }
QCommandLineOption shareNameOption()
{
    return nameOption(QStringLiteral("share"), QStringLiteral("s"), QStringLiteral("share"));
}

QJsonObject shareJson(const Share &share, const QString &workspace, const QString &cluster)
{
    return QJsonObject{{"name", share.name}, {"workspace", workspace}, {"kind", toString(share.kind)},
                       {"path", share.path}, {"cluster", cluster.isEmpty() ? QJsonValue() : QJsonValue(cluster)},
                       {"created", share.created.toString(Qt::ISODateWithMs)}};
}

Table shareTable(ShareService &service, const QList<Share> &shares)
{
    Table t{{"Name", "Kind", "Cluster", "Path"}, {}};
    for (const Share &s : shares)
        t.rows.append({s.name, toString(s.kind), service.clusterName(s), s.path});
    return t;
}

int printShares(Context &c, ShareService &service, const QList<Share> &shares, bool one)
{
    QJsonArray array;
    for (const Share &s : shares)
        array.append(shareJson(s, c.workspaceName(), service.clusterName(s)));
    return c.print(one ? QJsonValue(array.first()) : QJsonValue(array), shareTable(service, shares));
}

// The share named by --share.
Result<Share> shareArgument(Context &c, ShareService &service)
{
    const auto name = c.required(QStringLiteral("share"));
    if (!name)
        return name.failure();
    return service.find(c.workspaceName(), *name);
}

int createShare(Context &c)
{
    CreateShareRequest r;
    r.workspace = c.workspaceName();
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    r.name = *name;
    const auto kindText = c.required(QStringLiteral("kind"));
    if (!kindText)
        return c.error(kindText.error());
    const auto kind = shareKindFromString(*kindText);
    if (!kind)
        return c.error(QStringLiteral("--kind: expected local, cluster or replicated, found '%1'").arg(*kindText));
    r.kind = *kind;
    r.path = c.args.value(QStringLiteral("path"));
    r.cluster = c.args.value(QStringLiteral("cluster"));
    ShareService service(c.store);
    const auto share = service.create(r);
    if (!share)
        return c.error(share.error());
    return printShares(c, service, {*share}, true);
}

int uploadFiles(Context &c)
{
    ShareService service(c.store);
    const auto share = shareArgument(c, service);
    if (!share)
        return c.error(share.error());
    const QStringList files = c.args.values(QStringLiteral("source"));
    if (files.isEmpty())
        return c.error(QStringLiteral("missing required option --source"));
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    ProgressPrinter printer(c, QStringLiteral("upload"));
    const QString directory = c.args.value(QStringLiteral("path"));
    const auto outcome = service.upload(*share, directory, files, &cancel,
                                        [&printer](qint64 done, qint64 total, const QString &file) {
                                            printer(done, total, file);
                                        });
    if (!outcome.error.isEmpty())
        return c.error(outcome.error);
    return c.print(QJsonObject{{"share", share->name}, {"path", directory}, {"uploaded", outcome.copied}},
                   QStringLiteral("Uploaded %1 file%2 to share '%3'\n")
                       .arg(outcome.copied).arg(outcome.copied == 1 ? "" : "s", share->name));
}

int downloadFile(Context &c)
{
    ShareService service(c.store);
    const auto share = shareArgument(c, service);
    if (!share)
        return c.error(share.error());
    const auto file = c.required(QStringLiteral("path"));
    if (!file)
        return c.error(file.error());
    const auto dest = c.required(QStringLiteral("dest"));
    if (!dest)
        return c.error(dest.error());
    CancelFlag cancel;
    const CancelOnInterrupt interrupt(cancel);
    ProgressPrinter printer(c, QStringLiteral("download"));
    TransferOptions options;
    options.cancel = &cancel;
    options.progress = [&printer, name = *file](qint64 done, qint64 total) { printer(done, total, name); };
    const auto local = service.download(*share, *file, *dest, options, c.args.isSet(QStringLiteral("overwrite")));
    if (!local)
        return c.error(local.error());
    return c.print(QJsonObject{{"share", share->name}, {"path", *file}, {"file", local->localPath},
                               {"unchanged", local->unchanged}},
                   local->unchanged ? QStringLiteral("%1 is already the same as %2: unchanged\n").arg(local->localPath, *file)
                                    : QStringLiteral("Downloaded %1\n").arg(local->localPath));
}

int listFiles(Context &c)
{
    ShareService service(c.store);
    const auto share = shareArgument(c, service);
    if (!share)
        return c.error(share.error());
    const auto entries = service.listFiles(*share, c.args.value(QStringLiteral("path")));
    if (!entries)
        return c.error(entries.error());
    Table t{{"Name", "Type", "Size", "Modified"}, {}};
    QJsonArray array;
    for (const RemoteFileInfo &e : *entries) {
        const QString modified = e.modified.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        // A link is shown as a link, with where it points: never as what it points to.
        const QString type = e.isLink ? QStringLiteral("link to %1").arg(e.linkTarget)
                             : e.isDirectory ? QStringLiteral("directory") : QStringLiteral("file");
        t.rows.append({e.name, type, e.isDirectory || e.isLink ? QString() : QString::number(e.size), modified});
        QJsonObject entry{{"name", e.name}, {"isDirectory", e.isDirectory}, {"size", e.size},
                          {"modified", e.modified.toUTC().toString(Qt::ISODate)}};
        if (e.isLink) {
            entry.insert(QStringLiteral("isLink"), true);
            entry.insert(QStringLiteral("linkTarget"), e.linkTarget);
        }
        array.append(entry);
    }
    return c.print(array, t);
}

} // namespace

namespace {

int runShareList(Context &c)
{
    ShareService service(c.store);
    const auto shares = service.list(c.workspaceName());
    if (!shares)
        return c.error(shares.error());
    return printShares(c, service, *shares, false);
}

int runShareShow(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    ShareService service(c.store);
    const auto share = service.find(c.workspaceName(), *name);
    if (!share)
        return c.error(share.error());
    return printShares(c, service, {*share}, true);
}

int runShareDelete(Context &c)
{
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    ShareService service(c.store);
    const auto share = service.find(c.workspaceName(), *name);
    if (!share)
        return c.error(share.error());
    if (auto removed = service.remove(c.workspaceName(), *name); !removed)
        return c.error(removed.error());
    return c.print(QJsonObject{{"name", *name}, {"deleted", true}, {"path", share->path}},
                   QStringLiteral("Deleted share '%1' (its files stay in %2)\n").arg(*name, share->path));
}

int runShareDirectoryCreate(Context &c)
{
    ShareService service(c.store);
    const auto share = shareArgument(c, service);
    if (!share)
        return c.error(share.error());
    const auto name = c.required(QStringLiteral("name"));
    if (!name)
        return c.error(name.error());
    const auto made = service.createDirectory(*share, *name);
    if (!made)
        return c.error(made.error());
    return c.print(QJsonObject{{"share", share->name}, {"directory", *name}, {"path", *made}},
                   QStringLiteral("Created directory %1\n").arg(*made));
}

} // namespace

QList<Command> shareCommands()
{
    QList<Command> commands;
    commands.append({{"share", "create"}, "Create a share: a folder on this machine (local), a path every node of a "
                                          "cluster sees (cluster, e.g. NFS), or a folder on every node (replicated).",
                     {workspaceOption(), shareNameOption(),
                      option({"kind"}, "local, cluster or replicated.", "KIND"),
                      option({"path"}, "local: a folder here (default: under the data directory); cluster and "
                                       "replicated: an absolute path on the nodes.", "DIR"),
                      option({"c", "cluster"}, "The cluster whose nodes hold a cluster or replicated share.", "CLUSTER")},
                     createShare});
    commands.append({{"share", "list"}, "List the shares of a workspace.", {workspaceOption(), queryOption()}, runShareList});
    commands.append({{"share", "show"}, "Show a share.", {workspaceOption(), shareNameOption(), queryOption()}, runShareShow});
    commands.append({{"share", "delete"}, "Forget a share; its files stay where they are.",
                     {workspaceOption(), shareNameOption()}, runShareDelete});
    commands.append({{"share", "directory", "create"}, "Create a directory in a share (on every node of a replicated one).",
                     {workspaceOption(), shareOption(), nameOption("directory, relative to the share")}, runShareDirectoryCreate});
    commands.append({{"share", "file", "upload"}, "Upload files into a directory of a share; progress on stderr, "
                                                  "Ctrl-C cancels.",
                     {workspaceOption(), shareOption(),
                      option({"path"}, "Directory of the share (default: its top).", "DIR"),
                      option({"source"}, "A file to upload (repeat for more).", "FILE")},
                     uploadFiles});
    commands.append({{"share", "file", "download"}, "Download a file of a share; progress on stderr. A local file "
                                                    "that differs is not replaced without --overwrite.",
                     {workspaceOption(), shareOption(), option({"path"}, "The file, relative to the share.", "FILE"),
                      option({"dest"}, "Local folder to download into.", "DIR"),
                      option({"overwrite"}, "Replace a local file that differs from the share's.")},
                     downloadFile});
    commands.append({{"share", "file", "list"}, "List a directory of a share.",
                     {workspaceOption(), shareOption(),
                      option({"path"}, "Directory of the share (default: its top).", "DIR")},
                     listFiles});
    return commands;
}

} // namespace TrainDesk::Cli

#include "SetupTask.h"

#include "common/DataPaths.h"
#include "common/ShellQuote.h"
#include "transport/Transport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

QString SetupLog::failure() const
{
    if (succeeded())
        return {};
    if (exitCode)
        return QStringLiteral("setup task failed with exit code %1 (see %2)").arg(*exitCode).arg(stdErrPath);
    return QStringLiteral("setup task could not run: %1").arg(error);
}

} // namespace TrainDesk

namespace TrainDesk::SetupTask {

namespace {

QString resultPath(const QString &stdOutPath)
{
    return QString(stdOutPath).replace(QStringLiteral("-stdout.txt"), QStringLiteral("-result.json"));
}

void writeResult(const SetupLog &log)
{
    QJsonObject o{{"node", log.node},
                  {"started", log.started.toString(Qt::ISODateWithMs)},
                  {"ended", log.ended.toString(Qt::ISODateWithMs)},
                  {"error", log.error}};
    if (log.exitCode)
        o.insert("exitCode", *log.exitCode);
    QFile file(resultPath(log.stdOutPath));
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(QJsonDocument(o).toJson());
}

} // namespace

QString logDirectory(const QString &workspace, const QString &cluster)
{
    return DataPaths::dataDirectory() + QStringLiteral("/logs/%1/clusters/%2/setup").arg(workspace, cluster);
}

SetupLog run(const QString &workspace, const Cluster &cluster, const QList<Share> &shares, const Node &node,
             Transport &transport, const CancelFlag *cancel, int timeoutMs)
{
    SetupLog log;
    log.node = node.name;
    log.started = QDateTime::currentDateTimeUtc();
    const QString dir = logDirectory(workspace, cluster.name) + QLatin1Char('/') + node.name;
    QDir().mkpath(dir);
    const QString stamp = log.started.toString(QStringLiteral("yyyyMMdd'T'HHmmss.zzz'Z'"));
    log.stdOutPath = QStringLiteral("%1/%2-stdout.txt").arg(dir, stamp);
    log.stdErrPath = QStringLiteral("%1/%2-stderr.txt").arg(dir, stamp);
    QFile out(log.stdOutPath), err(log.stdErrPath);
    out.open(QIODevice::WriteOnly);
    err.open(QIODevice::WriteOnly);

    // As the service did: the task sees the mount root, with the shares linked under it.
    QString command = QStringLiteral("export AZ_BATCHAI_MOUNT_ROOT=%1 AZ_BATCHAI_NODE_NAME=%2; mkdir -p \"$AZ_BATCHAI_MOUNT_ROOT\"")
                          .arg(shellQuote(cluster.mountRoot), shellQuote(node.name));
    for (const Share &share : shares) {
        if (share.kind != ShareKind::Local || cluster.kind == ClusterKind::Local)
            command += QStringLiteral("; ln -sfn %1 %2").arg(shellQuote(share.path),
                                                             shellQuote(cluster.mountRoot + QLatin1Char('/') + share.name));
    }
    command += QStringLiteral("; exec /bin/sh -c -- %1").arg(shellQuote(cluster.setupTask));

    ExecHandlers handlers;
    handlers.onStdOut = [&](const QByteArray &data) { out.write(data); out.flush(); };
    handlers.onStdErr = [&](const QByteArray &data) { err.write(data); err.flush(); };
    const Result<int> status = transport.exec(command, handlers, cancel, timeoutMs);
    log.ended = QDateTime::currentDateTimeUtc();
    if (status)
        log.exitCode = *status;
    else
        log.error = status.error();
    out.close();
    err.close();
    writeResult(log);
    return log;
}

QList<SetupLog> logs(const QString &workspace, const QString &cluster, const QString &node)
{
    QList<SetupLog> found;
    const QDir root(logDirectory(workspace, cluster));
    const QStringList nodes = node.isEmpty() ? root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name) : QStringList{node};
    for (const QString &n : nodes) {
        const QDir dir(root.filePath(n));
        for (const QString &name : dir.entryList({QStringLiteral("*-result.json")}, QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
            SetupLog log;
            log.node = n;
            log.started = QDateTime::fromString(o.value("started").toString(), Qt::ISODateWithMs);
            log.ended = QDateTime::fromString(o.value("ended").toString(), Qt::ISODateWithMs);
            if (o.contains("exitCode"))
                log.exitCode = o.value("exitCode").toInt();
            log.error = o.value("error").toString();
            const QString prefix = dir.filePath(name.left(name.size() - int(qstrlen("-result.json"))));
            log.stdOutPath = prefix + QStringLiteral("-stdout.txt");
            log.stdErrPath = prefix + QStringLiteral("-stderr.txt");
            found.append(log);
        }
    }
    std::sort(found.begin(), found.end(), [](const SetupLog &a, const SetupLog &b) { return a.started > b.started; });
    return found;
}

QString failureSummary(const QList<SetupLog> &runs)
{
    QStringList failed;
    for (const SetupLog &run : runs) {
        if (!run.succeeded())
            failed << QStringLiteral("node %1: %2").arg(run.node, run.failure());
    }
    return failed.join(QStringLiteral("; "));
}

} // namespace TrainDesk::SetupTask

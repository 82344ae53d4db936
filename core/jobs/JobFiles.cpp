#include "JobFiles.h"

#include "cluster/TransportFactory.h"
#include "common/PathConfinement.h"
#include "common/ShellQuote.h"
#include "store/Store.h"

#include <QRegularExpression>

namespace TrainDesk {

Result<std::shared_ptr<Transport>> JobFiles::headTransport(const Job &job)
{
    if (job.jobDir.isEmpty())
        return fail(QStringLiteral("job '%1' has not started: it has no files yet").arg(job.name));
    return openHeadTransport(m_store, job);
}

Result<QList<RemoteFileInfo>> JobFiles::listFiles(const Job &job, const QString &directory)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    if (directory.contains(QLatin1String("..")))
        return fail(QStringLiteral("directory '%1' is outside the job directory").arg(directory));
    // Resolved on the node: a link (the job may make any) must not lead the listing out.
    const QString path = job.jobDir + QLatin1Char('/') + directory;
    const auto resolved = (*transport)->exec(PathConfinement::confinedCommand(job.jobDir, path), 30000);
    if (!resolved)
        return resolved.failure();
    if (resolved->exitCode == 3)
        return fail(QStringLiteral("%1 of job '%2' leads out of the job directory (to %3): refused")
                        .arg(directory, job.name, QString::fromUtf8(resolved->stdOut)));
    return (*transport)->list(path);
}

bool JobFiles::isSymbolicLink(const Job &job, const QString &relativePath)
{
    auto transport = headTransport(job);
    if (!transport)
        return false;
    const auto test = (*transport)->exec(QStringLiteral("test -L %1").arg(shellQuote(job.jobDir + QLatin1Char('/') + relativePath)), 15000);
    return test && test->exitCode == 0;
}

Result<QStringList> JobFiles::linksUnder(const Job &job, const QString &relativePath, const QString &shownAs)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    const QString path = job.jobDir + QLatin1Char('/') + relativePath;
    // find does not follow links (-P): a link is listed, never entered.
    const auto found = (*transport)->exec(QStringLiteral("p=$(%1) || { printf '%s' \"$p\"; exit 3; }; "
                                                         "find %2 -type l -print0")
                                              .arg(PathConfinement::confinedCommand(job.jobDir, path), shellQuote(path)),
                                          60000);
    if (!found)
        return found.failure();
    if (found->exitCode == 3)
        return fail(QStringLiteral("%1 of job '%2' leads out of the job directory (to %3): refused")
                        .arg(shownAs.isEmpty() ? relativePath : shownAs, job.name, QString::fromUtf8(found->stdOut)));
    if (found->exitCode != 0)
        return fail(QStringLiteral("node %1: cannot look for links under %2: %3")
                        .arg((*transport)->nodeName(), path, QString::fromLocal8Bit(found->stdErr).trimmed()));
    QStringList links;
    for (const QByteArray &entry : found->stdOut.split('\0')) {
        const QString link = QString::fromUtf8(entry);
        if (link.startsWith(job.jobDir + QLatin1Char('/')))
            links << link.mid(job.jobDir.size() + 1);
    }
    return links;
}

QString JobFiles::executionLogPath(const Job &job, int nodeIndex) const
{
    const auto cluster = m_store.clusterById(job.clusterId);
    const QString node = cluster && cluster->kind == ClusterKind::Slurm ? QStringLiteral("node-%1").arg(nodeIndex)
                                                                        : job.nodes.value(nodeIndex);
    return QStringLiteral("stdouterr/execution-%1.log").arg(node);
}

bool JobFiles::isWrittenLater(const QString &name)
{
    static const QRegularExpression later(QStringLiteral(
        "^(stdout\\.txt|stderr\\.txt|metrics\\.jsonl|execution-.+\\.log|std(out|err)-job_prep-.+\\.txt|slurm-\\d+\\.txt|"
        "std(out|err)-((wk|ps)-)?\\d+\\.txt)$"));
    return later.match(name).hasMatch();
}

Result<QByteArray> JobFiles::readFile(const Job &job, const QString &relativePath, qint64 offset, qint64 maxBytes)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    if (relativePath.contains(QLatin1String("..")))
        return fail(QStringLiteral("file '%1' is outside the job directory").arg(relativePath));
    return (*transport)->readAt(job.jobDir + QLatin1Char('/') + relativePath, offset, maxBytes);
}

} // namespace TrainDesk

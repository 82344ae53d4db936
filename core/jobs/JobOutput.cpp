#include "JobOutput.h"

#include "common/SafeFiles.h"
#include "common/ShellQuote.h"

#include <QRegularExpression>

#include "ScalarIngest.h"
#include "metrics/KerasProgressParser.h"
#include "store/Store.h"
#include "cluster/TransportFactory.h"

namespace TrainDesk {

namespace {
constexpr qint64 readChunk = 4 * 1024 * 1024;
}

JobOutput::JobOutput(Store &store) : m_store(store), m_scalars(std::make_unique<ScalarIngest>(store)) {}

JobOutput::~JobOutput() = default;

Result<std::shared_ptr<Transport>> JobOutput::headTransport(const Job &job)
{
    if (job.jobDir.isEmpty())
        return fail(QStringLiteral("job '%1' has not started: it has no files yet").arg(job.name));
    return openHeadTransport(m_store, job);
}

Result<int> JobOutput::ingestMetrics(const Job &job, bool *storeFailed)
{
    bool ignored = false;
    if (!storeFailed)
        storeFailed = &ignored;
    *storeFailed = false;
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    // The bundled trainer (and anything else that writes metrics.jsonl) also prints
    // Keras-like text: read only the metrics file then, never both.
    const bool trainer = job.spec.contains("traindesk-trainer")
        || (*transport)->stat(job.jobDir + QStringLiteral("/stdouterr/") + metricsFileName());
    const auto records = trainer ? ingestTrainerMetrics(job, **transport, storeFailed)
                                 : ingestKerasProgress(job, **transport, storeFailed);
    if (!records || (storeFailed && *storeFailed))
        return records;
    // The named scalars of the job's own script: TensorBoard files, progress lines.
    const auto scalars = m_scalars->ingest(job, **transport, !trainer);
    if (!scalars)
        return scalars.failure();
    return *records + *scalars;
}

namespace {
const QString waitingMessage = QStringLiteral("the data directory's disk is full (no space left on device in %1): the "
                                              "job's metrics are not stored yet");
}

JobError JobOutput::metricsWaitingError(const QString &dataDirectory)
{
    return JobError{QStringLiteral("DiskFull"), waitingMessage.arg(dataDirectory),
                    {QStringLiteral("nothing is lost: the records wait in the job's files and are stored, each once, when "
                                    "space returns (free some space in %1)").arg(dataDirectory)}};
}

bool JobOutput::isMetricsWaiting(const JobError &error)
{
    return error.code == QLatin1String("DiskFull") && error.message.startsWith(waitingMessage.section(QLatin1Char('%'), 0, 0));
}

Result<int> JobOutput::ingestFile(const Job &job, Transport &transport, const QString &file,
                                  const std::function<Parsed(const QByteArray &chunk)> &parse, bool *storeFailed)
{
    const QString path = job.jobDir + QStringLiteral("/stdouterr/") + file;
    int total = 0;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const qint64 offset = m_store.jobFileOffset(job.id, file);
        const auto chunk = transport.readAt(path, offset, readChunk);
        if (!chunk)
            return transport.stat(path) ? Result<int>(chunk.failure()) : Result<int>(total);  // not written yet
        // Only whole lines: the writer may be half-way through the last one.
        const Parsed parsed = parse(*chunk);
        if (parsed.consumed == 0)
            return total;
        const auto stored = m_store.appendJobOutput(job.id, file, offset, offset + parsed.consumed, parsed.records,
                                                    parsed.state);
        if (!stored) {
            *storeFailed = true;
            return stored.failure();
        }
        // (false: another reader stored this chunk first; the loop goes on from its offset.)
        if (*stored)
            total += parsed.records.size();
        if (*stored && chunk->size() < readChunk)
            return total;
    }
    return total;
}

Result<int> JobOutput::ingestTrainerMetrics(const Job &job, Transport &transport, bool *storeFailed)
{
    return ingestFile(job, transport, metricsFileName(), [](const QByteArray &chunk) {
        Parsed parsed;
        const qsizetype end = chunk.lastIndexOf('\n');
        if (end < 0)
            return parsed;
        for (const QByteArray &line : chunk.left(end).split('\n')) {
            const QByteArray trimmed = line.trimmed();
            if (!trimmed.isEmpty() && MetricRecord::fromJson(trimmed))
                parsed.records.append(trimmed);
        }
        parsed.consumed = end + 1;
        return parsed;
    }, storeFailed);
}

Result<int> JobOutput::ingestKerasProgress(const Job &job, Transport &transport, bool *storeFailed)
{
    const QString file = QStringLiteral("stdout.txt");
    return ingestFile(job, transport, file, [&](const QByteArray &chunk) {
        Parsed parsed;
        const qsizetype length = KerasProgressParser::wholeLinesLength(chunk);
        if (length == 0)
            return parsed;
        // Every rank's epoch is carried over with the offset, so the file can be read in pieces.
        KerasProgressParser parser;
        if (const QByteArray state = m_store.jobFileReaderState(job.id, file); !state.isEmpty())
            parser.setState(state);
        else if (const auto last = MetricRecord::fromJson(m_store.lastJobMetric(job.id)); last && last->epoch > 0)
            parser.setEpoch(last->epoch);  // read by a TrainDesk before schema 6: rank 0's epoch only
        parsed.records = parser.parse(chunk.left(length));
        parsed.consumed = length;
        parsed.state = parser.state();
        return parsed;
    }, storeFailed);
}

Result<QList<RemoteFileInfo>> JobOutput::listFiles(const Job &job, const QString &directory)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    if (directory.contains(QLatin1String("..")))
        return fail(QStringLiteral("directory '%1' is outside the job directory").arg(directory));
    // Resolved on the node: a link (the job may make any) must not lead the listing out.
    const QString path = job.jobDir + QLatin1Char('/') + directory;
    const auto resolved = (*transport)->exec(SafeFiles::confinedCommand(job.jobDir, path), 30000);
    if (!resolved)
        return resolved.failure();
    if (resolved->exitCode == 3)
        return fail(QStringLiteral("%1 of job '%2' leads out of the job directory (to %3): refused")
                        .arg(directory, job.name, QString::fromUtf8(resolved->stdOut)));
    return (*transport)->list(path);
}

bool JobOutput::isSymbolicLink(const Job &job, const QString &relativePath)
{
    auto transport = headTransport(job);
    if (!transport)
        return false;
    const auto test = (*transport)->exec(QStringLiteral("test -L %1").arg(shellQuote(job.jobDir + QLatin1Char('/') + relativePath)), 15000);
    return test && test->exitCode == 0;
}

Result<QStringList> JobOutput::linksUnder(const Job &job, const QString &relativePath, const QString &shownAs)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    const QString path = job.jobDir + QLatin1Char('/') + relativePath;
    // find does not follow links (-P): a link is listed, never entered.
    const auto found = (*transport)->exec(QStringLiteral("p=$(%1) || { printf '%s' \"$p\"; exit 3; }; "
                                                         "find %2 -type l -print0")
                                              .arg(SafeFiles::confinedCommand(job.jobDir, path), shellQuote(path)),
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

QString JobOutput::executionLogPath(const Job &job, int nodeIndex) const
{
    const auto cluster = m_store.clusterById(job.clusterId);
    const QString node = cluster && cluster->kind == ClusterKind::Slurm ? QStringLiteral("node-%1").arg(nodeIndex)
                                                                        : job.nodes.value(nodeIndex);
    return QStringLiteral("stdouterr/execution-%1.log").arg(node);
}

bool JobOutput::isWrittenLater(const QString &name)
{
    static const QRegularExpression later(QStringLiteral(
        "^(stdout\\.txt|stderr\\.txt|metrics\\.jsonl|execution-.+\\.log|std(out|err)-job_prep-.+\\.txt|slurm-\\d+\\.txt|"
        "std(out|err)-((wk|ps)-)?\\d+\\.txt)$"));
    return later.match(name).hasMatch();
}

Result<QByteArray> JobOutput::readFile(const Job &job, const QString &relativePath, qint64 offset, qint64 maxBytes)
{
    auto transport = headTransport(job);
    if (!transport)
        return transport.failure();
    if (relativePath.contains(QLatin1String("..")))
        return fail(QStringLiteral("file '%1' is outside the job directory").arg(relativePath));
    return (*transport)->readAt(job.jobDir + QLatin1Char('/') + relativePath, offset, maxBytes);
}

} // namespace TrainDesk

#include "JobOutput.h"

#include "JobFiles.h"
#include "ScalarIngest.h"
#include "metrics/KerasProgressParser.h"
#include "store/Store.h"

namespace TrainDesk {

JobOutput::JobOutput(Store &store) : m_store(store), m_scalars(std::make_unique<ScalarIngest>(store)) {}

JobOutput::~JobOutput() = default;

Result<int> JobOutput::ingestMetrics(const Job &job, bool *storeFailed)
{
    bool ignored = false;
    if (!storeFailed)
        storeFailed = &ignored;
    *storeFailed = false;
    auto transport = JobFiles(m_store).headTransport(job);
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
    const auto scalars = m_scalars->ingest(job, **transport, !trainer, storeFailed);
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

Result<int> JobOutput::ingestTrainerMetrics(const Job &job, Transport &transport, bool *storeFailed)
{
    return ingestFile(job, transport, metricsFileName(), [](const QByteArray &chunk, qint64) {
        OffsetIngest::Chunk parsed;
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
    return ingestFile(job, transport, file, [&](const QByteArray &chunk, qint64) {
        OffsetIngest::Chunk parsed;
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

} // namespace TrainDesk

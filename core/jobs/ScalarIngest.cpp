#include "ScalarIngest.h"

#include "common/ShellQuote.h"
#include "launch/LaunchPlan.h"
#include "launch/TaskOutputs.h"
#include "metrics/KerasProgressParser.h"
#include "metrics/TextScalarParser.h"
#include "metrics/TfEventsReader.h"
#include "store/Store.h"
#include "transport/Transport.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace TrainDesk {

namespace {
constexpr qint64 readChunk = 4 * 1024 * 1024;
constexpr qint64 scanIntervalMs = 3000;
}

ScalarIngest::ScalarIngest(Store &store) : m_store(store) {}

const ScalarIngest::Found &ScalarIngest::discover(const Job &job, Transport &transport)
{
    Found &found = m_found[job.id];
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // A finished job is looked at once more: files its last moments wrote.
    if (found.scannedAtMs >= 0 && now - found.scannedAtMs < scanIntervalMs && !isFinished(job.state))
        return found;
    found.scannedAtMs = now;
    // find does not follow links: a link the job made cannot lead the reading elsewhere.
    const QString command =
        QStringLiteral("cd %1 || exit 0; grep -q '^follow_output()' launch.sh 2>/dev/null && echo 'F -'; for f in stdouterr/stdout-*.txt; do [ -f \"$f\" ] && [ ! -L \"$f\" ] && printf 'T %s\\n' \"$f\"; "
                       "done; { echo .; cat %2 2>/dev/null; } | while IFS= read -r d; do [ -n \"$d\" ] && find \"$d\" -type f "
                       "-name 'events.out.tfevents.*' 2>/dev/null; done | sed 's/^/E /'")
            .arg(shellQuote(job.jobDir), LaunchPlan::outputDirectoriesFileName());
    const auto listed = transport.exec(command, 30000);
    if (!listed || listed->exitCode != 0)
        return found;  // tried again at the next scan; what was found stays
    for (const QString &line : QString::fromUtf8(listed->stdOut).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('F'))) {
            found.taskFiles = true;
            continue;
        }
        QString path = line.mid(2);
        if (path.startsWith(QLatin1String("./")))
            path = path.mid(2);
        else if (path.startsWith(job.jobDir + QLatin1Char('/')))
            path = path.mid(job.jobDir.size() + 1);
        QStringList &list = line.startsWith(QLatin1Char('T')) ? found.textFiles : found.eventFiles;
        if (line.startsWith(QLatin1Char('T')) && !TaskOutputs::isTaskFile(path.section(QLatin1Char('/'), -1)))
            continue;  // stdout-job_prep-<node>.txt
        if (!list.contains(path))
            list << path;
    }
    return found;
}

Result<int> ScalarIngest::ingest(const Job &job, Transport &transport, bool withText)
{
    const Found found = discover(job, transport);
    int total = 0;
    QStringList problems;
    for (const QString &file : found.eventFiles) {
        const auto read = readEvents(job, transport, file);
        if (read)
            total += *read;
        else
            problems << read.error();
    }
    if (withText) {
        // The tasks' own files when the launch writes them (they appear with their first
        // line), else the combined stdout.txt, whose tags say the rank.
        const QStringList textFiles = found.taskFiles ? found.textFiles : QStringList{QStringLiteral("stdouterr/stdout.txt")};
        for (const QString &file : textFiles) {
            const auto read = readText(job, transport, file);
            if (read)
                total += *read;
            else
                problems << read.error();
        }
    }
    if (!problems.isEmpty())
        return fail(problems.join(QLatin1Char('\n')));
    return total;
}

Result<int> ScalarIngest::readEvents(const Job &job, Transport &transport, const QString &file)
{
    const QString key = storeKey(file);
    if (!m_store.jobFileReaderState(job.id, key).isEmpty())
        return 0;  // damaged: named once, not read again
    const QString path = file.startsWith(QLatin1Char('/')) ? file : job.jobDir + QLatin1Char('/') + file;
    int total = 0;
    qint64 want = readChunk;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const qint64 offset = m_store.jobFileOffset(job.id, key);
        const auto data = transport.readAt(path, offset, want);
        if (!data)
            return transport.stat(path) ? Result<int>(data.failure()) : Result<int>(total);  // gone meanwhile
        const TfEventsReader::Chunk chunk = TfEventsReader::read(*data, offset, file);
        QList<QByteArray> records;
        for (const ScalarPoint &p : chunk.points)
            records << p.toJson();
        QByteArray state;
        if (!chunk.error.isEmpty()) {
            records << QJsonDocument(QJsonObject{{"time", QDateTime::currentMSecsSinceEpoch() / 1000.0}, {"kind", "error"},
                                                 {"file", file}, {"offset", double(chunk.errorOffset)},
                                                 {"message", chunk.error}})
                           .toJson(QJsonDocument::Compact);
            state = QJsonDocument(QJsonObject{{"error", chunk.error}}).toJson(QJsonDocument::Compact);
        }
        if (chunk.consumed == 0 && state.isEmpty()) {
            // A record larger than one read: read it whole next time round.
            if (chunk.nextRecordSize > want && data->size() == want) {
                want = chunk.nextRecordSize;
                continue;
            }
            return total;
        }
        const auto stored = m_store.appendJobOutput(job.id, key, offset, offset + chunk.consumed, records, state);
        if (!stored)
            return stored.failure();
        if (*stored)
            total += int(chunk.points.size());
        if (!state.isEmpty() || (*stored && data->size() < want))
            return total;
        want = readChunk;
    }
    return total;
}

Result<int> ScalarIngest::readText(const Job &job, Transport &transport, const QString &file)
{
    const QString key = storeKey(file);
    const QString path = job.jobDir + QLatin1Char('/') + file;
    const int rank = TaskOutputs::taskIndexOf(file.section(QLatin1Char('/'), -1));
    int total = 0;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const qint64 offset = m_store.jobFileOffset(job.id, key);
        const auto chunk = transport.readAt(path, offset, readChunk);
        if (!chunk)
            return transport.stat(path) ? Result<int>(chunk.failure()) : Result<int>(total);  // not written yet
        const qsizetype length = KerasProgressParser::wholeLinesLength(*chunk);
        if (length == 0)
            return total;
        TextScalarParser parser(file, rank);
        parser.setState(m_store.jobFileReaderState(job.id, key));
        QList<QByteArray> records;
        for (const ScalarPoint &p : parser.parse(chunk->left(length)))
            records << p.toJson();
        const auto stored = m_store.appendJobOutput(job.id, key, offset, offset + length, records, parser.state());
        if (!stored)
            return stored.failure();
        if (*stored)
            total += int(records.size());
        if (*stored && chunk->size() < readChunk)
            return total;
    }
    return total;
}

} // namespace TrainDesk

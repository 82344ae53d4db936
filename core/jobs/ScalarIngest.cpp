#include "ScalarIngest.h"

#include "OffsetIngest.h"

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
                       "-name %3 2>/dev/null; done | sed 's/^/E /'")
            .arg(shellQuote(job.jobDir), LaunchPlan::outputDirectoriesFileName(), shellQuote(TfEventsReader::findPattern()));
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

Result<int> ScalarIngest::ingest(const Job &job, Transport &transport, bool withText, bool *storeFailed)
{
    const Found found = discover(job, transport);
    int total = 0;
    QStringList problems;
    for (const QString &file : found.eventFiles) {
        const auto read = readEvents(job, transport, file, storeFailed);
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
            const auto read = readText(job, transport, file, storeFailed);
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

Result<int> ScalarIngest::readEvents(const Job &job, Transport &transport, const QString &file, bool *storeFailed)
{
    const QString key = storeKey(file);
    if (!m_store.jobFileReaderState(job.id, key).isEmpty())
        return 0;  // damaged: named once, not read again
    const QString path = file.startsWith(QLatin1Char('/')) ? file : job.jobDir + QLatin1Char('/') + file;
    return OffsetIngest::ingest(m_store, job, transport, path, key, [&file](const QByteArray &data, qint64 offset) {
        const TfEventsReader::Chunk events = TfEventsReader::read(data, offset, file);
        OffsetIngest::Chunk chunk;
        chunk.consumed = events.consumed;
        chunk.nextRecordSize = events.nextRecordSize;
        for (const ScalarPoint &p : events.points)
            chunk.records << p.toJson();
        chunk.counted = int(events.points.size());
        if (!events.error.isEmpty()) {
            // The damage is stored as an error record, and the file is not read again.
            chunk.records << QJsonDocument(QJsonObject{{"time", QDateTime::currentMSecsSinceEpoch() / 1000.0},
                                                       {"kind", "error"}, {"file", file},
                                                       {"offset", double(events.errorOffset)}, {"message", events.error}})
                                 .toJson(QJsonDocument::Compact);
            chunk.state = QJsonDocument(QJsonObject{{"error", events.error}}).toJson(QJsonDocument::Compact);
            chunk.last = true;
        }
        return chunk;
    }, storeFailed, OffsetIngest::Framing::Records);
}

Result<int> ScalarIngest::readText(const Job &job, Transport &transport, const QString &file, bool *storeFailed)
{
    const QString key = storeKey(file);
    const int rank = TaskOutputs::taskIndexOf(file.section(QLatin1Char('/'), -1));
    return OffsetIngest::ingest(m_store, job, transport, job.jobDir + QLatin1Char('/') + file, key,
                                [&](const QByteArray &data, qint64) {
        OffsetIngest::Chunk chunk;
        const qsizetype length = KerasProgressParser::wholeLinesLength(data);
        if (length == 0)
            return chunk;
        TextScalarParser parser(file, rank);
        parser.setState(m_store.jobFileReaderState(job.id, key));
        for (const ScalarPoint &p : parser.parse(data.left(length)))
            chunk.records << p.toJson();
        chunk.consumed = length;
        chunk.state = parser.state();
        return chunk;
    }, storeFailed);
}

} // namespace TrainDesk

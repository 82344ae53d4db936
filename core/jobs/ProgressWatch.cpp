#include "ProgressWatch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace TrainDesk {

namespace {
// A look reads at most this much of each file; a flood past it counts as output of
// every rank it shows, the rest is skipped.
constexpr qint64 readCap = 4 * 1024 * 1024;
}

int ProgressWatch::rankOfLine(const QByteArray &line)
{
    static const QRegularExpression tag(QStringLiteral("^\\[\\d+,(\\d+)\\]<std(out|err)>:"));
    const auto m = tag.match(QString::fromLatin1(line.left(40)));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QList<int> ProgressWatch::trainerSilentRanks(const QByteArray &text)
{
    static const QRegularExpression peer(QStringLiteral("silent rank\\(s\\): ([0-9, ]+)"));
    QList<int> ranks;
    auto it = peer.globalMatch(QString::fromUtf8(text));
    while (it.hasNext()) {
        for (const QString &r : it.next().captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (const int rank = r.trimmed().toInt(); !ranks.contains(rank))
                ranks << rank;
        }
    }
    return ranks;
}

void ProgressWatch::readNew(Watched &w, const Job &job, Transport &head, const QDateTime &now)
{
    for (const QString &file : {QStringLiteral("stdout.txt"), QStringLiteral("stderr.txt")}) {
        const QString path = job.jobDir + QStringLiteral("/stdouterr/") + file;
        const auto info = head.stat(path);
        if (!info)
            continue;
        qint64 &offset = w.offsets[file];
        if (info->size <= offset)
            continue;
        const qint64 from = std::max(offset, info->size - readCap);
        const auto chunk = head.readAt(path, from, info->size - from);
        if (!chunk)
            continue;
        // Only whole lines: a rank half-way through one has printed all the same.
        const qsizetype end = chunk->lastIndexOf('\n');
        const QByteArray whole = end < 0 ? *chunk : chunk->left(end + 1);
        w.lastProgress = now;
        for (const QByteArray &line : whole.split('\n')) {
            if (line.isEmpty())
                continue;
            if (const int rank = rankOfLine(line); rank >= 0)
                w.rankLast[rank] = now;
        }
        if (const QList<int> named = trainerSilentRanks(whole); !named.isEmpty())
            w.trainerSilent = named;
        offset = from + (end < 0 ? chunk->size() : end + 1);
    }
}

std::optional<ProgressWatch::Silence> ProgressWatch::look(const Job &job, Transport &head, qint64 lastMetricId,
                                                          qint64 timeoutSeconds, const QDateTime &now, bool *looked)
{
    if (looked)
        *looked = false;
    Watched &w = m_jobs[job.id];
    if (w.uuid != job.uuid) {
        // A new job or attempt: everyone counts as heard from at its start.
        w = Watched{};
        w.uuid = job.uuid;
        w.lastProgress = job.started.isValid() ? job.started : now;
    }
    if (w.lastLook.isValid() && w.lastLook.msecsTo(now) < lookIntervalMs && w.trainerSilent.isEmpty())
        return std::nullopt;
    w.lastLook = now;
    if (looked)
        *looked = true;
    readNew(w, job, head, now);
    if (lastMetricId != w.lastMetricId) {
        if (w.lastMetricId >= 0)
            w.lastProgress = now;
        w.lastMetricId = lastMetricId;
    }
    const qint64 quiet = w.lastProgress.secsTo(now);
    if (w.trainerSilent.isEmpty() && quiet < timeoutSeconds)
        return std::nullopt;
    Silence s;
    s.seconds = quiet;
    s.timeoutSeconds = timeoutSeconds;
    s.fromTrainer = !w.trainerSilent.isEmpty();
    const int rankCount = std::max<int>(int(job.rankNodes.size()), 1);
    for (int rank = 0; rank < rankCount; ++rank) {
        if (s.fromTrainer && !w.trainerSilent.contains(rank))
            continue;
        const QDateTime last = w.rankLast.value(rank, job.started.isValid() ? job.started : now);
        s.ranks.append({rank, job.rankNodes.value(rank, job.nodes.value(0)), last.secsTo(now)});
    }
    std::stable_sort(s.ranks.begin(), s.ranks.end(), [](const SilentRank &a, const SilentRank &b) { return a.seconds > b.seconds; });
    return s;
}

QString ProgressWatch::Silence::text() const
{
    QStringList parts;
    for (const SilentRank &r : ranks)
        parts << QStringLiteral("rank %1 on %2 (quiet %3 s)").arg(r.rank).arg(r.node).arg(r.seconds);
    if (fromTrainer)
        return QStringLiteral("the trainer's peer time-out named the silent rank(s): %1").arg(parts.join(QStringLiteral(", ")));
    return QStringLiteral("no output and no metric for %1 s (progress timeout %2 s); silent ranks, the longest first: %3")
        .arg(seconds).arg(timeoutSeconds).arg(parts.join(QStringLiteral(", ")));
}

QByteArray ProgressWatch::Silence::toJson() const
{
    QJsonArray array;
    for (const SilentRank &r : ranks)
        array.append(QJsonObject{{"rank", r.rank}, {"node", r.node}, {"silentSeconds", r.seconds}});
    return QJsonDocument(QJsonObject{{"seconds", seconds}, {"timeoutSeconds", timeoutSeconds}, {"fromTrainer", fromTrainer},
                                     {"ranks", array}, {"text", text()}})
        .toJson(QJsonDocument::Compact);
}

std::optional<ProgressWatch::Silence> ProgressWatch::Silence::fromJson(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (o.isEmpty())
        return std::nullopt;
    Silence s;
    s.seconds = o.value("seconds").toInteger();
    s.timeoutSeconds = o.value("timeoutSeconds").toInteger();
    s.fromTrainer = o.value("fromTrainer").toBool();
    for (const QJsonValue &v : o.value("ranks").toArray()) {
        const QJsonObject r = v.toObject();
        s.ranks.append({r.value("rank").toInt(), r.value("node").toString(), r.value("silentSeconds").toInteger()});
    }
    return s;
}

} // namespace TrainDesk

#include "MetricSeries.h"

#include "metrics/MetricCsv.h"
#include "metrics/ResumedAttempt.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace TrainDesk::Ui {

MetricSeries::MetricSeries(QObject *parent) : QObject(parent) {}

void MetricSeries::append(const QList<MetricRecord> &records)
{
    if (records.isEmpty())
        return;
    // A retried job's next attempt resumes at the epoch after its checkpoint, below the
    // steps already drawn: from that epoch on, the new attempt's records replace the old
    // (metrics/ResumedAttempt, the rule the store applies to the stored rows).
    const QList<qsizetype> &trains = membersOf(trainKey);
    if (const auto resumed = ResumedAttempt::resumption(records, trains.isEmpty() ? -1 : m_rows.at(trains.last()).globalStep)) {
        reset(ResumedAttempt::withoutReplaced(this->records() + records.mid(0, resumed->from), resumed->epoch)
              + records.mid(resumed->from));
        return;
    }
    if (m_rows.isEmpty()) {
        // A run read at once (an overlaid run from the store): exactly its size, no slack.
        m_rows.reserve(records.size());
        m_kinds.reserve(records.size());
    }
    for (const MetricRecord &r : records) {
        if (std::isnan(m_startTime) && !std::isnan(r.time) && r.time > 0)
            m_startTime = r.time;
        Kind kind = Kind::Other;
        const qsizetype position = m_rows.size();
        if (r.kind == QLatin1String("train")) {
            kind = Kind::Train;
            m_members[trainKey].append(position);
            qint64 &maxStep = m_maxStepOfEpoch[r.epoch];
            maxStep = std::max(maxStep, r.step);
        } else if (r.kind == QLatin1String("val")) {
            kind = Kind::Val;
            m_members[valKey].append(position);
        } else if (r.kind == QLatin1String("rank") && r.rank >= 0) {
            kind = Kind::Rank;
            m_members[r.rank].append(position);
        } else if (r.kind == QLatin1String("done")) {
            m_done = true;
        }
        m_lastEpoch = std::max(m_lastEpoch, r.epoch);
        const bool plain = isPlainTrain(r);
        m_rows.append(Row{r.time, r.globalStep, r.step, r.loss, r.acc, r.lr, r.imagesPerSec, r.epoch,
                          plain ? -1 : qint32(m_full.size())});
        if (!plain)
            m_full.append(r);
        m_kinds.append(kind);
    }
    Q_EMIT changed();
}

void MetricSeries::reset(const QList<MetricRecord> &records)
{
    m_rows.clear();
    m_full.clear();
    m_recordsMade.clear();
    m_kinds.clear();
    m_maxStepOfEpoch.clear();
    m_cache.clear();
    m_members.clear();
    m_startTime = NAN;
    m_lastEpoch = -1;
    m_done = false;
    append(records);
    if (records.isEmpty())
        Q_EMIT changed();
}

qint64 MetricSeries::stepsPerEpoch() const
{
    // The last step of an epoch the trainer finished (it always logs the last step), else
    // the furthest step seen so far.
    qint64 finished = 0;
    for (auto it = m_maxStepOfEpoch.cbegin(); it != m_maxStepOfEpoch.cend() && it.key() < m_lastEpoch; ++it)
        finished = std::max(finished, it.value());
    if (finished > 0)
        return finished;
    return m_maxStepOfEpoch.isEmpty() ? 0 : std::max<qint64>(0, m_maxStepOfEpoch.last());
}

QList<int> MetricSeries::ranks() const
{
    QList<int> result;
    for (auto it = m_members.lowerBound(0); it != m_members.cend(); ++it)
        result.append(it.key());
    if (!result.isEmpty() && result.first() != 0 && trainPointCount() > 0)
        result.prepend(0);
    return result;
}

bool MetricSeries::isPlainTrain(const MetricRecord &r)
{
    // Only what a Row rebuilds exactly: the kind "train" and the Row's fields, every other
    // field at its default (strings null, not just empty). The full index is 32 bits.
    return r.kind == QLatin1String("train") && r.rank == -1 && std::isnan(r.valLoss) && std::isnan(r.valAcc)
        && std::isnan(r.seconds) && r.workers == -1 && r.epochs == -1 && r.startEpoch == -1 && r.stepsPerEpoch == -1
        && r.name.isNull() && std::isnan(r.value) && r.source.isNull() && r.file.isNull() && r.tag.isNull()
        && std::isnan(r.epochValue) && !r.extra;
}

MetricRecord MetricSeries::record(qsizetype i) const
{
    const Row &row = m_rows.at(i);
    if (row.full >= 0)
        return m_full.at(row.full);
    static const QString train = QStringLiteral("train");
    MetricRecord r;
    r.time = row.time;
    r.kind = train;
    r.epoch = row.epoch;
    r.step = row.step;
    r.globalStep = row.globalStep;
    r.loss = row.loss;
    r.acc = row.acc;
    r.lr = row.lr;
    r.imagesPerSec = row.imagesPerSec;
    return r;
}

const QList<MetricRecord> &MetricSeries::records() const
{
    // Extended, not made again: its readers (ScalarSeriesIndex) read on where they stopped.
    if (m_recordsMade.size() > m_rows.size())
        m_recordsMade.clear();
    if (m_recordsMade.isEmpty())
        m_recordsMade.reserve(m_rows.size());
    for (qsizetype i = m_recordsMade.size(); i < m_rows.size(); ++i)
        m_recordsMade.append(record(i));
    return m_recordsMade;
}

double MetricSeries::valueOf(const Row &r, Metric metric) const
{
    if (r.full >= 0) {
        const MetricRecord &full = m_full.at(r.full);
        switch (metric) {
        case Metric::TrainLoss: return full.loss;
        case Metric::TrainAcc: return full.acc;
        case Metric::ValLoss: return full.valLoss;
        case Metric::ValAcc: return full.valAcc;
        case Metric::LearningRate: return full.lr;
        case Metric::Throughput: return full.imagesPerSec;
        }
        return NAN;
    }
    switch (metric) {
    case Metric::TrainLoss: return r.loss;
    case Metric::TrainAcc: return r.acc;
    case Metric::LearningRate: return r.lr;
    case Metric::Throughput: return r.imagesPerSec;
    case Metric::ValLoss:
    case Metric::ValAcc: break;  // a plain train record has none
    }
    return NAN;
}

double MetricSeries::xOf(const Row &r, Kind kind, XAxis x, qint64 stepsPerEpoch) const
{
    switch (x) {
    case XAxis::Step:
        return double(r.globalStep);
    case XAxis::Time:
        return std::isnan(m_startTime) || std::isnan(r.time) ? NAN : r.time - m_startTime;
    case XAxis::Epoch:
        break;
    }
    if ((kind != Kind::Train && kind != Kind::Rank) || stepsPerEpoch <= 0 || r.step < 0)
        return double(r.epoch);
    return double(r.epoch - 1) + double(r.step) / double(stepsPerEpoch);
}

const QList<qsizetype> &MetricSeries::membersOf(int key) const
{
    static const QList<qsizetype> none;
    const auto it = m_members.constFind(key);
    return it == m_members.cend() ? none : it.value();
}

int MetricSeries::seriesRank(int rank) const
{
    // Rank 0 without records of its own (a Keras job): the job's series is rank 0's.
    return rank == 0 && !m_members.contains(0) ? jobSeries : rank;
}

MetricSeries::Cached &MetricSeries::cacheOf(Metric metric, XAxis x, int rank) const
{
    rank = seriesRank(rank);
    Cached &c = m_cache[(rank + 1) * 64 + int(metric) * 8 + int(x)];
    // Epoch positions depend on the steps per epoch: when that changes, start again.
    const qint64 steps = x == XAxis::Epoch ? stepsPerEpoch() : 0;
    if (steps != c.steps) {
        c = Cached();
        c.steps = steps;
    }
    return c;
}

template<typename Take>
void MetricSeries::pointsFrom(Metric metric, XAxis x, int rank, qint64 steps, qsizetype from, Take take) const
{
    rank = seriesRank(rank);
    const bool train = metric == Metric::TrainLoss || metric == Metric::TrainAcc || metric == Metric::LearningRate
        || metric == Metric::Throughput;
    if (rank != jobSeries && !train)
        return;  // validation is the job's, not a rank's
    const QList<qsizetype> &members = membersOf(rank != jobSeries ? rank : train ? trainKey : valKey);
    const QList<qsizetype> &trainMembers = membersOf(trainKey);
    for (qsizetype m = from; m < members.size(); ++m) {
        const qsizetype i = members.at(m);
        const Row &r = m_rows.at(i);
        const double y = valueOf(r, metric);
        double xv = xOf(r, m_kinds.at(i), x, steps);
        // Older trainers wrote val records without a step: place them after the last train point.
        if (x == XAxis::Step && r.globalStep < 0) {
            const auto before = std::lower_bound(trainMembers.cbegin(), trainMembers.cend(), i);
            xv = before == trainMembers.cbegin() ? NAN : double(m_rows.at(*(before - 1)).globalStep);
        }
        if (!std::isnan(y) && !std::isnan(xv) && std::isfinite(y))
            take(QPointF(xv, y));
    }
}

MetricSeries::Cached &MetricSeries::cached(Metric metric, XAxis x, int rank) const
{
    Cached &c = cacheOf(metric, x, rank);
    const qsizetype members = memberCount(metric, rank);
    if (c.upTo == members)
        return c;
    if (c.upTo == 0)
        c.points.reserve(members);
    pointsFrom(metric, x, rank, c.steps, c.upTo, [&c](const QPointF &p) { c.points.append(p); });
    c.upTo = members;
    return c;
}

QList<QPointF> MetricSeries::points(Metric metric, XAxis x, int rank) const
{
    return cached(metric, x, rank).points;
}

QList<QPointF> MetricSeries::smoothedPoints(Metric metric, XAxis x, double weight, int rank) const
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight <= 0)
        return points(metric, x, rank);
    Cached &c = cacheOf(metric, x, rank);
    const qsizetype members = memberCount(metric, rank);
    if (weight != c.weight || c.smoothUpTo > members) {
        c.weight = weight;
        c.smooth.clear();
        c.smoothUpTo = 0;
        c.average = 0;
        c.correction = 1;
    }
    // The same arithmetic as smoothed(), carried on from where it stopped.
    if (c.smoothUpTo == 0)
        c.smooth.reserve(members);
    pointsFrom(metric, x, rank, c.steps, c.smoothUpTo, [&c, weight](const QPointF &p) {
        c.average = weight * c.average + (1 - weight) * p.y();
        c.correction *= weight;
        c.smooth.append(QPointF(p.x(), c.average / (1 - c.correction)));
    });
    c.smoothUpTo = members;
    return c.smooth;
}

qsizetype MetricSeries::memberCount(Metric metric, int rank) const
{
    rank = seriesRank(rank);
    const bool train = metric == Metric::TrainLoss || metric == Metric::TrainAcc || metric == Metric::LearningRate
        || metric == Metric::Throughput;
    if (rank != jobSeries && !train)
        return 0;
    return membersOf(rank != jobSeries ? rank : train ? trainKey : valKey).size();
}

QList<QPointF> MetricSeries::smoothed(const QList<QPointF> &points, double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight <= 0)
        return points;
    QList<QPointF> result;
    result.reserve(points.size());
    double average = 0;
    double correction = 1;
    for (const QPointF &p : points) {
        average = weight * average + (1 - weight) * p.y();
        correction *= weight;
        result.append(QPointF(p.x(), average / (1 - correction)));
    }
    return result;
}

QList<QPointF> MetricSeries::downsampled(const QList<QPointF> &points, int maxPoints)
{
    if (maxPoints < 3 || points.size() <= maxPoints)
        return points;
    const int buckets = maxPoints / 3;
    const double perBucket = double(points.size()) / buckets;
    QList<QPointF> result;
    result.reserve(buckets * 3 + 1);
    for (int b = 0; b < buckets; ++b) {
        const qsizetype from = qsizetype(b * perBucket);
        const qsizetype to = std::min<qsizetype>(points.size(), qsizetype((b + 1) * perBucket));
        if (from >= to)
            continue;
        // Branch-free minimum and maximum: on a noisy series the branches of if/else would
        // be mispredicted about half the time.
        qsizetype lo = from, hi = from;
        double loY = points[from].y(), hiY = loY;
        for (qsizetype i = from + 1; i < to; ++i) {
            const double y = points[i].y();
            const bool lower = y < loY;
            const bool higher = y > hiY;
            lo = lower ? i : lo;
            loY = lower ? y : loY;
            hi = higher ? i : hi;
            hiY = higher ? y : hiY;
        }
        std::array<qsizetype, 3> keep{from, lo, hi};
        std::sort(keep.begin(), keep.end());
        const auto end = std::unique(keep.begin(), keep.end());
        for (auto it = keep.begin(); it != end; ++it)
            result.append(points[*it]);
    }
    if (result.last() != points.last())
        result.append(points.last());
    return result;
}

QList<QPointF> MetricSeries::clipped(const QList<QPointF> &points, double xMin, double xMax)
{
    const auto first = std::lower_bound(points.cbegin(), points.cend(), xMin,
                                         [](const QPointF &p, double x) { return p.x() < x; });
    const auto last = std::upper_bound(first, points.cend(), xMax,
                                       [](double x, const QPointF &p) { return x < p.x(); });
    const qsizetype from = std::max<qsizetype>(0, (first - points.cbegin()) - 1);
    const qsizetype to = std::min<qsizetype>(points.size(), (last - points.cbegin()) + 1);
    return from < to ? points.mid(from, to - from) : QList<QPointF>();
}

QByteArray MetricSeries::csvRows(const QString &run) const
{
    QByteArray out;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const MetricRecord r = record(i);
        if (MetricCsv::isRow(r))
            out += MetricCsv::row(run, r);
    }
    return out;
}

} // namespace TrainDesk::Ui

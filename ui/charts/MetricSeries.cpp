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
    if (const auto resumed = ResumedAttempt::resumption(records, trains.isEmpty() ? -1 : m_records.at(trains.last()).globalStep)) {
        reset(ResumedAttempt::withoutReplaced(m_records + records.mid(0, resumed->from), resumed->epoch)
              + records.mid(resumed->from));
        return;
    }
    for (const MetricRecord &r : records) {
        if (std::isnan(m_startTime) && !std::isnan(r.time) && r.time > 0)
            m_startTime = r.time;
        Kind kind = Kind::Other;
        if (r.kind == QLatin1String("train")) {
            kind = Kind::Train;
            m_members[trainKey].append(m_records.size());
            qint64 &maxStep = m_maxStepOfEpoch[r.epoch];
            maxStep = std::max(maxStep, r.step);
        } else if (r.kind == QLatin1String("val")) {
            kind = Kind::Val;
            m_members[valKey].append(m_records.size());
        } else if (r.kind == QLatin1String("rank") && r.rank >= 0) {
            kind = Kind::Rank;
            m_members[r.rank].append(m_records.size());
        } else if (r.kind == QLatin1String("done")) {
            m_done = true;
        }
        m_lastEpoch = std::max(m_lastEpoch, r.epoch);
        m_records.append(r);
        m_kinds.append(kind);
    }
    Q_EMIT changed();
}

void MetricSeries::reset(const QList<MetricRecord> &records)
{
    m_records.clear();
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

double MetricSeries::xOf(const MetricRecord &r, Kind kind, XAxis x, qint64 stepsPerEpoch) const
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

MetricSeries::Cached &MetricSeries::cached(Metric metric, XAxis x, int rank) const
{
    // Rank 0 without records of its own (a Keras job): the job's series is rank 0's.
    if (rank == 0 && !m_members.contains(0))
        rank = jobSeries;
    Cached &c = m_cache[(rank + 1) * 64 + int(metric) * 8 + int(x)];
    // Epoch positions depend on the steps per epoch: when that changes, start again.
    const qint64 steps = x == XAxis::Epoch ? stepsPerEpoch() : 0;
    if (steps != c.steps) {
        c = Cached();
        c.steps = steps;
    }
    const bool train = metric == Metric::TrainLoss || metric == Metric::TrainAcc || metric == Metric::LearningRate
        || metric == Metric::Throughput;
    if (rank != jobSeries && !train)
        return c;  // validation is the job's, not a rank's
    const QList<qsizetype> &members = membersOf(rank != jobSeries ? rank : train ? trainKey : valKey);
    if (c.upTo == members.size())
        return c;
    const QList<qsizetype> &trainMembers = membersOf(trainKey);
    c.points.reserve(c.points.size() + (members.size() - c.upTo));
    for (qsizetype m = c.upTo; m < members.size(); ++m) {
        const qsizetype i = members.at(m);
        const MetricRecord &r = m_records.at(i);
        double y = NAN;
        switch (metric) {
        case Metric::TrainLoss: y = r.loss; break;
        case Metric::TrainAcc: y = r.acc; break;
        case Metric::ValLoss: y = r.valLoss; break;
        case Metric::ValAcc: y = r.valAcc; break;
        case Metric::LearningRate: y = r.lr; break;
        case Metric::Throughput: y = r.imagesPerSec; break;
        }
        double xv = xOf(r, m_kinds.at(i), x, steps);
        // Older trainers wrote val records without a step: place them after the last train point.
        if (x == XAxis::Step && r.globalStep < 0) {
            const auto before = std::lower_bound(trainMembers.cbegin(), trainMembers.cend(), i);
            xv = before == trainMembers.cbegin() ? NAN : double(m_records.at(*(before - 1)).globalStep);
        }
        if (!std::isnan(y) && !std::isnan(xv) && std::isfinite(y))
            c.points.append(QPointF(xv, y));
    }
    c.upTo = members.size();
    return c;
}

QList<QPointF> MetricSeries::points(Metric metric, XAxis x, int rank) const
{
    return cached(metric, x, rank).points;
}

QList<QPointF> MetricSeries::smoothedPoints(Metric metric, XAxis x, double weight, int rank) const
{
    weight = std::clamp(weight, 0.0, 0.999);
    Cached &c = cached(metric, x, rank);
    if (weight <= 0)
        return c.points;
    if (weight != c.weight || c.smoothUpTo > c.points.size()) {
        c.weight = weight;
        c.smooth.clear();
        c.smoothUpTo = 0;
        c.average = 0;
        c.correction = 1;
    }
    // The same arithmetic as smoothed(), carried on from where it stopped.
    c.smooth.reserve(c.points.size());
    for (qsizetype i = c.smoothUpTo; i < c.points.size(); ++i) {
        const QPointF &p = c.points.at(i);
        c.average = weight * c.average + (1 - weight) * p.y();
        c.correction *= weight;
        c.smooth.append(QPointF(p.x(), c.average / (1 - c.correction)));
    }
    c.smoothUpTo = c.points.size();
    return c.smooth;
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
    for (const MetricRecord &r : m_records) {
        if (MetricCsv::isRow(r))
            out += MetricCsv::row(run, r);
    }
    return out;
}

} // namespace TrainDesk::Ui

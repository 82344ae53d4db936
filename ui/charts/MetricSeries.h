#pragma once

#include "metrics/MetricRecord.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointF>

namespace TrainDesk::Ui {

// A job's metrics as chart series, without widgets: training loss and accuracy against the
// global step (or seconds since the start), validation values once per epoch at the step
// where the epoch ended, and each MPI rank's own training values ("rank" records). Smoothing
// and downsampling are pure functions, so they are tested alone; changed() fires on every
// addition and the chart coalesces redraws.
class MetricSeries : public QObject
{
    Q_OBJECT

public:
    enum class Metric { TrainLoss, TrainAcc, ValLoss, ValAcc, LearningRate, Throughput };
    Q_ENUM(Metric)
    enum class XAxis { Step, Epoch, Time };
    Q_ENUM(XAxis)

    // The job's series (averaged over ranks), as opposed to one rank's.
    static constexpr int jobSeries = -1;

    explicit MetricSeries(QObject *parent = nullptr);

    void append(const QList<MetricRecord> &records);
    void reset(const QList<MetricRecord> &records = {});

    // Kept per metric, axis and rank and extended as records arrive: a redraw of a long run
    // does not walk all its records again. A rank has TrainLoss, TrainAcc and Throughput.
    QList<QPointF> points(Metric metric, XAxis x = XAxis::Step, int rank = jobSeries) const;
    // points() smoothed with smoothed(), extended the same way while the weight stays.
    QList<QPointF> smoothedPoints(Metric metric, XAxis x, double weight, int rank = jobSeries) const;
    // The ranks that reported their own values, ascending. A Keras job's rank 0 reports
    // none: its progress bar is the job's series, and stands for rank 0 too.
    QList<int> ranks() const;
    // Every record as it arrived. Made on the first call from the compact rows (and kept,
    // extended as records arrive): a run that is only drawn (an overlaid run) never holds a
    // MetricRecord per point.
    const QList<MetricRecord> &records() const;
    qsizetype recordCount() const { return m_rows.size(); }
    MetricRecord record(qsizetype i) const;
    int trainPointCount() const { return int(membersOf(trainKey).size()); }
    int lastEpoch() const { return m_lastEpoch; }
    bool finished() const { return m_done; }

    // Exponential moving average with the start-up bias removed (weight 0: raw values).
    static QList<QPointF> smoothed(const QList<QPointF> &points, double weight);
    // At most about maxPoints points: per bucket the first, the minimum and the maximum,
    // in x order, so spikes stay visible.
    static QList<QPointF> downsampled(const QList<QPointF> &points, int maxPoints);
    // The points (in x order) between xMin and xMax, with the one before and the one after,
    // so that lines run to the edges of a zoomed chart.
    static QList<QPointF> clipped(const QList<QPointF> &points, double xMin, double xMax);

    // Every train, val, epoch and rank record as rows of metrics/MetricCsv (no header),
    // naming the run `run`: what `traindesk job metrics --csv` prints of the same records.
    QByteArray csvRows(const QString &run) const;

Q_SIGNALS:
    void changed();

private:
    enum class Kind : quint8 { Other, Train, Val, Rank };
    // A record as kept: 64 bytes. A plain train record (the millions: time, steps, epoch,
    // loss, acc, lr, images/s; no rank, name or extra numbers) is all here; any other keeps
    // its MetricRecord in m_full too, at `full`.
    struct Row
    {
        double time;
        qint64 globalStep;
        qint64 step;
        double loss, acc, lr, imagesPerSec;
        qint32 epoch;
        qint32 full;  // in m_full; -1: none (a plain train record)
    };
    static_assert(sizeof(Row) == 64);
    static bool isPlainTrain(const MetricRecord &r);
    struct Cached
    {
        QList<QPointF> points;
        qsizetype upTo = 0;        // members (of m_members) looked at for `points`
        qint64 steps = -1;         // steps per epoch the points were made with
        // Smoothing state for `smooth`, made from the members [0, smoothUpTo) (not from
        // `points`: an overlaid run drawn smoothed holds no raw list).
        QList<QPointF> smooth;
        double weight = -1;
        qsizetype smoothUpTo = 0;
        double average = 0;
        double correction = 1;
    };

    qint64 stepsPerEpoch() const;
    double xOf(const Row &r, Kind kind, XAxis x, qint64 stepsPerEpoch) const;
    double valueOf(const Row &r, Metric metric) const;
    // The series' members from `from` on, as points (NaN values and positions skipped).
    template<typename Take>
    void pointsFrom(Metric metric, XAxis x, int rank, qint64 steps, qsizetype from, Take take) const;
    Cached &cacheOf(Metric metric, XAxis x, int rank) const;  // reset when the epoch length changed
    Cached &cached(Metric metric, XAxis x, int rank) const;   // with `points` up to date
    int seriesRank(int rank) const;
    qsizetype memberCount(Metric metric, int rank) const;  // records of the series
    const QList<qsizetype> &membersOf(int key) const;

    QList<Row> m_rows;
    QList<MetricRecord> m_full;                   // the records that are not plain train ones
    mutable QList<MetricRecord> m_recordsMade;   // records(), made on demand
    QList<Kind> m_kinds;                 // of m_rows, to skip string compares
    QMap<int, qint64> m_maxStepOfEpoch;  // train records
    mutable QHash<int, Cached> m_cache;  // by rank, metric and axis
    // Positions in m_rows of the train records, the val records and each rank's records:
    // a series is built from its own records, not by walking all of them (ranks multiply them).
    static constexpr int trainKey = -2;
    static constexpr int valKey = -3;
    QMap<int, QList<qsizetype>> m_members;  // key: trainKey, valKey or a rank
    double m_startTime = NAN;
    int m_lastEpoch = -1;
    bool m_done = false;
};

} // namespace TrainDesk::Ui

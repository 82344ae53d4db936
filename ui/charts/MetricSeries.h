#pragma once

#include "metrics/MetricRecord.h"

#include <QList>
#include <QObject>
#include <QPointF>

namespace TrainDesk::Ui {

// A job's metrics as chart series, without widgets: training loss and accuracy against the
// global step (or seconds since the start), validation values once per epoch at the step
// where the epoch ended. Smoothing and downsampling are pure functions, so they are tested
// alone; changed() fires on every addition and the chart coalesces redraws.
class MetricSeries : public QObject
{
    Q_OBJECT

public:
    enum class Metric { TrainLoss, TrainAcc, ValLoss, ValAcc, LearningRate, Throughput };
    Q_ENUM(Metric)
    enum class XAxis { Step, Epoch, Time };
    Q_ENUM(XAxis)

    explicit MetricSeries(QObject *parent = nullptr);

    void append(const QList<MetricRecord> &records);
    void reset(const QList<MetricRecord> &records = {});

    QList<QPointF> points(Metric metric, XAxis x = XAxis::Step) const;
    const QList<MetricRecord> &records() const { return m_records; }
    int trainPointCount() const { return m_trainCount; }
    int lastEpoch() const { return m_lastEpoch; }
    bool finished() const { return m_done; }

    // Exponential moving average with the start-up bias removed (weight 0: raw values).
    static QList<QPointF> smoothed(const QList<QPointF> &points, double weight);
    // At most about maxPoints points: per bucket the first, the minimum and the maximum,
    // in x order, so spikes stay visible.
    static QList<QPointF> downsampled(const QList<QPointF> &points, int maxPoints);

    // Every train and val record, one row each, for spreadsheets.
    QByteArray toCsv() const;

Q_SIGNALS:
    void changed();

private:
    qint64 stepsPerEpoch() const;
    double xOf(const MetricRecord &r, XAxis x, qint64 stepsPerEpoch) const;

    QList<MetricRecord> m_records;
    double m_startTime = NAN;
    int m_trainCount = 0;
    int m_lastEpoch = -1;
    bool m_done = false;
};

} // namespace TrainDesk::Ui

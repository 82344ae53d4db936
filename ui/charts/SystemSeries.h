#pragma once

#include "ChartLine.h"
#include "metrics/SystemSample.h"

#include <QObject>

namespace TrainDesk::Ui {

// The system samples of one job's nodes (widget-free), turned into chart lines: use in
// percent (CPU and each GPU), memory in GiB (RAM and each GPU's) and network in MB/s
// (received and sent), each against seconds since the job's first sample.
class SystemSeries : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    void reset(const QList<SystemSample> &samples = {});
    void append(const QList<SystemSample> &samples);
    const QList<SystemSample> &samples() const { return m_samples; }
    QStringList nodes() const;

    QList<ChartLine> usageLines() const;
    QList<ChartLine> memoryLines() const;
    QList<ChartLine> networkLines() const;

Q_SIGNALS:
    void changed();

private:
    double x(const SystemSample &s) const { return s.time - m_origin; }
    // Per node: a line of `nodeValue` named "<node> <what>", then one per GPU of `gpuValue`
    // (negative values are unknown and left out).
    QList<ChartLine> nodeAndGpuLines(const QString &what, double (*nodeValue)(const SystemSample &),
                                     double (*gpuValue)(const GpuSample &)) const;

    QList<SystemSample> m_samples;
    double m_origin = 0;
};

} // namespace TrainDesk::Ui

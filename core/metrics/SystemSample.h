#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace TrainDesk {

// One GPU of a node at one moment, as nvidia-smi reports it.
struct GpuSample
{
    int index = 0;
    double utilPercent = -1;  // -1: nvidia-smi said [N/A]
    qint64 memUsedBytes = -1;
    qint64 memTotalBytes = -1;
};

// What one node of a running job was doing at one moment (agent/NodeSampling takes them,
// metrics/SystemSampler reads them from the node). Stored with the job as one JSON object.
struct SystemSample
{
    double time = 0;          // seconds since the Unix epoch
    QString node;
    double cpuPercent = -1;   // all cores together, 0 to 100; -1 when unknown
    qint64 memUsedBytes = -1; // MemTotal - MemAvailable
    qint64 memTotalBytes = -1;
    qint64 netRxBytes = -1;   // received and sent since the node booted, all interfaces but lo
    qint64 netTxBytes = -1;
    QList<GpuSample> gpus;    // empty where the node has no nvidia-smi

    QByteArray toJson() const;
    static std::optional<SystemSample> fromJson(const QByteArray &json);
};

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::SystemSample)

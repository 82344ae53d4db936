#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <cmath>
#include <optional>

namespace TrainDesk {

struct ScalarPoint;

// One line of the trainer's metrics.jsonl (docs/METRICS.md). Fields a record
// does not carry are NaN (or -1 for counters).
struct MetricRecord
{
    double time = 0;
    QString kind;            // info | train | val | epoch | done | rank
    int epoch = -1;
    qint64 step = -1;
    qint64 globalStep = -1;
    int rank = -1;
    double loss = NAN;
    double acc = NAN;
    double valLoss = NAN;
    double valAcc = NAN;
    double lr = NAN;
    double imagesPerSec = NAN;
    double seconds = NAN;
    int workers = -1;
    // The run's plan (info records; Keras "Epoch 3/34" lines give `epochs`): the last
    // epoch, the first one (a resumed run starts later) and the steps of one epoch.
    int epochs = -1;
    int startEpoch = -1;
    qint64 stepsPerEpoch = -1;
    // A named scalar (kind "scalar", ScalarPoint): its series' name, value and file (with
    // `rank`, `step` and `epoch` above; a fractional epoch in `epochValue`).
    QString name;
    double value = NAN;
    QString file;
    double epochValue = NAN;

    static std::optional<MetricRecord> fromJson(const QByteArray &line);
    // The record a ScalarPoint's JSON reads back as, made without the JSON (an imported run's
    // points, read from its event files).
    static MetricRecord fromScalar(const ScalarPoint &point);
};

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::MetricRecord)

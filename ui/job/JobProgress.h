#pragma once

#include "metrics/MetricRecord.h"

#include <QList>
#include <QString>

namespace TrainDesk::Ui {

// How far a training run is and when it should end, from its metric records: the epoch of
// the newest training record out of the run's last epoch (info record, or Keras' "Epoch
// 3/34"), and the time so far spread over the work done so far (steps within the epoch
// count when the info record gives the steps of an epoch). For the status line.
struct JobProgress
{
    int epoch = -1;           // the epoch being trained, -1: none yet
    int epochs = -1;          // the last epoch, -1: unknown
    double etaSeconds = -1;   // -1: unknown (too early, or no plan)

    static JobProgress of(const QList<MetricRecord> &records);
    // "epoch 3/34 · ETA 12 min", "epoch 3", or empty.
    QString text() const;
};

} // namespace TrainDesk::Ui

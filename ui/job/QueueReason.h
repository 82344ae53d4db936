#pragma once

#include "session/ResourceSnapshot.h"

#include <QString>

namespace TrainDesk::Ui {

// Why a queued job has not started, in the scheduler's own terms (JobRunner::schedule):
// too few usable nodes in the cluster, jobs ahead of it in the queue, nodes held by running
// jobs, or none of these (the scheduler's next look starts it). Empty for a job that is not
// queued. Widget-free, tested on snapshots.
QString queueReason(const ResourceSnapshot &snapshot, const Job &job);

} // namespace TrainDesk::Ui

#pragma once

#include "session/ResourceSnapshot.h"

namespace TrainDesk::Ui {

// The row `cluster show` prints: Name, State (steady | resizing, and degraded when a node in
// service is unusable) and node counts per state.
struct ClusterSummary
{
    QString name;
    QString state;
    int idle = 0;
    int running = 0;
    int preparing = 0;
    int leaving = 0;
    int unusable = 0;

    static ClusterSummary of(const ResourceSnapshot::ClusterEntry &entry);
};

} // namespace TrainDesk::Ui

#pragma once

#include "OutputFormat.h"

#include <QJsonArray>

namespace TrainDesk {
struct Job;
class Store;
}

namespace TrainDesk::Cli {

// `job metrics --system`: the system samples the agent stored for a job's nodes, as a
// table (one row per node and moment, network as bytes a second since the node's
// previous sample) and as the stored JSON objects.
struct SystemMetricsTable
{
    Table table;
    QJsonArray json;

    static SystemMetricsTable of(const Store &store, const Job &job);
};

} // namespace TrainDesk::Cli

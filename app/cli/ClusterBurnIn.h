#pragma once

#include "Command.h"

#include <QJsonArray>

namespace TrainDesk::Cli {

// `cluster probe --burn-in`: the nodes not running a job burnt in (jobs/NodeBurnIn), each
// figure printed as it comes, the verdicts applied. Returns the number of failing nodes, or
// a failure; `json` gets the figures.
Result<int> burnInCluster(Context &c, const Cluster &cluster, QJsonArray &json);

// `cluster burn-in`: when the cluster's nodes are burnt in besides on demand.
Command burnInScheduleCommand();

} // namespace TrainDesk::Cli

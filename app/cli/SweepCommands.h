#pragma once

#include "Command.h"

namespace TrainDesk::Cli {

// sweep create|show|list|stop: hyperparameter sweeps (core/sweeps), run by the agent.
QList<Command> sweepCommands();

} // namespace TrainDesk::Cli

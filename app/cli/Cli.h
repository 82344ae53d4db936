#pragma once

#include <QStringList>

namespace TrainDesk::Cli {

// Runs one CLI command (arguments without the program name); returns the exit status.
// 0 ok, 1 the command failed (one-line reason on stderr), 2 a usage error.
int run(const QStringList &arguments);

} // namespace TrainDesk::Cli

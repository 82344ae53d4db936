#pragma once

#include <QByteArray>
#include <QString>

namespace TrainDesk {

// A node's part in a job, read from its stdouterr/execution-<node>.log (the lines the launch
// script and the node's own steps write): "setting up", "preparing", "running",
// "finished", "failed (exit code N)", "node setup failed", ...; "not started" when the log
// says nothing yet.
QString nodeStateInJob(const QByteArray &executionLog);

} // namespace TrainDesk

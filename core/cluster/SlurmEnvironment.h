#pragma once

#include "common/Result.h"

#include <QStringList>

namespace TrainDesk {

// The Slurm client settings (SLURM_CONF, SLURM_CLUSTERS) a user had when creating a Slurm
// cluster on this machine (`--slurm local`), kept in the data directory beside the
// database: every command on the login node runs with them, so an agent started without
// them (or with others) submits as the user would. "NAME=value" entries.
namespace SlurmEnvironment {

QStringList fromThisProcess();
VoidResult save(qint64 clusterId, const QStringList &environment);
QStringList load(qint64 clusterId);

} // namespace SlurmEnvironment
} // namespace TrainDesk

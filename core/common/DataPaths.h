#pragma once

#include <QString>

namespace TrainDesk {

// Where TrainDesk keeps its files on this machine. Everything hangs off the data
// directory: $TRAINDESK_HOME when set (tests and scripts use it), else the platform's
// application data folder.
namespace DataPaths {

QString dataDirectory();
QString databasePath();
QString sharesDirectory();                   // local shares live here
QString clusterMountRoot(const QString &workspace, const QString &cluster);  // local cluster's mount root
// This data directory's own random id (made once, kept in its file "installation-id"): what
// makes names it gives on shared machines (a cluster's folder on its nodes) its own, so two
// data directories never take each other's.
QString installationId();
// Folder that holds traindesk-trainer: $TRAINDESK_TRAINER_DIR, else beside the executable.
QString trainerDirectory();

} // namespace DataPaths
} // namespace TrainDesk

#pragma once

#include <QStringList>

namespace TrainDesk {

class Store;
struct Job;

// Nothing of a job outlives it: every process it started carries its marker variable
// (jobMarkerVariable() = the job's uuid) through fork, setsid and mpirun, however it
// detached. When the job has ended, for whatever reason, each of its nodes gets a clean-up
// of stray processes that sends SIGTERM to every process still marked (and to the job's
// scope, and removes its docker containers) and, after the grace period, SIGKILL to what
// is left. The clean-up runs detached on the node and is not marked itself, so nothing the
// job does (or the end of its launch script) cancels the SIGKILL. (JobReaper, by contrast,
// runs inside the job while it runs.)
namespace StrayProcessCleanup {

// The node-side shell text (POSIX sh; reads /proc/PID/environ, as the job's own user).
QString cleanupCommand(const QString &jobUuid, int graceSeconds);
// The marked processes' pids on the node, one per line (used by tests and by the clean-up).
QString listMarkedCommand(const QString &jobUuid);
// Starts the clean-up on every node of the job; returns the nodes it could not reach.
QStringList startOnNodes(Store &store, const Job &job, int graceSeconds);
// Starts the clean-up for job `jobUuid` on one node; false when the node cannot be reached.
bool startOnNode(Store &store, qint64 clusterId, const QString &node, const QString &jobUuid, int graceSeconds);

} // namespace StrayProcessCleanup
} // namespace TrainDesk

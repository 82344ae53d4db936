#pragma once

#include <QStringList>

namespace TrainDesk {

class Store;
struct Job;

// Nothing of a job outlives it: every process it started carries its marker variable
// (jobMarkerVariable() = the job's uuid) through fork, setsid and mpirun, however it
// detached. When the job has ended, for whatever reason, each of its nodes gets a sweeper
// that sends SIGTERM to every process still marked and, after the grace period, SIGKILL
// to what is left. The sweeper runs detached on the node and is not marked itself, so
// nothing the job does (or the end of its launch script) cancels the SIGKILL.
namespace JobSweep {

// The node-side shell text (POSIX sh; reads /proc/PID/environ, as the job's own user).
QString sweepCommand(const QString &jobUuid, int graceSeconds);
// The marked processes' pids on the node, one per line (used by tests and by the sweeper).
QString listMarkedCommand(const QString &jobUuid);
// Starts the sweeper on every node of the job; returns the nodes it could not reach.
QStringList sweepNodes(Store &store, const Job &job, int graceSeconds);
// Starts the sweeper for job `jobUuid` on one node; false when the node cannot be reached.
bool sweepNode(Store &store, qint64 clusterId, const QString &node, const QString &jobUuid, int graceSeconds);

} // namespace JobSweep
} // namespace TrainDesk

#pragma once

#include <QString>

namespace TrainDesk {

// Where the node's user systemd offers it (`systemd-run --user --scope`), a job's launch on
// its head node runs in a cgroup scope of its own: the scope holds every process the launch
// started, whatever a process does to its environment or session. The job's marker variable
// (jobMarkerVariable) is set either way, and is what finds the job's processes where there
// is no scope (and on the nodes mpirun reaches over ssh). The choice is made on the node at
// launch, silently, and written to the job directory's tracking file.
namespace JobScope {

// The scope unit of a job: traindesk-job-<uuid>.scope.
QString unitName(const QString &jobUuid);
// In the job directory: "reaper [cgroup <path>]", "scope <unit>" or "marker", as the launch chose.
QString trackingFileName();
// Shell text for the head node: exports the marker, then execs /bin/sh `scriptPath` under
// the job's reaper (JobReaper: a subreaper, and a cgroup where cgroup v2 is writable, ending
// what is left `graceSeconds` after SIGTERM) where perl is there, else in the job's scope when
// `systemd-run --user --scope` works there, else directly (the launch's pid is the job's pid
// every way).
QString launchCommand(const QString &jobUuid, const QString &jobDir, const QString &scriptPath, int graceSeconds = 10);
// Shell text: sends `signal` (TERM, KILL) to every process in the job's scope; nothing, and
// no output, where there is none.
QString signalCommand(const QString &jobUuid, const QString &signal);
// Shell text that exits 0 while the job's scope is there (has processes).
QString activeCommand(const QString &jobUuid);

} // namespace JobScope
} // namespace TrainDesk

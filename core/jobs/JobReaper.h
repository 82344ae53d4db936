#pragma once

#include <QString>

namespace TrainDesk {

// Nothing of a job outlives it, without systemd: the job's launch runs under a small
// reaper (Perl, which nearly every Linux node has) that makes itself a child subreaper
// (prctl PR_SET_CHILD_SUBREAPER), so that double-forked, `setsid` and `env -i` processes of
// the job are re-parented to it instead of PID 1 and stay findable as its descendants; where
// cgroup v2 is writable (root, or a delegated subtree) the job also gets a cgroup of its own
// (traindesk-job-<uuid>), which the reaper leaves itself. The reaper's pid is the job's pid.
// - SIGTERM to the reaper (terminate, the wall clock): SIGTERM to every descendant and
//   cgroup member, SIGKILL to what is left after the grace period;
// - SIGUSR1: SIGKILL to all of it at once;
// - when the launch script ends, whatever it left gets the same SIGTERM, grace, SIGKILL;
// - the reaper exits (with the script's status, recorded in exit_code when the script could
//   not) only when none of the job's processes is left, so a job ends when all of it has.
// The launch script sees the reaper's pid in $TRAINDESK_REAPER_PID.
namespace JobReaper {

// The reaper's program text (perl -e).
QString program();
// Shell text: execs the reaper for job `jobUuid` over `/bin/sh scriptPath` when perl is
// there; the reaper writes "reaper" or "reaper cgroup <path>" to the tracking file (or
// "marker" where it cannot be a subreaper: unknown architecture), so that falls through to
// what follows this text only when perl is missing.
QString launchText(const QString &jobUuid, const QString &jobDir, const QString &scriptPath, int graceSeconds);
// The reaper's pid variable in the launch script's environment.
QString pidVariable();

} // namespace JobReaper
} // namespace TrainDesk

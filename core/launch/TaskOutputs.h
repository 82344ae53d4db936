#pragma once

#include "ToolkitPlans.h"

#include <QString>
#include <QStringList>

namespace TrainDesk {

// Each task's own output files, named as Batch AI named them, beside the combined
// stdout.txt and stderr.txt (whose lines mpirun tags with their rank):
//   stdout-<i>.txt / stderr-<i>.txt         PyTorch ranks, Caffe2 shards, MPI ranks
//   stdout-wk-<i>.txt / stdout-ps-<i>.txt   TensorFlow workers and parameter servers
// The head node writes them from the combined files as they grow, so they are whole
// whether or not the job directory is shared with the other nodes.
namespace TaskOutputs {

// Per rank (the index is the MPI rank, or the task's place in the launch), the name part:
// "3", "wk-0", "ps-1". Empty for a launch that is no set of ranks (a custom toolkit).
QStringList names(const ToolkitLaunch &launch);

// Shell text for the launch script, run after the job started in the background with its
// pid in $job: one follower per stream (stdouterr/stdout.txt, stderr.txt) that splits the
// lines by their rank tag into stdouterr/<stream>-<name>.txt, started in the background
// with their pids in $split_out and $split_err; they ignore SIGTERM (a terminated job's
// last lines still arrive) and end once the job has and its output is read. The text
// leaves SIGTERM, SIGINT and SIGHUP ignored: the caller sets its own traps again. `untagged`:
// the name that lines without a tag go to (a single task that runs without mpirun).
QString followerText(const QStringList &names, const QString &untagged);

// A task's file name -> its index: "stdout-3.txt" -> 3, "stdout-wk-1.txt" -> 1; -1 for
// any other name.
int taskIndexOf(const QString &fileName);
// Whether a stdouterr file is one of a task's (stdout-<name>.txt or stderr-<name>.txt).
bool isTaskFile(const QString &fileName);

} // namespace TaskOutputs
} // namespace TrainDesk

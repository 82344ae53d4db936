#pragma once

#include "ToolkitPlans.h"
#include "jobspec/WallClockTime.h"
#include "store/Entities.h"

#include <QString>
#include <QStringList>

namespace TrainDesk {

// What goes into a job's launch script. Per-node texts are indexed like `nodes`; an empty
// list means the step has nothing to do.
struct LaunchScriptInput
{
    QString title;                 // "ws/exp/job (uuid)"
    QString jobDir;
    QString hostfilePath;
    QList<Node> nodes;             // the job's nodes, head first
    EnvironmentList environment;   // exported for every process
    EnvironmentList secrets;       // exported too; values shown only when revealed
    EnvironmentList computed;      // name -> shell expression, evaluated on the head node
    QString portChoice;            // exports the job's rendezvous port first (RendezvousPorts), or empty
    QString trainerDirectory;
    QStringList outputDirectories; // created before the job
    QStringList setupTexts;        // node setup: links, mounts, the container
    QStringList preparationTexts;  // jobPreparation on each node
    QStringList cleanupTexts;      // after the job, whatever happened
    QString command;               // the job itself (shell text, run on the head node)
    QStringList rankNodes;         // the node of each rank, for the nodes' execution logs
    QString beforeCommand;         // head node shell text just before the job (its notes go to the log)
    QStringList taskOutputNames;   // per rank: its lines also go to stdout-<name>.txt (TaskOutputs)
    QString untaggedTaskOutput;    // the name of a single task run without mpirun (untagged lines)
    QString registryPassword;      // for the setup only; empty when none
    WallClockTime limit;
    bool slurm = false;            // inside a Slurm allocation: per-node steps are srun steps
};

// The POSIX shell script the runner starts detached on the head node (its process group's
// leader, or its reaper's child). It runs node setup, job preparation and the job, records
// exit_code (and failed_step when a step before the job failed), enforces the wall clock
// limit, and cleans up on every node. It holds no secret value: those it reads from the
// job directory's secrets file (secretsFileText), which it removes before anything runs.
QString launchScript(const LaunchScriptInput &input);
// The secrets file's name in the job directory.
QString secretsFileName();
// Its text (owner-only, sourced then removed by the launch script): an export of each
// secret and of the registry password; empty when the job has none.
QString secretsFileText(const LaunchScriptInput &input);

// Runs per-node shell `texts` on `nodes`: directly when the job has one node, else under
// one mpirun with an app context per node. `environment` names the variables to pass.
// In a Slurm allocation (`slurm`), one srun step with a task per node, each picking its
// text by $SLURM_NODEID.
// Wraps each node's `texts` of a step (`step`: "node setup", "job preparation") so that,
// on a job of several nodes, each node writes how the step went in its own
// $AZ_BATCHAI_STDOUTERR_DIR/execution-<node>.log (the head node's log is the script's own).
QStringList withNodeLogs(const QStringList &texts, const QList<Node> &nodes, const QString &step, bool logStart);

QString onEveryNode(const QStringList &texts, const QList<Node> &nodes, const QString &hostfilePath,
                    const QStringList &environment, bool slurm = false);

} // namespace TrainDesk

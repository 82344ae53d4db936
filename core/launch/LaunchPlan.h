#pragma once

#include "jobspec/JobSpec.h"
#include "ToolkitPlans.h"
#include "jobspec/WallClockTime.h"
#include "common/Result.h"
#include "store/Entities.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace TrainDesk {

// Where and as what a job runs: everything buildLaunchPlan needs besides the spec.
struct LaunchContext
{
    QString workspace;
    QString experiment;
    QString job;
    QString uuid;
    QString mountRoot;         // $AZ_BATCHAI_MOUNT_ROOT on the nodes: the runner links every share there
    QString trainerDirectory;  // folder holding traindesk-trainer on the nodes
    QList<Node> nodes;         // assigned nodes, head node first (the first nodeCount are used)
    QList<Share> shares;       // the workspace's shares, for mountVolumes
    // A Slurm allocation: `nodes` stand for the allocation's nodes in order (node-0, ...);
    // per-node steps run as srun steps and the hostfile is written from the allocation.
    bool slurm = false;
    // A retried job (jobs/JobRetry): which attempt this is (1: the first) and the previous
    // attempt's uuid, whose output directories $AZ_BATCHAI_PREV_OUTPUT_<ID> name.
    int attempt = 1;
    QString previousUuid;
    // A job packed onto its one node: the cores and GPUs it holds there (its only ones).
    std::optional<NodeGrant> grant;
};

// A mount of the job: a share (or a folder of one) linked, or an unmanaged file system
// mounted, at $AZ_BATCHAI_JOB_MOUNT_ROOT/<relativeMountPath> on every node. The job's mount
// root is its own (<mount root>/.jobs/<uuid>); every share is in it under its name too.
struct PlannedMount
{
    QString jsonPath;       // the mountVolumes entry
    QString mountPath;      // on the nodes
    QString share;          // the TrainDesk share, empty for an unmanaged file system
    QString target;         // the share's folder, or the mount command
};

// A process of a task-based toolkit (TensorFlow, PyTorch over TCP/Gloo, Caffe2), for display.
struct PlannedTask
{
    QString role;
    int index = 0;
    QString node;
    QString host;
    QString commandLine;    // with its own variables in front
};

// What will run, written out before anything starts: `traindesk job plan` prints it and
// the runner executes exactly this.
struct LaunchPlan
{
    QString jobDir;            // <stdOutErrPathPrefix>/workspaces/<ws>/experiments/<exp>/jobs/<job>/<uuid>
    QString stdOutErrDir;      // jobDir/stdouterr
    QList<QPair<QString, QString>> environment;  // exported in order, for every process (secrets apart)
    QStringList secretNames;   // exported too; their values are only in launchScript
    QList<QPair<QString, QString>> inputDirectories;   // id -> path
    QList<QPair<QString, QString>> outputDirectories;  // id -> path
    QList<PlannedMount> mounts;
    QStringList nodes;         // node names, head node first
    // The node each rank runs on (index = MPI_COMM_WORLD rank): known before the start,
    // because mpirun is told to map the hostfile by slot, which fills each host's slots in
    // hostfile order (see ranksPerHost in LaunchPlan.cpp), and each task names its host.
    QStringList rankNodes;
    QString hostfile;          // Open MPI hostfile text
    QString toolkit;           // the toolkit setting's key
    QString launcher;          // mpi, tasks or head node
    QString summary;           // one line: what runs where
    int processCount = 0;
    // Rendezvous ports the head node picks at start: `portCount` in a row, the first in
    // $TRAINDESK_PORT, searched from `portSearchStart` (RendezvousPorts); 0: none picked.
    int portCount = 0;
    int portSearchStart = 0;
    QList<PlannedTask> tasks;
    // What the job runs as asked but the user may not expect (ranks oversubscribed): said
    // by `job create` and `job plan`, and in the execution log.
    QStringList warnings;
    QString preparationCommand;  // jobPreparation.commandLine, empty when none: runs on every node
    QString containerImage;      // empty when the job runs on the nodes themselves
    QStringList containerOptions;  // docker run's options for a packed job's GPUs and cores
    WallClockTime maxWallClockTime = WallClockTime::defaultLimit();
    bool maxWallClockTimeIsDefault = true;
    QString commandLine;       // what the head node runs (mpirun ... or the custom command)
    QString launchScript;      // the script the head node runs detached (no secret value: see secretsFile)
    QString launchScriptShown; // what is shown of it: the script itself, as it holds no secret
    QString secretsFile;       // the secrets' exports (secretsFilePath, owner only), read and removed by the script
    QString batchScript;       // Slurm clusters: the sbatch script that runs launch.sh in its allocation

    QString hostfilePath() const { return jobDir + QStringLiteral("/hostfile"); }
    QString launchScriptPath() const { return jobDir + QStringLiteral("/launch.sh"); }
    // The output directories' paths, one a line: where JobOutput looks for TensorBoard files.
    QString outputDirectoriesPath() const { return jobDir + QStringLiteral("/") + outputDirectoriesFileName(); }
    static QString outputDirectoriesFileName() { return QStringLiteral("output_directories"); }
    QByteArray outputDirectoriesText() const;
    QString exitCodePath() const { return jobDir + QStringLiteral("/exit_code"); }
    QString secretsFilePath() const;
    QString batchScriptPath() const { return jobDir + QStringLiteral("/batch.sh"); }
    QString describe() const;  // human-readable, for `job plan` (no secret values)
    QJsonObject toJson() const;  // for `job plan -o json` (no secret values)
};

// "0-1 node-a, 2-3 node-b": runs of consecutive ranks on one node, for people to read.
QString rankNodesText(const QStringList &rankNodes);

// Replaces $AZ_BATCHAI_X and ${AZ_BATCHAI_X} with their values; leaves other text alone.
QString expandBatchAiVariables(const QString &text, const QList<QPair<QString, QString>> &environment);

// The plan, or why the job cannot run as specified (each reason names its JSON path).
Result<LaunchPlan> buildLaunchPlan(const JobSpec &spec, const LaunchContext &context);

// The environment variable that marks every process of a job with the job's uuid.
inline QString jobMarkerVariable() { return QStringLiteral("TRAINDESK_JOB"); }

} // namespace TrainDesk

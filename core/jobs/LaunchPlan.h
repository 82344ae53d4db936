#pragma once

#include "JobSpec.h"
#include "common/Result.h"
#include "store/Entities.h"

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
    QString mountRoot;         // $AZ_BATCHAI_MOUNT_ROOT (and job mount root) on the nodes
    QString trainerDirectory;  // folder holding traindesk-trainer on the nodes
    QList<Node> nodes;         // assigned nodes, head node first
};

// What will run, written out before anything starts: `traindesk job plan` prints it and
// the runner executes exactly this.
struct LaunchPlan
{
    QString jobDir;            // <stdOutErrPathPrefix>/workspaces/<ws>/experiments/<exp>/jobs/<job>/<uuid>
    QString stdOutErrDir;      // jobDir/stdouterr
    QList<QPair<QString, QString>> environment;  // exported in order, for every rank
    QList<QPair<QString, QString>> outputDirectories;  // id -> path
    QString hostfile;          // Open MPI hostfile text
    QString preparationCommand;  // jobPreparation.commandLine, empty when none
    QString commandLine;       // what the head node runs (mpirun ... or the custom command)
    QString launchScript;      // the script the head node runs detached

    QString hostfilePath() const { return jobDir + QStringLiteral("/hostfile"); }
    QString launchScriptPath() const { return jobDir + QStringLiteral("/launch.sh"); }
    QString exitCodePath() const { return jobDir + QStringLiteral("/exit_code"); }
    QString describe() const;  // human-readable, for `job plan`
};

// Replaces $AZ_BATCHAI_X and ${AZ_BATCHAI_X} with their values; leaves other text alone.
QString expandBatchAiVariables(const QString &text, const QList<QPair<QString, QString>> &environment);

Result<LaunchPlan> buildLaunchPlan(const JobSpec &spec, const LaunchContext &context);

} // namespace TrainDesk

#pragma once

#include "jobspec/JobSpecModel.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// Shell text that runs a job's processes in its containerSettings image. Each node runs one
// container for the whole job, as the service did: started before job preparation (which
// runs in it, so what it installs is there for the job), stopped when the job ends. The node
// picks its runtime: apptainer (or singularity), else docker when its daemon answers. The
// docker client finds its engine as the node's shell sets it (DOCKER_HOST, or the docker
// context of the node's user). Nodes that share one engine (nodes on one machine) share the
// job's container: each node's setup starts it or finds it running.
struct ContainerCommands
{
    QString image;          // full reference, registry included
    QString name;           // td-<job uuid>
    QString shmSize;
    QString registryUser;   // empty when the registry needs no login
    QString registryServer;
    QStringList bindPaths;  // visible in the container at the same path
    // The job's folders that may lie outside bindPaths and /tmp (the stdOutErrPathPrefix and
    // output directories' prefixes, absolute paths on the node): made as the node's user before
    // the container starts (the engine would make a missing one as root's) and mounted at their
    // own paths; input directories likewise but not made (one missing fails the node's setup,
    // naming it). Set through addJobFolders/addInputFolders, which leave out what is visible
    // already and the image's system folders.
    QStringList jobFolders;
    QStringList inputFolders;
    QString trainerDirectory;  // the bundled trainer's folder: mounted read-only, on PATH after the image's own
    // A job packed onto its node (ResourcePlacement's grant): only its GPUs (docker --gpus
    // device=...; none: no GPU at all) and its cores (--cpuset-cpus). Unset: every GPU the
    // node has (--gpus all where nvidia-smi is there) and every core.
    std::optional<QList<int>> gpuDevices;
    QList<int> cpuCores;
    QString jobUuid;        // the containers' label traindesk.job, what a sweep of the job's leftovers finds

    static ContainerCommands from(const ContainerSettings &settings, const QString &jobUuid, const QStringList &bindPaths,
                                  const QString &trainerDirectory = {});

    void addJobFolders(const QStringList &paths);
    void addInputFolders(const QStringList &paths);

    // Node setup: pick the runtime, log in, start the container and wait until it runs the
    // job's keep-alive command; fails naming the node, the image and the engine's message when
    // the node has neither runtime, the login is refused, the image cannot be had or its entry
    // point ends. The registry password comes from $registryPasswordVariable, through stdin.
    QString startText(const QString &nodeName, const QString &host) const;
    // Runs the shell text `command` inside the container, passing the variables `environment`
    // (names) and Open MPI's own. The job's processes run in docker as the node's user (what
    // they write on shares and output directories is that user's, and Open MPI's daemons and
    // ranks are one user), HOME the job's temporary folder, unless that user is root; the
    // preparation (Step::Preparation) as the image's user, who installs packages.
    enum class Step { Job, Preparation };
    QString execText(const QString &command, const QStringList &environment, Step step = Step::Job) const;
    // The docker run options for the job's GPUs and cores, as the plan shows them.
    QStringList resourceOptions() const;
    QString stopText() const;

    static const QString registryPasswordVariable;
};

} // namespace TrainDesk

#pragma once

#include "jobspec/JobSpecModel.h"

#include <QString>
#include <QStringList>

namespace TrainDesk {

// Shell text that runs a job's processes in its containerSettings image. Each node runs one
// container for the whole job, as the service did: started before job preparation (which
// runs in it, so what it installs is there for the job), stopped when the job ends. The node
// picks its runtime: apptainer (or singularity), else docker when its daemon answers.
struct ContainerCommands
{
    QString image;          // full reference, registry included
    QString name;           // td-<job uuid>
    QString shmSize;
    QString registryUser;   // empty when the registry needs no login
    QString registryServer;
    QStringList bindPaths;  // visible in the container at the same path

    static ContainerCommands from(const ContainerSettings &settings, const QString &jobUuid, const QStringList &bindPaths);

    // Node setup: pick the runtime, log in, start the container; fails naming the node when
    // the node has neither runtime. The registry password comes from $registryPasswordVariable.
    QString startText(const QString &nodeName, const QString &host) const;
    // Runs the shell text `command` inside the container, passing the variables `environment`
    // (names) and Open MPI's own.
    QString execText(const QString &command, const QStringList &environment) const;
    QString stopText() const;

    static const QString registryPasswordVariable;
};

} // namespace TrainDesk

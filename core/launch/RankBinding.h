#pragma once

#include "ToolkitPlans.h"
#include "store/Entities.h"

#include <QString>
#include <QStringList>

namespace TrainDesk {

// The cores each rank may use. Open MPI binds every rank to one core by default when it
// starts one or two of them (every MPMD part of a task toolkit is `-np 1`), so a rank alone
// on a 64-core node ran one thread. Here the binding is none: a rank may run anywhere on its
// node, and OMP_NUM_THREADS says its share (the node's cores / the job's ranks there; all
// of them with one rank per node). The job's own choice wins: --bind-to or a binding policy
// MCA parameter in its mpirun arguments, OMPI_MCA_hwloc_base_binding_policy (Open MPI 4's
// name, which this sets), OMPI_MCA_hwmap_base_binding_policy (Open MPI 5's) or
// OMP_NUM_THREADS in its environmentVariables.
namespace RankBinding {

inline const QString policyVariable = QStringLiteral("OMPI_MCA_hwloc_base_binding_policy");
inline const QString policyVariable5 = QStringLiteral("OMPI_MCA_hwmap_base_binding_policy");
inline const QString threadsVariable = QStringLiteral("OMP_NUM_THREADS");

// Sets the variables in `environment` (the job's), or OMP_NUM_THREADS in each of `launch`'s
// tasks where ranks get different shares. `nodes` are the job's nodes (slotCount: their
// cores), `rankNodes` the node name of each rank. In a Slurm allocation (`slurm`) the cores
// are Slurm's to give: only the binding is set. Returns the execution log's lines.
QStringList applyTo(ToolkitLaunch &launch, EnvironmentList &environment, const QStringList &userVariables,
                    const QList<Node> &nodes, const QStringList &rankNodes, bool slurm);

} // namespace RankBinding

} // namespace TrainDesk

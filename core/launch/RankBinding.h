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

// Where more ranks run on a machine than it has cores (nodes sharing a host count together):
// "node0: 4 ranks on 2 cores", one entry a host; empty when every rank has a core.
QStringList oversubscribed(const QList<Node> &nodes, const QStringList &rankNodes);

// A job packed onto part of its node (jobs/ResourcePlacement): head node shell text, run just
// before the job, that pins the launch script, and so every rank it starts, to the job's
// `cores` (indices into the node's allowed CPUs, Cpus_allowed_list, as the placement counts
// them) with taskset, and logs it. The threads follow from the node's slotCount, which the
// plan sets to the job's cores.
QString pinText(const QList<int> &cores);
// "0-1,3": indices as ranges.
QString rangesText(const QList<int> &indices);

} // namespace RankBinding

} // namespace TrainDesk

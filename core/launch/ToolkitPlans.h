#pragma once

#include "jobspec/JobSpec.h"
#include "common/Result.h"
#include "store/Entities.h"

#include <QList>
#include <QPair>
#include <QString>

namespace TrainDesk {

using EnvironmentList = QList<QPair<QString, QString>>;

// One process of a job that is not one MPI world: a TensorFlow parameter server or worker,
// a PyTorch rank over TCP or Gloo, a Caffe2 shard.
struct LaunchTask
{
    QString role;            // "ps", "worker", "rank", "shard"
    int index = 0;           // its AZ_BATCHAI_TASK_INDEX
    int nodeIndex = 0;       // which of the job's nodes runs it
    EnvironmentList environment;  // its own variables
    QString program;         // shell text
    QString setup;           // shell text run on its node before its variables, or empty
};

// How a toolkit setting runs.
struct ToolkitLaunch
{
    enum class Kind {
        Mpi,       // `program` on processCount ranks under mpirun
        Tasks,     // `tasks`, each on its node (mpirun places them; one task runs directly)
        HeadNode,  // `program` once on the head node
    };
    Kind kind = Kind::Mpi;
    int processCount = 1;
    QString program;
    QList<LaunchTask> tasks;
    EnvironmentList environment;  // job-wide variables the toolkit sets
    QString summary;              // one line for `job plan`
    // Rendezvous ports the head node picks at start (RendezvousPorts): how many in a row
    // from $TRAINDESK_PORT; 0 when the toolkit meets on none or the job fixed its own.
    int portCount = 0;
};

QString toString(ToolkitLaunch::Kind kind);

// The interpreter of a Python toolkit that names none, on a node (outside a container):
// "python", or "python3" where the node has no python; set by the launch script.
extern const QString defaultPythonVariable;

// The interpreter a Python toolkit setting names (pythonInterpreterPath), or nothing.
std::optional<QString> namedPythonInterpreter(const JobSpec &spec);

// The launch of `spec`'s toolkit on `nodes` (the job's nodes, head first), or why it cannot
// run there. `inContainer` picks the default interpreter: "python" in an image (as the
// service ran it), $TRAINDESK_PYTHON on a node (defaultPythonVariable).
Result<ToolkitLaunch> toolkitLaunch(const JobSpec &spec, const QList<Node> &nodes, bool inContainer);

} // namespace TrainDesk

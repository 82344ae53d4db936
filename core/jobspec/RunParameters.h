#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

namespace TrainDesk {

// A job's settings as the runs table shows them, read from its job.json alone (no node is
// asked): how many nodes and processes, and the `--name value` pairs of its command line.
namespace RunParameters {

// The command line of the job's toolkit: customMpiSettings/customToolkitSettings
// `commandLine`, or the script and its `commandLineArgs` (horovod, pyTorch, ...); empty
// when the spec has none.
QString commandLineOf(const QByteArray &spec);

// `--name value` and `--name=value` pairs of a command line; a `--flag` followed by another
// option or by nothing is "true". Paths and variables (values with '/' or '$') are where the
// job reads and writes, not settings: they are left out.
QMap<QString, QString> fromCommandLine(const QString &commandLine);

struct Shape
{
    int nodes = 1;
    int processes = 1;  // in all; processCount, else one per node
};
Shape shapeOf(const QByteArray &spec);

} // namespace RunParameters
} // namespace TrainDesk

#pragma once

#include "store/Entities.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// The commands TrainDesk runs on a Slurm login node and what it reads from their output.
// Pure text in, records out: the parsers are tested on Slurm's own output.
namespace SlurmQueries {

struct NodeStatus
{
    QString name;
    NodeState state = NodeState::Unusable;  // idle; allocated/mixed/completing: running; else unusable
    QString slurmState;                     // as sinfo says it, e.g. "drained"
    QString reason;                         // Slurm's reason for an unusable node
    int cpus = 1;
};

struct Partition
{
    QString name;
    bool isDefault = false;
    QString availability;  // "up" or "down"
    int nodes = 0;
    QString timeLimit;
};

struct JobStatus
{
    QString id;
    QString state;       // PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, ...
    QString reason;      // for PENDING: Priority, Resources, QOSMaxJobsPerUser, ...
    QStringList nodes;   // expanded
    QDateTime started;   // invalid until it starts
};

// sinfo, one line per node (of the cluster's partition when it names one).
QString nodesCommand(const SlurmSettings &settings);
QList<NodeStatus> parseNodes(const QByteArray &sinfoOutput);
QString partitionsCommand();
QList<Partition> parsePartitions(const QByteArray &sinfoOutput);

// One squeue call for every job of a cluster; jobs that left squeue's memory are missing.
QString jobsCommand(const QStringList &ids);
QHash<QString, JobStatus> parseJobs(const QByteArray &squeueOutput);
// sacct for the missing ones, where accounting is on (its output may be empty).
QString accountingCommand(const QStringList &ids);
QHash<QString, JobStatus> parseAccounting(const QByteArray &sacctOutput);

// "n[1-3,7],gpu05" -> n1 n2 n3 n7 gpu05 (Slurm's host list syntax).
QStringList expandHostList(const QString &hostList);

} // namespace SlurmQueries

} // namespace TrainDesk

#pragma once

#include "store/Entities.h"
#include "transport/TransferOptions.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace TrainDesk {

class Transport;

// One run of a cluster's setup task on one node; the output is kept on this machine.
struct SetupLog
{
    QString node;
    QDateTime started;
    QDateTime ended;
    std::optional<int> exitCode;  // empty when the task could not run to the end
    QString error;                // why it could not run (unreachable, timed out, ...)
    QString stdOutPath;
    QString stdErrPath;

    bool succeeded() const { return exitCode && *exitCode == 0; }
    // Why the run failed (the node's state reason); empty when it succeeded.
    QString failure() const;
};

namespace SetupTask {

// <data dir>/logs/<workspace>/clusters/<cluster>/setup/<node>/
QString logDirectory(const QString &workspace, const QString &cluster);
// Runs the cluster's setup task on `node` (with $AZ_BATCHAI_MOUNT_ROOT set and the shares
// linked under it), writing the output to the log files as it arrives.
SetupLog run(const QString &workspace, const Cluster &cluster, const QList<Share> &shares, const Node &node,
             Transport &transport, const CancelFlag *cancel = nullptr, int timeoutMs = 3600 * 1000);
// Every run on record, newest first; of one node when `node` is given.
QList<SetupLog> logs(const QString &workspace, const QString &cluster, const QString &node = {});
// "node n1: <failure>; node n2: ..." for the runs that failed; empty when none did.
QString failureSummary(const QList<SetupLog> &runs);

} // namespace SetupTask
} // namespace TrainDesk

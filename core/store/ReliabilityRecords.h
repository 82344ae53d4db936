#pragma once

#include "Entities.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>

namespace TrainDesk {

// One ended attempt of a job that was queued again (jobs/JobRetry): its own directory
// (uuid), nodes, times, outcome, and the nodes that were lost during it (the next attempt
// avoids them when it can).
struct JobAttempt
{
    qint64 jobId = 0;
    int attempt = 1;          // 1 is the first run
    QString uuid;
    QString jobDir;
    QStringList nodes;
    QStringList rankNodes;
    QDateTime started;
    QDateTime ended;
    std::optional<int> exitCode;
    QList<JobError> errors;
    QStringList lostNodes;
    qint64 lastMetricId = 0;  // the newest metric row when it ended: rows up to it are its (or earlier)
};

// When each cluster's nodes are burnt in (cluster/BurnIn) besides `cluster probe --burn-in`.
struct BurnInSchedule
{
    qint64 clusterId = 0;
    bool beforeEachJob = false;
    int everyHours = 0;       // 0: not on a timer
    QDateTime lastRun;
};

} // namespace TrainDesk

#pragma once

#include "jobspec/JobSpec.h"
#include "store/Entities.h"
#include "sweeps/SweepSummary.h"
#include "store/ReliabilityRecords.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QSet>

namespace TrainDesk {

class Store;

// Everything the resource tree shows, read in one go by the worker thread so that the
// GUI thread never touches the database.
struct ResourceSnapshot
{
    struct ExperimentEntry
    {
        Experiment experiment;
        QList<Job> jobs;
        QList<SweepSummary> sweeps;  // hyperparameter sweeps; their trials are jobs above
    };
    struct ClusterEntry
    {
        Cluster cluster;
        QList<Node> nodes;
    };
    struct WorkspaceEntry
    {
        Workspace workspace;
        QList<ExperimentEntry> experiments;
        QList<ClusterEntry> clusters;
        QList<Share> shares;
    };
    QList<WorkspaceEntry> workspaces;
    // Top-level folders of each local share, by share id (Shares > folders in the tree).
    QHash<qint64, QStringList> shareFolders;
    // Jobs retried or gone silent, by job id: their ended attempts (jobs/JobRetry) and the
    // report of their silent ranks (jobs/ProgressWatch, in words; empty when none).
    struct JobReliability
    {
        QList<JobAttempt> attempts;
        QString silence;
    };
    QHash<qint64, JobReliability> reliability;
    // Those of every job in the store, in one query for the attempts and one for the silences
    // (not two a job: 20,000 for 10,000 runs).
    static QHash<qint64, JobReliability> readReliability(const Store &store);
    // Runs imported from TensorBoard folders (store/ImportedRuns.h), by job id: nothing ran
    // them here (no cluster, no nodes); their folder is the job's jobDir.
    QSet<qint64> importedRuns;

    const Job *findJob(qint64 jobId) const;
    const WorkspaceEntry *findWorkspace(qint64 workspaceId) const;
    const ExperimentEntry *findExperiment(qint64 experimentId) const;
    const ClusterEntry *findCluster(qint64 clusterId) const;
    const SweepSummary *findSweep(qint64 sweepId) const;
    const Share *findShare(qint64 shareId) const;
    // The running or terminating job that holds node `nodeName` of the cluster, if any.
    const Job *activeJobOnNode(qint64 clusterId, const QString &nodeName) const;
    // What the job.json checks know about a workspace and a cluster: the same as
    // specContextFor() gives JobSubmission::submit, so the editor warns of what submit refuses.
    SpecContext specContext(qint64 workspaceId, qint64 clusterId) const;
    // A compact text of every field the views show: equal signatures, nothing to redraw.
    QByteArray signature() const;
};

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::ResourceSnapshot)

#pragma once

#include "EventFiles.h"
#include "TensorBoardFolder.h"

#include "common/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace TrainDesk {

class Store;

// Makes every run of a TensorBoard folder (TensorBoardFolder) a run of an experiment, read
// in place: a job row and an imported_runs record per run (store/ImportedRuns.h), and for
// each event file only how far it was read and how many scalars that held, with the run's
// summary (last and best per series) kept up to date as new bytes are read. Run again (or
// every second with --watch, or the GUI's Follow) it reads only what the files grew by:
// a torn record at a file's end waits for its writer; a damaged one is named with its file
// and offset, once, and that file is not read further. The folder is only read. It is on this
// machine or on a cluster's node (read over SFTP: EventFiles); a run of a node's folder is a
// job of that cluster on that node, so every later reader finds its files there.
class TensorBoardImport
{
public:
    struct Outcome
    {
        int runsFound = 0;
        int runsAdded = 0;
        qint64 bytesRead = 0;
        qint64 pointsRead = 0;
        QStringList problems;   // damaged records, vanished files and folders, each named
        QList<qint64> jobIds;   // the runs' jobs, in folder order
    };

    // Where the folder is: here (no cluster), or a node of a cluster with the files reached
    // through it (cluster/ImportedRunNodes makes this from names).
    struct Place
    {
        qint64 clusterId = 0;
        QString node;
        std::shared_ptr<EventFiles> files;
    };

    // Where a folder's runs go: its experiment (made when missing; by default named after
    // the folder), the workspace's local cluster (a job has a cluster) or the node's, the
    // folder resolved.
    struct Target
    {
        qint64 experimentId = 0;
        QString experiment;
        qint64 clusterId = 0;
        QString node;       // empty: this machine
        QByteArray root;    // absolute, links resolved here (a node's as given, cleaned), as the file system spells it
        std::shared_ptr<EventFiles> files;
    };
    // The CLI's `runs import` and the GUI's File > Open TensorBoard folder... alike. A node's
    // folder must be an absolute path.
    static Result<Target> target(Store &store, const QString &workspace, const QString &experiment, const QString &folder,
                                 const Place &place);
    static Result<Target> target(Store &store, const QString &workspace, const QString &experiment, const QString &folder)
    {
        return target(store, workspace, experiment, folder, Place());
    }

    TensorBoardImport(Store &store, const Target &target);

    // Finds the runs, adds the new ones, reads every file from its saved offset to its end
    // (runs read in parallel, on every core), and stores the new offsets and summaries in
    // one transaction.
    Result<Outcome> update();

private:
    Store &m_store;
    qint64 m_experimentId;
    qint64 m_clusterId;
    QString m_node;
    QByteArray m_root;
    std::shared_ptr<EventFiles> m_files;
};

} // namespace TrainDesk

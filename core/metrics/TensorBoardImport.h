#pragma once

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
// and offset, once, and that file is not read further. The folder is only read.
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

    // Where a folder's runs go: its experiment (made when missing; by default named after
    // the folder), the workspace's local cluster (a job has a cluster), the folder resolved.
    struct Target
    {
        qint64 experimentId = 0;
        QString experiment;
        qint64 clusterId = 0;
        QByteArray root;    // absolute, links resolved, as the file system spells it
    };
    // The CLI's `runs import` and the GUI's File > Open TensorBoard folder... alike.
    static Result<Target> target(Store &store, const QString &workspace, const QString &experiment, const QString &folder);

    TensorBoardImport(Store &store, const Target &target);

    // Finds the runs, adds the new ones, reads every file from its saved offset to its end
    // (runs read in parallel, on every core), and stores the new offsets and summaries in
    // one transaction.
    Result<Outcome> update();

private:
    Store &m_store;
    qint64 m_experimentId;
    qint64 m_clusterId;
    QByteArray m_root;
};

} // namespace TrainDesk

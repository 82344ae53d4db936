#pragma once
// Runs imported from a TensorBoard folder (`traindesk runs import`, File > Open TensorBoard
// folder...): each is a job row (state succeeded, on the workspace's local cluster, so every
// view of jobs shows it) plus this record of where its event files are. The files are read
// in place: the store keeps only how far each file was read (an index of offsets), the
// points counted there and the run's summary (last and best value per series).
#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace TrainDesk {

struct ImportedRun
{
    qint64 jobId = 0;
    QString name;          // the run's name as TensorBoard gives it: its path under the root ("." for the root)
    QByteArray root;       // the folder imported, as the file system spells it (any bytes)
    QByteArray folder;     // the run's folder, the same way
    QByteArray summary;    // metrics/RunSummary as JSON, kept up to date with each read
};

struct ImportedFile
{
    QByteArray name;       // the event file's name in the run folder (any bytes)
    qint64 offset = 0;     // bytes of whole, checked records read
    qint64 points = 0;     // scalars in them
    QString error;         // a damaged record (file and offset named): the file is not read further
};

} // namespace TrainDesk

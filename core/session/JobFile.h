#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

namespace TrainDesk {

// One file of a job's output as the GUI lists it: the job's stdouterr folder or one of its
// output directories (by id), read on the head node by the worker thread.
struct JobFile
{
    QString directory;   // "stdouterr" or an output directory's id, e.g. "MODEL"
    QString path;        // relative to that directory, '/'-separated
    QString remotePath;  // absolute path on the head node
    qint64 size = 0;
    QDateTime modified;
};

} // namespace TrainDesk

Q_DECLARE_METATYPE(TrainDesk::JobFile)

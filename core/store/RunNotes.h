#pragma once

#include "common/Result.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// The user's own words on a run: tags ("baseline", "lr-sweep") and a note. Kept in the
// store's run_notes table (deleted with the job), read and written on a connection of their
// own, so the runs view does it off the GUI thread without the worker.
struct RunNote
{
    QStringList tags;
    QString note;
    bool isEmpty() const { return tags.isEmpty() && note.isEmpty(); }
};

namespace RunNotes {

// "baseline, lr sweep  ,x" -> {"baseline", "lr sweep", "x"}: trimmed, empty ones and repeats dropped.
QStringList parseTags(const QString &text);
QHash<qint64, RunNote> read(const QString &databasePath, const QList<qint64> &jobIds);
// An empty note removes the row.
VoidResult write(const QString &databasePath, qint64 jobId, const RunNote &note);

} // namespace RunNotes
} // namespace TrainDesk

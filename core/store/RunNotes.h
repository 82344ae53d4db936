#pragma once

#include "RunNote.h"
#include "common/Result.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace TrainDesk {

// The run_notes table, each call on a connection of its own (any thread may call).
namespace RunNotes {

QHash<qint64, RunNote> read(const QString &databasePath, const QList<qint64> &jobIds);
// The colours chosen for any run, by job id (the views draw runs of other experiments too).
QHash<qint64, QString> readColors(const QString &databasePath);
// An empty note removes the row.
VoidResult write(const QString &databasePath, qint64 jobId, const RunNote &note);

} // namespace RunNotes
} // namespace TrainDesk

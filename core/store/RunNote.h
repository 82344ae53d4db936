#pragma once

#include <QString>
#include <QStringList>

namespace TrainDesk {

// The user's own words on a run: tags ("baseline", "lr-sweep") and a note. Kept in the
// store's run_notes table (deleted with the job), read and written on a connection of their
// own (session/RunNotesAccess does it off the GUI thread). The colour is kept as text: the
// core has no colours (Qt GUI).
struct RunNote
{
    QStringList tags;
    QString note;
    QString color;  // "#rrggbb" the user chose for the run wherever it is drawn; "" automatic
    bool isEmpty() const { return tags.isEmpty() && note.isEmpty() && color.isEmpty(); }
    bool operator==(const RunNote &) const = default;
};

namespace RunNotes {

// "baseline, lr sweep  ,x" -> {"baseline", "lr sweep", "x"}: trimmed, empty ones and repeats dropped.
QStringList parseTags(const QString &text);

} // namespace RunNotes
} // namespace TrainDesk

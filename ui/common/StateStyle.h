#pragma once

#include "store/Entities.h"

#include <QColor>
#include <QIcon>

namespace TrainDesk::Ui {

// One look for states wherever they appear (tree, overview, node table).
QColor stateColor(JobState state);
QColor stateColor(NodeState state);
QIcon stateIcon(const QColor &color);  // a filled dot, cached per colour
// A job's state as the user reads it: "terminated" for a job that failed because it was
// terminated (its JobTerminated error), in a colour apart from failures.
bool wasTerminated(const Job &job);
QString jobStateText(const Job &job);
QColor jobStateColor(const Job &job);

// "1 h 02 min", "45 s": for durations in the overview.
QString formatDuration(qint64 seconds);
// Local time, to the second; "—" when invalid.
QString formatTime(const QDateTime &time);
// "293.0 KiB": IEC units, powers of 1024, labelled as such.
QString formatBytes(qint64 bytes);
// "1 job", "3 jobs": English counts read better than "job(s)".
QString countOf(qint64 n, const QString &one, const QString &many);

} // namespace TrainDesk::Ui

#pragma once
// What the GUI does once, before any window: checks that the data directory is this user's
// alone, opens (and migrates) the database, and makes the embedded defaults. The Backend's
// worker opens its own connection afterwards; this is the GUI thread's only use of a Store.
#include <QString>

namespace TrainDesk::Startup {

struct Outcome {
    QString fatal;    // the app cannot go on (an unsafe data directory, a database that won't open)
    QString warning;  // it can, but the user should know (the defaults could not be made)
};

Outcome prepareDataDirectory(const QString &dataDirectory, const QString &databasePath);

} // namespace TrainDesk::Startup

#pragma once

#include "DataSetCatalogue.h"

#include <QDateTime>
#include <QString>

namespace TrainDesk {

// What a share's folder holds of a data set, without reading the files through: the GUI
// shows it beside each data set and the new-job wizard fetches before submitting when the
// data set is not there.
struct DataSetPresence
{
    enum class State {
        Absent,      // none of its files
        Partial,     // a download stopped part way (a fetch continues it), or some files only
        Unverified,  // every file, but no manifest vouches for them (a fetch checks them)
        Fetched,     // every file, with the size and checksum the manifest recorded at its fetch
    };
    QString dataSet;
    QString directory;  // folder of the share
    State state = State::Absent;
    qint64 bytes = 0;   // of the files present
    QDateTime placed;   // when the newest file was placed (Fetched only)
};

QString toString(DataSetPresence::State state);

} // namespace TrainDesk

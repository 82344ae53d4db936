#pragma once

#include "datasets/DataSetPresence.h"

#include <QColor>
#include <QString>

namespace TrainDesk::Ui {

// The words and colours the Data sets dialog and the new-job wizard use for data sets.
QString presenceText(const DataSetPresence &presence);
QColor presenceColor(DataSetPresence::State state);
// A failed fetch for the user: what went wrong and, when no address could be reached, how
// to place the files by hand (their addresses and From file…).
QString fetchErrorText(const DataSet &set, const QString &error, bool unreachable);
// The names of a data set's files, comma-separated.
QString filesText(const DataSet &set);

} // namespace TrainDesk::Ui

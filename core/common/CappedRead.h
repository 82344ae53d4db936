#pragma once

#include "Result.h"

#include <QByteArray>
#include <QString>

namespace TrainDesk {

// Reads a whole file of at most `cap` bytes, refusing larger ones (and endless ones such as
// /dev/zero) with the cap in the message.
Result<QByteArray> readCapped(const QString &path, qint64 cap);

} // namespace TrainDesk

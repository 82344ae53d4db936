#pragma once

#include <QString>

namespace TrainDesk::FileCompare {

// Whether two files of this machine hold the same bytes (false when either cannot be read).
// Downloads use it to tell a local file they would replace from one that is already the same.
bool sameBytes(const QString &a, const QString &b);

} // namespace TrainDesk::FileCompare

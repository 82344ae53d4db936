#pragma once

#include <QString>

namespace TrainDesk {

// What errno says, in words a user can act on: "no space left on device (ENOSPC)".
QString errnoText(int error);

} // namespace TrainDesk

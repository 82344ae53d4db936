#pragma once

#include "common/Result.h"

namespace TrainDesk {

// Batch AI's rule for resource names: ^[-\w_]+$, 1 to 64 characters.
// `what` names the kind of thing in the error ("workspace", "job", ...).
VoidResult validateName(const QString &what, const QString &name);

} // namespace TrainDesk

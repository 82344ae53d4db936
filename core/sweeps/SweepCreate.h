#pragma once

#include "SweepRequest.h"
#include "common/Result.h"

#include <QStringList>

namespace TrainDesk {

class Store;

// Checks a request all the way (names, parameters, the template with every trial's values
// put in, the early-stopping policy) and, for create, stores the sweep; the agent runs it.
namespace SweepCreate {

Result<SweepPreview> preview(Store &store, const SweepRequest &request);
Result<Sweep> create(Store &store, const SweepRequest &request, QStringList *warnings = nullptr);

} // namespace SweepCreate
} // namespace TrainDesk

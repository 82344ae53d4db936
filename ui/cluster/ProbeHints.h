#pragma once

#include "cluster/NodeProbeResult.h"

namespace TrainDesk::Ui {

// Where a probe's result is read: the cluster wizard's connection test (nothing stored
// yet; Back leads to the pages that set it up) or an existing cluster's page.
enum class ProbePlace { Wizard, ClusterPage };

// A failed check's hint as the GUI gives it: the buttons and pages that fix it, where the
// core's hint names CLI options (--generate-ssh-keys, --mount-root). Hints about the node
// itself (install Open MPI, check the driver) stay as the core wrote them.
QString probeHint(const ProbeCheck &check, ProbePlace place);

} // namespace TrainDesk::Ui

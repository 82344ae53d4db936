#pragma once

#include "Command.h"

namespace TrainDesk::Cli {

// `job file list` of a run imported from a TensorBoard folder: its event files, where they
// are (nothing of them was copied), with how far the import read each, its points and a
// damaged record's error. Such a run has no job directory, stdouterr or output ids.
int listImportedRunFiles(Context &c, const Job &job, const ImportedRun &run);

} // namespace TrainDesk::Cli

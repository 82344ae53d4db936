#pragma once

#include <QtGlobal>

namespace TrainDesk {

// How many times parseJobSpec has run in this process: the agent's tick must not add to it
// (a job's spec is parsed once and kept, jobs/JobSpecCache); tests count it.
quint64 jobSpecParses();

} // namespace TrainDesk

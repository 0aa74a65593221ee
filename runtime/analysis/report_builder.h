// Turns what the runtime collected into the report: folds shadow counts into
// objects, symbolizes allocation sites, scores objects against thresholds,
// and writes the text report and the JSON profile.
#pragma once

#include "common/env_config.h"

#include <cstdint>

namespace numaperf {

// Called at initialisation: remembers the command line, the program name and
// the working directory (the program may chdir later).
void captureProcessInfo();
void writeReport(const RuntimeConfig &config, uint64_t start_ns, uint64_t end_ns);

}  // namespace numaperf

// The readings file for `bwmodel --fit FILE`: per run, the placement and the
// read and write traffic per (CPU socket, memory bank), as a counter tool
// measured them. Schema: docs/bwmodel.md.
#pragma once
#include <string>
#include <vector>

#include "bwmodel/solver.h"

namespace numaperf::bwmodel {

struct Readings {
  std::vector<Run> reads, writes;
};

// Throws BwmodelError on an unreadable or malformed file.
Readings readReadings(const std::string& path);

}  // namespace numaperf::bwmodel

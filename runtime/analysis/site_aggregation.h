// Groups allocation stacks and globals into report objects with their
// remote-access totals. Different stacks whose innermost frame is the same
// source line form one allocation site (the unit users fix and CI matches).
#pragma once

#include "report/profile_model.h"

#include <cstdint>
#include <vector>

namespace numaperf {

namespace symbolize {
class Symbolizer;
}

struct ObjectTotals {
  report::ObjectInfo object;
  uint64_t remote_accesses = 0;
};

std::vector<ObjectTotals> collectObjectTotals(symbolize::Symbolizer &symbolizer,
                                              uint32_t max_frames);

}  // namespace numaperf

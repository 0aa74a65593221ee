// Groups allocation stacks and globals into report objects with their
// folded profiles. Different stacks whose innermost frame is the same
// source line form one allocation site (the unit users fix and CI matches).
#pragma once

#include "core/object_profile.h"
#include "report/profile_model.h"

#include <cstdint>
#include <vector>

namespace numaperf {

namespace symbolize {
class Symbolizer;
}

struct ObjectTotals {
  report::ObjectInfo object;
  ObjectProfile profile;
};

std::vector<ObjectTotals> collectObjectTotals(symbolize::Symbolizer &symbolizer,
                                              uint32_t max_frames);

}  // namespace numaperf

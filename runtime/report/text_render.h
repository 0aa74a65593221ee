// The human-readable report, rendered from the profile model only, so that
// `numaperf report saved.json` prints exactly what the program printed.
#pragma once

#include "report/profile_model.h"

#include <cstddef>
#include <string>

namespace numaperf::report {

struct TextOptions {
  bool color = false;       // ANSI colours; caller decides (isatty, NO_COLOR)
  size_t top = 0;           // show the first N issues; 0 = all
  size_t max_frames = 8;    // stack frames per issue; 0 = all
  size_t width = 100;       // maximum line width in columns
};

// Deterministic: depends only on the profile and the options (numbers are
// formatted independently of the C locale). Never throws; on allocation
// failure returns whatever could be rendered.
std::string renderText(const Profile& profile, const TextOptions& options);

// "heap t.c:10" / "global 'name' t.c:3": an object on one short line.
std::string shortObjectLabel(const ObjectInfo& o);

}  // namespace numaperf::report

// Turns one object's folded profile into report issues: the remote-access,
// false-sharing and true-sharing scores (docs/scores.md), each compared with
// its threshold, and the fix advice with the evidence behind it.
#pragma once

#include "common/env_config.h"
#include "core/object_profile.h"
#include "report/profile_model.h"

#include <cstdint>
#include <vector>

namespace numaperf {

namespace symbolize {
class Symbolizer;
}

struct ScoringContext {
  double wall_ms = 0;
  uint64_t total_accesses = 0;
  uint64_t total_remote = 0;
  uint64_t threads = 1;
  double remote_threshold = 0;
  double false_sharing_threshold = 0;
  double true_sharing_threshold = 0;
  double sharing_hot_rate = 0;  // invalidations per line and ms (NUMAPERF_SHARING_HOT_RATE)
  symbolize::Symbolizer *symbolizer = nullptr;  // for access sites; may be null
};

// Appends the object's issues above threshold to `out`.
void classifyObject(const report::ObjectInfo &object, const ObjectProfile &profile,
                    const ScoringContext &context, std::vector<report::Issue> *out);

// Ranks issues by how far each is above its own threshold (kinds have
// different units), most serious first.
void rankIssues(std::vector<report::Issue> *issues);

}  // namespace numaperf

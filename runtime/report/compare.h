// Comparison of two profiles for `numaperf check` (CI gate) and
// `numaperf diff`. Issues are matched across runs by kind and object
// identity (allocation site or global name), never by address or rank.
#pragma once

#include "report/profile_model.h"

#include <map>
#include <string>
#include <vector>

namespace numaperf::report {

// Which figure is compared. normalized_score does not depend on machine
// speed, so it is the default for baselines recorded on another machine.
enum class Metric { kNormalizedScore, kScore };

const char* metricName(Metric metric);  // "normalized_score" / "score"

// A current value v against a baseline b is worse beyond tolerance when
//   v - b > max(relative * |b|, absolute)
// i.e. a change is tolerated when it stays within either bound, and the same
// bound on the other side decides "improved".
struct Tolerance {
  double relative = 0.10;
  double absolute = 0.0;
};

struct CompareOptions {
  Metric metric = Metric::kNormalizedScore;
  Tolerance tolerance;                      // all kinds
  std::map<std::string, Tolerance> by_kind; // overrides per issue kind
  bool fail_on_new = true;                  // a new issue counts as a regression

  const Tolerance& toleranceFor(const std::string& kind) const;
};

enum class ChangeStatus { kRegressed, kNew, kImproved, kFixed, kUnchanged };

const char* statusName(ChangeStatus status);  // "regressed", "new", ...

struct IssueChange {
  ChangeStatus status = ChangeStatus::kUnchanged;
  std::string kind;
  std::string identity;  // e.g. "heap allocated at src/a.c:23 in main"
  int baseline_index = -1;  // into the baseline's issues, -1 when new
  int current_index = -1;   // into the current issues, -1 when fixed
  double baseline_value = 0;  // compared metric (0 when absent)
  double current_value = 0;
  double allowed = 0;         // tolerated increase for this pair
  std::string match_note;     // e.g. "site moved from line 23 to 25"
};

struct Comparison {
  Metric metric = Metric::kNormalizedScore;
  // Order: regressed, new, improved, fixed, unchanged; within a group by
  // decreasing current (or, for fixed, baseline) value.
  std::vector<IssueChange> changes;
  std::vector<std::string> warnings;  // e.g. thresholds differ between runs

  size_t count(ChangeStatus status) const;
  bool failed(const CompareOptions& options) const;  // regressed, or new when fail_on_new
};

// Fails (returns false, sets *error) when the profiles cannot be compared:
// a profile without access data under the normalized metric, or a compared
// value that is not a finite number.
bool compareProfiles(const Profile& baseline, const Profile& current,
                     const CompareOptions& options, Comparison* out, std::string* error);

// The object's identity as shown to people: "heap allocated at FILE:LINE in
// FUNCTION", "global 'NAME' (FILE:LINE)", or "(no object)".
std::string describeObject(const ObjectInfo& object);

}  // namespace numaperf::report

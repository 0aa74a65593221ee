// `numaperf select`: from a profile, the functions to leave uninstrumented
// next time. Like scorep-score: the functions with the most hook calls
// (counted, or estimated for older builds) go first, but never one behind a
// reported issue (an access site or allocation-stack frame of the issue
// names it, or it was first run by a thread that first touched an issue
// object's pages). Pure, so it can be unit tested.
#pragma once

#include "report/profile_model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace numaperf::cli {

struct SelectOptions {
  bool keep_issue_functions = true;  // --keep-issues (default) / --no-keep-issues
  // Estimated hook calls the next run may still make: drop functions, most
  // calls first, until at most this many are left. None: drop every
  // function with hook calls that is not kept.
  std::optional<uint64_t> budget;
  // Only functions with at least this share of all estimated hook calls are
  // dropped: cheap functions gain little and may be the ones whose first
  // touches place an issue's pages (--min-share, default 1%).
  double min_share = 0.01;
};

struct SelectedFunction {
  std::string name;      // symbol name (written to the filter)
  std::string function;  // demangled
  uint64_t hook_calls = 0;
};

struct Selection {
  std::vector<SelectedFunction> dropped;       // most hook calls first
  std::vector<SelectedFunction> kept_for_issues;
  // First run by a thread that first touched an issue object's pages: it
  // may be the code that placed them.
  std::vector<SelectedFunction> kept_for_first_touch;
  std::vector<std::string> already_filtered;   // filtered in the profiled build
  uint64_t total_calls = 0;
  uint64_t dropped_calls = 0;
};

// Functions behind the issues (demangled names): their access sites and
// the frames of their objects' allocation stacks.
std::vector<std::string> issueFunctions(const report::Profile& profile);

// Threads that first touched the pages of an issue's object (from the
// bandwidth signature's static_threads of the same object).
std::vector<uint32_t> issueFirstTouchers(const report::Profile& profile);

Selection selectFunctions(const report::Profile& profile, const SelectOptions& options);

// The filter file (sanitizer format, docs/filters.md) for a selection.
std::string renderFilter(const Selection& selection, const std::string& source);

}  // namespace numaperf::cli

// numaperf select PROFILE.json: writes a compile-time filter that leaves
// out the functions with the most hook calls that are behind no reported
// issue (docs/filters.md).
#include "cli_common.h"
#include "commands.h"
#include "function_selection.h"

#include "report/number_format.h"

#include <memory>

namespace numaperf::cli {

namespace {

struct SelectCliOptions {
  std::string input;
  std::string output;
  std::string budget;
  std::string min_share = "1%";
  bool keep_issues = true;
};

// "5000000", "2.5e8" or "10%" (of the profile's hook calls).
bool parseBudget(const std::string& text, uint64_t total, uint64_t* out) {
  double v = 0;
  if (!text.empty() && text.back() == '%') {
    if (!parseFinite(text.substr(0, text.size() - 1), &v) || v < 0 || v > 100) return false;
    *out = uint64_t(double(total) * v / 100.0);
    return true;
  }
  if (!parseFinite(text, &v) || v < 0 || v > 1.8e19) return false;
  *out = uint64_t(v);
  return true;
}

void runSelect(const SelectCliOptions& o) {
  if (parseOnly()) return;
  LoadedProfile loaded = loadOrFail(o.input);
  const report::Profile& p = loaded.profile;
  if (!p.instrumentation)
    finish(kExitUsage, o.input +
                           ": no instrumentation section (profile written by an older "
                           "numaperf?); rebuild with numaperf-clang and run again");
  SelectOptions options;
  options.keep_issue_functions = o.keep_issues;
  if (!o.budget.empty()) {
    uint64_t total = 0;
    for (const auto& f : p.instrumentation->functions) total += f.hook_calls;
    uint64_t budget = 0;
    if (!parseBudget(o.budget, total, &budget))
      finish(kExitUsage, "--budget '" + o.budget +
                             "' is not a number of hook calls or a percentage (0-100%)");
    options.budget = budget;
  }
  {
    std::string t = o.min_share;
    bool percent = !t.empty() && t.back() == '%';
    if (percent) t.pop_back();
    double v = 0;
    if (!parseFinite(t, &v) || v < 0 || (percent ? v > 100 : v > 1))
      finish(kExitUsage, "--min-share '" + o.min_share +
                             "' is not a share (0.01 or 1%)");
    options.min_share = percent ? v / 100.0 : v;
  }
  Selection s = selectFunctions(p, options);
  writeOutput(o.output, renderFilter(s, o.input));
  double share = s.total_calls ? 100.0 * double(s.dropped_calls) / double(s.total_calls) : 0;
  note("dropping " + std::to_string(s.dropped.size()) + " functions (" +
       report::formatFixed(share, 1) + "% of the hook calls); keeping " +
       std::to_string(s.kept_for_issues.size()) + " behind reported issues and " +
       std::to_string(s.kept_for_first_touch.size()) +
       " first run by a thread that first touched an issue's object");
}

}  // namespace

void registerSelectCommand(CLI::App& app) {
  auto o = std::make_shared<SelectCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "select",
      "Write a filter (for numaperf-clang --numaperf-filter) dropping the functions with the "
      "most hook calls that are behind no reported issue");
  sub->add_option("profile", o->input, "Profile written by the runtime (JSON; - for stdin)")
      ->required();
  sub->add_flag("--keep-issues,!--no-keep-issues", o->keep_issues,
                "Keep every function named by an issue's access sites (default)");
  sub->add_option("--budget", o->budget,
                  "Estimated hook calls the next run may make: a count (5e8) or a share "
                  "of this profile's (10%); drops the costliest functions until under it "
                  "(default: drop every function with hook calls not behind an issue)");
  sub->add_option("--min-share", o->min_share,
                  "Drop only functions with at least this share of the hook "
                  "calls (0.01 or 1%)")
      ->capture_default_str();
  sub->add_option("-o,--output", o->output,
                  "Write the filter to FILE (atomically) instead of standard output");
  sub->callback([o] { runSelect(*o); });
}

}  // namespace numaperf::cli

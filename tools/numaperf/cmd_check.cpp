// numaperf check --baseline BASE.json CURRENT.json: the CI gate. Exit 0 when
// no issue got worse beyond tolerance, 1 when one did (or a new issue
// appeared), 2 when the input cannot be used.
#include "cli_common.h"
#include "commands.h"

#include "report/compare.h"
#include "report/number_format.h"

#include <memory>

namespace numaperf::cli {

namespace {

struct CheckOptions {
  std::string baseline;
  std::string current;
  std::string tolerance = "10%";
  std::string abs_tolerance = "0";
  std::vector<std::string> kind_tolerances;
  std::string metric = "normalized";
  bool allow_new = false;
};

// KIND=REL[:ABS], e.g. remote_access=25% or remote_access=0.25:3.
bool parseKindTolerance(const std::string& text, const report::Tolerance& defaults,
                        std::string* kind, report::Tolerance* out) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  *kind = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  *out = defaults;
  size_t colon = rest.find(':');
  if (!parseRelative(rest.substr(0, colon), &out->relative)) return false;
  if (colon != std::string::npos) {
    double abs = 0;
    if (!parseFinite(rest.substr(colon + 1), &abs) || abs < 0) return false;
    out->absolute = abs;
  }
  return true;
}

std::string tolText(const report::Tolerance& t) {
  return "+" + report::formatShortest(t.relative * 100) + "% or +" +
         report::formatShortest(t.absolute);
}

std::string renderCheck(const report::Comparison& cmp, const report::CompareOptions& opt,
                        const report::Profile& base, const report::Profile& cur) {
  using report::ChangeStatus;
  const std::string metric = report::metricName(cmp.metric);
  std::string out;
  auto group = [&](ChangeStatus status, const char* title) {
    size_t n = cmp.count(status);
    if (n == 0) return;
    out += std::string(title) + " (" + std::to_string(n) + "):\n";
    for (const report::IssueChange& c : cmp.changes) {
      if (c.status != status) continue;
      out += "  " + c.kind + "  " + c.identity + "\n";
      std::string line = "      " + metric + " ";
      switch (status) {
        case ChangeStatus::kRegressed:
        case ChangeStatus::kImproved:
        case ChangeStatus::kUnchanged:
          line += formatValue(c.baseline_value) + " -> " + formatValue(c.current_value) + " (" +
                  formatPercentChange(c.baseline_value, c.current_value) + "; tolerated +/-" +
                  formatValue(c.allowed) + ")";
          break;
        case ChangeStatus::kNew: {
          const report::Issue& i = cur.issues[c.current_index];
          line += formatValue(c.current_value) + " (score " + formatValue(i.score) +
                  " /ms, threshold " + report::formatShortest(i.threshold) + ")";
          break;
        }
        case ChangeStatus::kFixed: {
          const report::Issue& i = base.issues[c.baseline_index];
          line += "was " + formatValue(c.baseline_value) + " (score " + formatValue(i.score) +
                  " /ms); now below its threshold or gone";
          break;
        }
      }
      out += line + "\n";
      if (!c.match_note.empty()) out += "      note: " + c.match_note + "\n";
    }
  };
  group(ChangeStatus::kRegressed, "regressed");
  group(ChangeStatus::kNew, opt.fail_on_new ? "new" : "new (allowed by --allow-new)");
  group(ChangeStatus::kImproved, "improved");
  group(ChangeStatus::kFixed, "fixed");
  size_t same = cmp.count(ChangeStatus::kUnchanged);
  if (same > 0)
    out += "unchanged: " + std::to_string(same) + (same == 1 ? " issue" : " issues") +
           " within tolerance\n";
  if (!out.empty()) out += "\n";
  std::string tol = "tolerance " + tolText(opt.tolerance);
  for (const auto& [kind, t] : opt.by_kind) tol += ", " + kind + " " + tolText(t);
  out += std::string("numaperf check: ") + (cmp.failed(opt) ? "FAIL" : "OK") + ": " +
         std::to_string(cmp.count(ChangeStatus::kRegressed)) + " regressed, " +
         std::to_string(cmp.count(ChangeStatus::kNew)) + " new, " +
         std::to_string(cmp.count(ChangeStatus::kImproved)) + " improved, " +
         std::to_string(cmp.count(ChangeStatus::kFixed)) + " fixed, " +
         std::to_string(same) + " unchanged (" + metric + ", " + tol + ")\n";
  return out;
}

void runCheck(const CheckOptions& o) {
  report::CompareOptions opt;
  opt.metric = o.metric == "score" ? report::Metric::kScore : report::Metric::kNormalizedScore;
  opt.fail_on_new = !o.allow_new;
  if (!parseRelative(o.tolerance, &opt.tolerance.relative))
    finish(kExitUsage, "--tolerance: expected a fraction or percentage >= 0 (0.1 or 10%), got '" +
                           o.tolerance + "'");
  if (!parseFinite(o.abs_tolerance, &opt.tolerance.absolute) || opt.tolerance.absolute < 0)
    finish(kExitUsage, "--abs-tolerance: expected a finite number >= 0, got '" +
                           o.abs_tolerance + "'");
  for (const std::string& spec : o.kind_tolerances) {
    std::string kind;
    report::Tolerance t;
    if (!parseKindTolerance(spec, opt.tolerance, &kind, &t))
      finish(kExitUsage, "--kind-tolerance: expected KIND=REL or KIND=REL:ABS (e.g. "
                         "remote_access=25% or remote_access=0.25:3), got '" + spec + "'");
    opt.by_kind[kind] = t;
  }
  if (parseOnly()) return;
  LoadedProfile base = loadOrFail(o.baseline);
  LoadedProfile cur = loadOrFail(o.current);
  report::Comparison cmp;
  std::string error;
  if (!report::compareProfiles(base.profile, cur.profile, opt, &cmp, &error))
    finish(kExitUsage, "incompatible profiles: " + error);
  for (const std::string& w : cmp.warnings) note(w);
  writeOutput("", renderCheck(cmp, opt, base.profile, cur.profile));
  if (cmp.failed(opt)) finish(kExitRegression);
}

}  // namespace

void registerCheckCommand(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand(
      "check", "CI gate: compare a profile with a baseline; exit 1 if a score got worse");
  sub->add_option("-b,--baseline", o->baseline, "Baseline profile (JSON)")->required();
  sub->add_option("current", o->current, "Current profile (JSON; - for stdin)")->required();
  sub->add_option("-t,--tolerance", o->tolerance,
                  "Tolerated relative increase per issue, as a fraction or percentage")
      ->capture_default_str();
  sub->add_option("-a,--abs-tolerance", o->abs_tolerance,
                  "Tolerated absolute increase per issue; an increase fails only when it "
                  "exceeds both the relative and the absolute tolerance")
      ->capture_default_str();
  sub->add_option("-k,--kind-tolerance", o->kind_tolerances,
                  "Tolerance for one issue kind: KIND=REL or KIND=REL:ABS (repeatable)");
  sub->add_option("-m,--metric", o->metric,
                  "Compare normalized_score (per 1000 accesses, machine independent) or the "
                  "per-millisecond score")
      ->check(CLI::IsMember({"normalized", "score"}))
      ->capture_default_str();
  sub->add_flag("--allow-new", o->allow_new,
                "Do not fail on issues missing from the baseline (they are still listed)");
  sub->footer(
      "Issues are matched by kind and object (allocation site file:line:function or global "
      "name), not by address or rank; a site whose directory or line changed is still "
      "matched when it is unambiguous.\n"
      "Exit codes: 0 no regression, 1 regression or new issue, 2 unusable input.");
  sub->callback([o] { runCheck(*o); });
}

}  // namespace numaperf::cli

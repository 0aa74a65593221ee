// numaperf diff A.json B.json: every issue of either profile with its score
// and normalized score in A and B side by side.
#include "cli_common.h"
#include "commands.h"

#include "report/compare.h"
#include "report/number_format.h"
#include "report/text_layout.h"

#include <algorithm>
#include <memory>

namespace numaperf::cli {

namespace {

struct DiffOptions {
  std::string a;
  std::string b;
  std::string output;
};

std::string pad(const std::string& s, size_t width, bool right) {
  size_t w = report::displayWidth(s);
  if (w >= width) return s;
  return right ? std::string(width - w, ' ') + s : s + std::string(width - w, ' ');
}

std::string cell(const report::Issue* issue, bool normalized) {
  if (issue == nullptr) return "-";
  return formatValue(normalized ? issue->normalized_score : issue->score);
}

std::string change(const report::Issue* a, const report::Issue* b, bool normalized) {
  double va = a ? (normalized ? a->normalized_score : a->score) : 0;
  double vb = b ? (normalized ? b->normalized_score : b->score) : 0;
  if (a == nullptr) return "new";
  if (b == nullptr) return "gone";
  double d = vb - va;
  return (d >= 0 ? "+" : "") + formatValue(d) + " (" + formatPercentChange(va, vb) + ")";
}

std::string renderDiff(const report::Comparison& cmp, const LoadedProfile& a,
                       const LoadedProfile& b, const DiffOptions& o) {
  constexpr size_t kWidth = 100;
  std::string out = "numaperf diff\nA: " + o.a + "\nB: " + o.b + "\n";
  out += "run time: " + report::formatFixed(a.profile.program.wall_ms, 1) + " ms -> " +
         report::formatFixed(b.profile.program.wall_ms, 1) + " ms; accesses: " +
         std::to_string(a.profile.program.total_accesses) + " -> " +
         std::to_string(b.profile.program.total_accesses) + "\n";
  if (cmp.changes.empty()) return out + "\nno issues in either profile\n";
  const std::string header = "  " + pad("", 18, false) + pad("A", 14, true) + pad("B", 14, true) +
                             "   change";
  size_t rank = 0;
  for (const report::IssueChange& c : cmp.changes) {
    const report::Issue* ia = c.baseline_index >= 0 ? &a.profile.issues[c.baseline_index] : nullptr;
    const report::Issue* ib = c.current_index >= 0 ? &b.profile.issues[c.current_index] : nullptr;
    out += "\n";
    std::string status = ia == nullptr ? "only in B" : ib == nullptr ? "only in A" : "in both";
    out += report::truncateRight("#" + std::to_string(++rank) + " " + c.kind + "  " + c.identity +
                                     "  [" + status + "]",
                                 kWidth) +
           "\n";
    if (!c.match_note.empty()) out += "  note: " + c.match_note + "\n";
    out += header + "\n";
    for (bool normalized : {false, true}) {
      out += "  " + pad(normalized ? "normalized_score" : "score (/ms)", 18, false) +
             pad(cell(ia, normalized), 14, true) + pad(cell(ib, normalized), 14, true) + "   " +
             change(ia, ib, normalized) + "\n";
    }
  }
  return out;
}

void runDiff(const DiffOptions& o) {
  if (parseOnly()) return;
  LoadedProfile a = loadOrFail(o.a);
  LoadedProfile b = loadOrFail(o.b);
  report::CompareOptions opt;
  // Matching does not depend on the metric; the score is always present.
  opt.metric = report::Metric::kScore;
  opt.tolerance = {0, 0};
  report::Comparison cmp;
  std::string error;
  if (!report::compareProfiles(a.profile, b.profile, opt, &cmp, &error))
    finish(kExitUsage, "cannot compare: " + error);
  // Rank by the larger of the two scores, so the biggest items come first.
  std::stable_sort(cmp.changes.begin(), cmp.changes.end(),
                   [](const report::IssueChange& x, const report::IssueChange& y) {
                     return std::max(x.baseline_value, x.current_value) >
                            std::max(y.baseline_value, y.current_value);
                   });
  writeOutput(o.output, renderDiff(cmp, a, b, o));
}

}  // namespace

void registerDiffCommand(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* sub =
      app.add_subcommand("diff", "Show every issue's scores in two profiles side by side");
  sub->add_option("a", o->a, "First profile (JSON)")->required();
  sub->add_option("b", o->b, "Second profile (JSON)")->required();
  sub->add_option("-o,--output", o->output, "Write to FILE instead of standard output");
  sub->footer("Issues are matched like `numaperf check` does. Exit codes: 0 shown, 2 unusable input.");
  sub->callback([o] { runDiff(*o); });
}

}  // namespace numaperf::cli

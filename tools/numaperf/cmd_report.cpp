// numaperf report FILE.json: re-renders a saved profile as text (exactly what
// the program printed at exit), JSON or a self-contained HTML page.
#include "cli_common.h"
#include "commands.h"

#include "report/html_render.h"
#include "report/json_io.h"
#include "report/number_format.h"
#include "report/remote_cost.h"
#include "report/text_render.h"

#include <memory>

namespace numaperf::cli {

namespace {

struct ReportOptions {
  std::string input;
  std::string format = "text";
  size_t top = 0;
  double min_score = 0;
  bool have_min_score = false;
  std::string output;
  std::string color = "auto";
  std::string calibration;
};

void runReport(const ReportOptions& o) {
  if (parseOnly()) return;
  LoadedProfile loaded = loadOrFail(o.input);
  report::Profile& p = loaded.profile;
  if (o.have_min_score) {
    size_t before = p.issues.size();
    std::vector<report::Issue> kept;
    for (report::Issue& i : p.issues)
      if (i.score >= o.min_score) kept.push_back(std::move(i));
    p.issues = std::move(kept);
    size_t hidden = before - p.issues.size();
    if (hidden > 0)
      p.notes.push_back(std::to_string(hidden) + (hidden == 1 ? " issue" : " issues") +
                        " with a score below --min-score " + report::formatShortest(o.min_score) +
                        " not shown");
  }
  if (!o.calibration.empty()) {
    std::string error;
    std::optional<report::RemoteCost> cost = report::readRemoteCost(o.calibration, &error);
    if (!cost) finish(kExitUsage, error);
    report::addRemoteCostEstimates(p, *cost);
  }
  std::string out;
  if (o.format == "text") {
    report::TextOptions t;
    t.top = o.top;
    t.color = useColor(o.color, o.output);
    out = report::renderText(p, t);
  } else if (o.format == "json") {
    if (o.top > 0 && p.issues.size() > o.top) p.issues.resize(o.top);
    out = report::toJson(p).dump(2) + "\n";
  } else {
    report::HtmlOptions h;
    h.top = o.top;
    h.raw = &loaded.raw;
    out = report::renderHtml(p, h);
  }
  writeOutput(o.output, out);
}

}  // namespace

void registerReportCommand(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* sub = app.add_subcommand(
      "report", "Re-render a saved profile (text equals what the program printed at exit)");
  sub->add_option("profile", o->input, "Profile written by the runtime (JSON; - for stdin)")
      ->required();
  sub->add_option("-f,--format", o->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "html"}))
      ->capture_default_str();
  sub->add_option("-n,--top", o->top, "Show only the N most serious issues (0 = all)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--min-score", o->min_score,
                  "Hide issues whose score (per ms) is below X; a note says how many")
      ->check(finiteNonNegative())
      ->each([o](const std::string&) { o->have_min_score = true; });
  sub->add_option("-o,--output", o->output,
                  "Write to FILE (atomically) instead of standard output");
  sub->add_option("--color", o->color,
                  "Colour text output: auto = on a terminal unless NO_COLOR is set")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  sub->add_option("--calibration", o->calibration,
                  "Calibration file of a host (numaperf probe calibrate): add the estimated "
                  "extra time of each remote-access issue on that host");
  sub->callback([o] { runReport(*o); });
}

}  // namespace numaperf::cli

// Fuzzes the profile loader and everything that consumes a loaded profile:
// text, JSON and HTML rendering and the comparison. Invariants: errors are
// one line; a loaded profile survives a toJson/fromJson round trip.
#include "profile_loader.h"
#include "report/compare.h"
#include "report/html_render.h"
#include "report/json_io.h"
#include "report/text_render.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace numaperf;
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  auto loaded = cli::parseProfile(text, &error);
  if (!loaded) {
    if (error.empty() || error.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  const report::Profile& p = loaded->profile;
  report::TextOptions t;
  t.color = size % 2 == 0;
  t.width = size % 120;
  report::renderText(p, t);
  report::HtmlOptions h;
  h.raw = &loaded->raw;
  h.top = size % 4;
  report::renderHtml(p, h);
  std::string again_error;
  std::string json = report::toJson(p).dump();
  auto again = cli::parseProfile(json, &again_error);
  if (!again) std::abort();  // what we write, we must read
  if (report::renderText(again->profile, t) != report::renderText(p, t)) std::abort();
  report::Comparison cmp;
  for (auto metric : {report::Metric::kScore, report::Metric::kNormalizedScore}) {
    report::CompareOptions o;
    o.metric = metric;
    std::string cmp_error;
    report::compareProfiles(p, again->profile, o, &cmp, &cmp_error);
  }
  return 0;
}

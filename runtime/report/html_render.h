// The HTML report: one self-contained page (inline CSS, SVG and a little
// JavaScript; nothing loaded from the network) rendered from the profile
// model, for `numaperf report --format html` and `numaperf run --html`.
#pragma once

#include "report/profile_model.h"

#include <cstddef>
#include <string>

namespace numaperf::report {

struct HtmlOptions {
  size_t top = 0;  // show the first N issues; 0 = all
  // The JSON document the profile was read from, for data the model does not
  // carry (top-level "imbalance"). May be null.
  const nlohmann::json* raw = nullptr;
};

// Sections (ids): summary, chart (scores against thresholds), imbalance
// (per-thread-type shares, when the profile has them), issues (one
// <article class="issue"> each, with a page x thread map when the issue's
// evidence has "pages"), notes. Data that is missing or not understood is
// not drawn. Deterministic; never throws (returns a minimal page on failure).
std::string renderHtml(const Profile& profile, const HtmlOptions& options);

}  // namespace numaperf::report

#include "function_selection.h"

#include <algorithm>
#include <set>

namespace numaperf::cli {

namespace {

// "ns::f(int) const" -> "ns::f"; names without a parameter list unchanged.
std::string withoutParameters(const std::string& d) {
  size_t close = d.rfind(')');
  if (close == std::string::npos) return d;
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (d[i] == ')') ++depth;
    else if (d[i] == '(' && --depth == 0) return i == 0 ? d : d.substr(0, i);
  }
  return d;
}

// fnmatch specials in a symbol name are matched literally.
std::string escapePattern(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> issueFunctions(const report::Profile& profile) {
  std::set<std::string> names;
  for (const report::Issue& issue : profile.issues) {
    // The allocation stack: the code that allocates an object normally also
    // initialises it, and its first touches decide where the pages live.
    if (!issue.object.site.function.empty()) names.insert(issue.object.site.function);
    for (const report::Frame& f : issue.object.stack)
      if (!f.location.function.empty()) names.insert(f.location.function);
    auto sites = issue.evidence.find("access_sites");
    if (sites == issue.evidence.end() || !sites->is_array()) continue;
    for (const auto& site : *sites) {
      if (!site.is_object()) continue;
      auto f = site.find("function");
      if (f != site.end() && f->is_string() && !f->get<std::string>().empty())
        names.insert(f->get<std::string>());
    }
  }
  return {names.begin(), names.end()};
}

std::vector<uint32_t> issueFirstTouchers(const report::Profile& profile) {
  std::set<uint32_t> threads;
  if (!profile.signature) return {};
  auto same = [](const report::ObjectInfo& a, const report::ObjectInfo& b) {
    return a.kind == b.kind && a.name == b.name && a.site.file == b.site.file &&
           a.site.line == b.site.line && a.site.function == b.site.function;
  };
  for (const report::Issue& issue : profile.issues)
    for (const report::ObjectSignature& o : profile.signature->objects)
      if (same(issue.object, o.object))
        for (const report::StaticToucherShare& t : o.static_threads)
          if (t.thread) threads.insert(*t.thread);
  return {threads.begin(), threads.end()};
}

Selection selectFunctions(const report::Profile& profile, const SelectOptions& options) {
  Selection out;
  std::set<std::string> behind_issues;
  std::set<uint32_t> touchers;
  if (options.keep_issue_functions) {
    for (const std::string& f : issueFunctions(profile)) {
      behind_issues.insert(f);
      behind_issues.insert(withoutParameters(f));
    }
    for (uint32_t t : issueFirstTouchers(profile)) touchers.insert(t);
  }
  std::vector<SelectedFunction> candidates;
  for (const report::InstrumentedFunction& f : profile.instrumentation->functions) {
    out.total_calls += f.hook_calls;
    if (f.filtered) out.already_filtered.push_back(f.name);
    SelectedFunction s{f.name, f.function, f.hook_calls};
    bool kept = behind_issues.count(f.function) || behind_issues.count(f.name) ||
                behind_issues.count(withoutParameters(f.function));
    if (kept) {
      out.kept_for_issues.push_back(s);
    } else if (f.first_thread && touchers.count(*f.first_thread) && f.hook_calls > 0 &&
               !f.filtered) {
      out.kept_for_first_touch.push_back(s);
    } else if (f.hook_calls > 0 && !f.filtered) {
      // Functions that made no hook call cost nothing: they stay.
      candidates.push_back(s);
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const SelectedFunction& a, const SelectedFunction& b) {
                     return a.hook_calls > b.hook_calls;
                   });
  uint64_t left = out.total_calls;
  const double floor = options.min_share * double(out.total_calls);
  for (const SelectedFunction& c : candidates) {
    if (double(c.hook_calls) < floor) break;  // sorted: the rest are cheaper
    if (options.budget && left <= *options.budget) break;
    out.dropped.push_back(c);
    out.dropped_calls += c.hook_calls;
    left -= c.hook_calls;
  }
  return out;
}

std::string renderFilter(const Selection& s, const std::string& source) {
  std::string text;
  text += "# numaperf filter written by `numaperf select` from " + source + "\n";
  text += "# (sanitizer format, docs/filters.md; use with numaperf-clang --numaperf-filter=FILE)\n";
  text += "# hook calls: " + std::to_string(s.total_calls) + " in the profile, " +
          std::to_string(s.dropped_calls) + " dropped below\n";
  for (const SelectedFunction& f : s.kept_for_issues)
    text += "# kept, behind a reported issue: " + f.function + " (" +
            std::to_string(f.hook_calls) + " hook calls)\n";
  for (const SelectedFunction& f : s.kept_for_first_touch)
    text += "# kept, first run by a thread that first touched an issue's object: " +
            f.function + " (" + std::to_string(f.hook_calls) + " hook calls)\n";
  std::set<std::string> written;
  for (const SelectedFunction& f : s.dropped) {
    text += "# " + f.function + ": " + std::to_string(f.hook_calls) + " hook calls\n";
    text += "fun:" + escapePattern(f.name) + "\n";
    written.insert(f.name);
  }
  bool header = false;
  for (const std::string& name : s.already_filtered) {
    if (!written.insert(name).second) continue;
    if (!header) text += "# already filtered in the profiled build\n";
    header = true;
    text += "fun:" + escapePattern(name) + "\n";
  }
  return text;
}

}  // namespace numaperf::cli

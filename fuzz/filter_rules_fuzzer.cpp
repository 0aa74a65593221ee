// Fuzzes the pass's filter-file parsers (pass/SanitizerFilter.cpp,
// pass/ScorePFilter.cpp) and the wildcard matcher they feed. Input: first
// byte picks the format (even: sanitizer list, odd: Score-P), the rest is the
// file. A parsed file's rules must be well formed; a rejected one must get a
// "PATH:LINE: what" message, as the pass prints it.
#include "FilterRules.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

const char *const kNames[] = {"main", "compute_sum", "_ZN6detail4workEv",
                              "detail::work()", "src/vendor/lib.c", ""};

unsigned lineCount(const std::string &text) {
  unsigned n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

void checkPattern(const std::string &pattern, unsigned line, unsigned lines) {
  if (pattern.empty() || line < 1 || line > lines) abort();
  for (const char *name : kNames) numaperf::wildcardMatch(pattern, name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  bool scorep = data[0] & 1;
  std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  const std::string path = "filter.txt";
  numaperf::FilterRules rules;
  std::string error;
  bool ok = scorep ? numaperf::parseScorePFilter(path, text, rules, &error)
                   : numaperf::parseSanitizerFilter(path, text, rules, &error);
  if (!ok) {
    // "filter.txt:LINE: what", LINE within the file.
    if (error.compare(0, path.size() + 1, path + ":") != 0) abort();
    unsigned long line = strtoul(error.c_str() + path.size() + 1, nullptr, 10);
    if (line < 1 || line > lineCount(text)) abort();
    return 0;
  }
  unsigned lines = lineCount(text);
  for (const auto &e : rules.Ignore) checkPattern(e.Pattern, e.Line, lines);
  for (const auto &e : rules.Allow) checkPattern(e.Pattern, e.Line, lines);
  for (const auto &r : rules.FileRules) {
    if (r.Mangled) abort();  // MANGLED is for region names only
    checkPattern(r.Pattern, r.Line, lines);
  }
  for (const auto &r : rules.RegionRules) checkPattern(r.Pattern, r.Line, lines);
  return 0;
}

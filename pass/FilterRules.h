//===- FilterRules.h - parsed compile-time filter files --------*- C++ -*-===//
//
// What a filter file says, independent of its format. Two formats are read
// (one parser file each): sanitizer special-case lists (SanitizerFilter.cpp)
// and Score-P filter files (ScorePFilter.cpp). FunctionFilter.cpp turns the
// rules into a keep/drop decision per function; docs/filters.md is the
// user-facing description of the rule order.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_FILTERRULES_H
#define NUMAPERF_PASS_FILTERRULES_H

#include <string>
#include <vector>

namespace numaperf {

/// The names a function is matched by.
struct FunctionIdentity {
  std::string Mangled;   ///< symbol (linkage) name
  std::string Demangled; ///< demangled with parameter list; = Mangled for C
  std::string Base;      ///< demangled without the parameter list
  std::string File;      ///< source file of the definition (directory
                         ///< joined), or the module's source file, or ""
  std::string FileAsWritten; ///< the file name as given to the compiler
};

/// One parsed file. Patterns are shell wildcards (fnmatch: `*`, `?`,
/// `[...]`, `\` escapes; `*` also matches `/`).
struct FilterRules {
  enum class Format { Sanitizer, ScoreP };
  Format Kind = Format::Sanitizer;
  std::string Path;

  // Sanitizer format: a function is dropped if it matches an ignore entry;
  // when there are allow entries, it is kept only if it matches one.
  struct Entry {
    bool IsSource; ///< src: (else fun:)
    std::string Pattern;
    unsigned Line;
  };
  std::vector<Entry> Ignore, Allow;

  // Score-P format: rules in file order, the last match wins, default
  // include; file rules first, region rules for functions in kept files.
  struct Rule {
    bool Include;
    bool Mangled; ///< region rule matched against the mangled name
    std::string Pattern;
    unsigned Line;
  };
  std::vector<Rule> FileRules, RegionRules;
};

/// Parsers: false and *Error = "FILE:LINE: what" on a malformed file.
bool parseSanitizerFilter(const std::string &Path, const std::string &Text,
                          FilterRules &Out, std::string *Error);
bool parseScorePFilter(const std::string &Path, const std::string &Text,
                       FilterRules &Out, std::string *Error);

/// Shell-wildcard match (fnmatch without flags).
bool wildcardMatch(const std::string &Pattern, const std::string &Text);

} // namespace numaperf

#endif // NUMAPERF_PASS_FILTERRULES_H

//===- SanitizerFilter.cpp - sanitizer special-case-list filter files -----===//
//
// The format of clang's -fsanitize-ignorelist / coverage allow lists,
// restricted to what applies to numaperf:
//
//   # comment
//   fun:*_init            entries before any section: ignore
//   src:third_party/*
//   [allow]               only functions matching an allow entry are kept
//   fun:compute_*
//   [ignore]              back to ignore entries
//
// Own parser rather than llvm::SpecialCaseList: its wildcard syntax changed
// between LLVM releases (regex in 14-17, globs later) and its errors do not
// name our rules; the pass must read a file the same way on every LLVM.
//
//===----------------------------------------------------------------------===//
#include "FilterRules.h"

#include <fnmatch.h>

namespace numaperf {

bool wildcardMatch(const std::string &Pattern, const std::string &Text) {
  return fnmatch(Pattern.c_str(), Text.c_str(), 0) == 0;
}

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

bool parseSanitizerFilter(const std::string &Path, const std::string &Text,
                          FilterRules &Out, std::string *Error) {
  Out.Kind = FilterRules::Format::Sanitizer;
  Out.Path = Path;
  auto Fail = [&](unsigned Line, const std::string &What) {
    *Error = Path + ":" + std::to_string(Line) + ": " + What;
    return false;
  };
  bool InAllow = false;
  unsigned LineNo = 0;
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    std::string Line = trim(Text.substr(Pos, End - Pos));
    Pos = End + 1;
    ++LineNo;
    if (Line.empty() || Line[0] == '#')
      continue;
    if (Line[0] == '[') {
      if (Line.back() != ']')
        return Fail(LineNo, "malformed section header '" + Line + "'");
      std::string Name = trim(Line.substr(1, Line.size() - 2));
      if (Name == "allow")
        InAllow = true;
      else if (Name == "ignore")
        InAllow = false;
      else
        return Fail(LineNo, "unknown section '[" + Name +
                                "]' (expected [allow] or [ignore])");
      continue;
    }
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      return Fail(LineNo, "malformed line '" + Line +
                              "' (expected src:PATTERN or fun:PATTERN)");
    std::string Kind = trim(Line.substr(0, Colon));
    std::string Pattern = trim(Line.substr(Colon + 1));
    if (Kind != "src" && Kind != "fun")
      return Fail(LineNo, "unsupported entry kind '" + Kind +
                              "' (expected src: or fun:)");
    if (Pattern.empty())
      return Fail(LineNo, "empty pattern after '" + Kind + ":'");
    (InAllow ? Out.Allow : Out.Ignore)
        .push_back({Kind == "src", Pattern, LineNo});
  }
  return true;
}

} // namespace numaperf

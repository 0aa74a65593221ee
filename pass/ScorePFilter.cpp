//===- ScorePFilter.cpp - Score-P filter files -----------------------------===//
//
//   SCOREP_FILE_NAMES_BEGIN
//     EXCLUDE */vendor/*
//   SCOREP_FILE_NAMES_END
//   SCOREP_REGION_NAMES_BEGIN
//     EXCLUDE *
//     INCLUDE compute_* main
//     EXCLUDE MANGLED _ZN6detail*
//   SCOREP_REGION_NAMES_END
//
// Words are separated by white space; `#` starts a comment; a rule's
// patterns run until the next keyword. Blocks may repeat. The Score-P rule
// order (last match wins, default include) is applied in FunctionFilter.cpp.
//
//===----------------------------------------------------------------------===//
#include "FilterRules.h"

#include <cctype>

namespace numaperf {

namespace {
struct Word {
  std::string Text;
  unsigned Line;
};
} // namespace

static std::vector<Word> splitWords(const std::string &Text) {
  std::vector<Word> Words;
  unsigned Line = 1;
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (C == '\n') {
      ++Line;
      ++I;
    } else if (C == '#') {
      while (I < Text.size() && Text[I] != '\n')
        ++I;
    } else if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
    } else {
      size_t B = I;
      while (I < Text.size() && !std::isspace(static_cast<unsigned char>(Text[I])) &&
             Text[I] != '#')
        ++I;
      Words.push_back({Text.substr(B, I - B), Line});
    }
  }
  return Words;
}

bool parseScorePFilter(const std::string &Path, const std::string &Text,
                       FilterRules &Out, std::string *Error) {
  Out.Kind = FilterRules::Format::ScoreP;
  Out.Path = Path;
  auto Fail = [&](unsigned Line, const std::string &What) {
    *Error = Path + ":" + std::to_string(Line) + ": " + What;
    return false;
  };
  enum { None, Regions, Files } Block = None;
  unsigned BlockLine = 0;
  std::vector<FilterRules::Rule> *Rules = nullptr;
  FilterRules::Rule *Current = nullptr; // rule collecting patterns
  bool CurrentHasPattern = false;
  unsigned CurrentLine = 0;
  auto CloseRule = [&]() {
    if (Current && !CurrentHasPattern)
      return Fail(CurrentLine, "INCLUDE/EXCLUDE without a pattern");
    Current = nullptr;
    return true;
  };
  FilterRules::Rule Pending{};
  for (const Word &W : splitWords(Text)) {
    const std::string &T = W.Text;
    if (T == "SCOREP_REGION_NAMES_BEGIN" || T == "SCOREP_FILE_NAMES_BEGIN") {
      if (Block != None)
        return Fail(W.Line, T + " inside a block opened on line " +
                                std::to_string(BlockLine));
      Block = T == "SCOREP_REGION_NAMES_BEGIN" ? Regions : Files;
      Rules = Block == Regions ? &Out.RegionRules : &Out.FileRules;
      BlockLine = W.Line;
      continue;
    }
    if (T == "SCOREP_REGION_NAMES_END" || T == "SCOREP_FILE_NAMES_END") {
      bool IsRegion = T == "SCOREP_REGION_NAMES_END";
      if (Block == None || (Block == Regions) != IsRegion)
        return Fail(W.Line, T + " without a matching _BEGIN");
      if (!CloseRule())
        return false;
      Block = None;
      continue;
    }
    if (Block == None)
      return Fail(W.Line, "'" + T +
                              "' outside a SCOREP_REGION_NAMES or "
                              "SCOREP_FILE_NAMES block");
    if (T == "INCLUDE" || T == "EXCLUDE") {
      if (!CloseRule())
        return false;
      Pending = {T == "INCLUDE", false, "", W.Line};
      Current = &Pending;
      CurrentHasPattern = false;
      CurrentLine = W.Line;
      continue;
    }
    if (T == "MANGLED") {
      if (!Current || CurrentHasPattern)
        return Fail(W.Line, "MANGLED must follow INCLUDE or EXCLUDE");
      if (Block != Regions)
        return Fail(W.Line, "MANGLED applies to region names only");
      Current->Mangled = true;
      continue;
    }
    if (!Current)
      return Fail(W.Line, "pattern '" + T + "' before INCLUDE or EXCLUDE");
    FilterRules::Rule R = *Current;
    R.Pattern = T;
    R.Line = W.Line;
    Rules->push_back(R);
    CurrentHasPattern = true;
  }
  if (Block != None)
    return Fail(BlockLine, std::string(Block == Regions
                                           ? "SCOREP_REGION_NAMES_BEGIN"
                                           : "SCOREP_FILE_NAMES_BEGIN") +
                               " without a matching _END");
  return true;
}

} // namespace numaperf

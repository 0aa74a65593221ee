//===- FunctionFilter.cpp - which functions get hooks ---------------------===//
#include "FunctionFilter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace numaperf {

static cl::opt<std::string> ClFilter(
    "numaperf-filter",
    cl::desc("Filter file (sanitizer special-case list or Score-P filter) "
             "choosing the functions that get numaperf hooks; default: the "
             "NUMAPERF_FILTER environment variable"),
    cl::value_desc("file"), cl::init(""));

bool FunctionFilter::load(std::string *Error) {
  std::string Path = ClFilter;
  if (Path.empty()) {
    const char *Env = std::getenv("NUMAPERF_FILTER");
    if (Env)
      Path = Env;
  }
  if (Path.empty())
    return true;
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    *Error = Path + ": cannot read filter file: " + Buf.getError().message();
    return false;
  }
  return loadText(Path, (*Buf)->getBuffer().str(), Error);
}

// Score-P files start (after comments) with one of their block keywords.
static bool looksLikeScoreP(const std::string &Text) {
  size_t I = 0;
  while (I < Text.size()) {
    size_t E = Text.find('\n', I);
    if (E == std::string::npos)
      E = Text.size();
    StringRef Line = StringRef(Text).slice(I, E).trim();
    I = E + 1;
    if (Line.empty() || Line[0] == '#')
      continue;
    return Line.size() >= 7 && Line.substr(0, 7) == "SCOREP_";
  }
  return false;
}

bool FunctionFilter::loadText(const std::string &Path, const std::string &Text,
                              std::string *Error) {
  Rules = FilterRules();
  SubprogramCache.clear();
  bool Ok = looksLikeScoreP(Text) ? parseScorePFilter(Path, Text, Rules, Error)
                                  : parseSanitizerFilter(Path, Text, Rules, Error);
  Loaded = Ok;
  return Ok;
}

// "ns::f<int>(int) const" -> "ns::f<int>": cut at the '(' matching the last
// ')' (a parameter list; "(anonymous namespace)" comes earlier).
static std::string withoutParameters(const std::string &D) {
  size_t Close = D.rfind(')');
  if (Close == std::string::npos)
    return D;
  int Depth = 0;
  for (size_t I = Close + 1; I-- > 0;) {
    if (D[I] == ')')
      ++Depth;
    else if (D[I] == '(' && --Depth == 0)
      return I == 0 ? D : D.substr(0, I);
  }
  return D;
}

static FunctionIdentity makeIdentity(StringRef Mangled, const DIFile *File,
                                     const Module *M) {
  FunctionIdentity Id;
  Id.Mangled = Mangled.str();
  Id.Demangled = demangle(Id.Mangled);
  Id.Base = Id.Demangled == Id.Mangled ? Id.Mangled
                                       : withoutParameters(Id.Demangled);
  if (File) {
    SmallString<256> Path(File->getFilename());
    if (!sys::path::is_absolute(Path) && !File->getDirectory().empty()) {
      Path = File->getDirectory();
      sys::path::append(Path, File->getFilename());
    }
    sys::path::remove_dots(Path);
    Id.File = std::string(Path.str());
    Id.FileAsWritten = File->getFilename().str();
  } else if (M) {
    Id.File = Id.FileAsWritten = M->getSourceFileName();
  }
  return Id;
}

FunctionIdentity identityOf(const DISubprogram &SP, const Module *M) {
  StringRef Name = SP.getLinkageName();
  if (Name.empty())
    Name = SP.getName();
  return makeIdentity(Name, SP.getFile(), M);
}

FunctionIdentity identityOf(const Function &F) {
  const DISubprogram *SP = F.getSubprogram();
  return makeIdentity(F.getName(), SP ? SP->getFile() : nullptr, F.getParent());
}

static bool fileMatches(const std::string &Pattern, const FunctionIdentity &Id) {
  return wildcardMatch(Pattern, Id.File) ||
         (Id.FileAsWritten != Id.File && wildcardMatch(Pattern, Id.FileAsWritten));
}

static bool nameMatches(const std::string &Pattern, const FunctionIdentity &Id,
                        bool MangledToo) {
  return wildcardMatch(Pattern, Id.Demangled) ||
         (Id.Base != Id.Demangled && wildcardMatch(Pattern, Id.Base)) ||
         (MangledToo && Id.Mangled != Id.Demangled &&
          wildcardMatch(Pattern, Id.Mangled));
}

static bool entryMatches(const FilterRules::Entry &E, const FunctionIdentity &Id) {
  return E.IsSource ? fileMatches(E.Pattern, Id)
                    : nameMatches(E.Pattern, Id, /*MangledToo=*/true);
}

bool FunctionFilter::keep(const FunctionIdentity &Id) const {
  if (!Loaded)
    return true;
  if (Rules.Kind == FilterRules::Format::Sanitizer) {
    for (const auto &E : Rules.Ignore)
      if (entryMatches(E, Id))
        return false; // ignore wins over allow
    if (Rules.Allow.empty())
      return true;
    for (const auto &E : Rules.Allow)
      if (entryMatches(E, Id))
        return true;
    return false;
  }
  // Score-P: the last matching rule decides, default include; a function in
  // an excluded file is excluded whatever the region rules say.
  bool FileKept = true;
  for (const auto &R : Rules.FileRules)
    if (fileMatches(R.Pattern, Id))
      FileKept = R.Include;
  if (!FileKept)
    return false;
  bool Kept = true;
  for (const auto &R : Rules.RegionRules) {
    bool Match = R.Mangled ? wildcardMatch(R.Pattern, Id.Mangled)
                           : nameMatches(R.Pattern, Id, /*MangledToo=*/false);
    if (Match)
      Kept = R.Include;
  }
  return Kept;
}

bool FunctionFilter::keepFunction(const Function &F) {
  if (!Loaded)
    return true;
  if (const DISubprogram *SP = F.getSubprogram())
    return keepSubprogram(SP, F);
  return keep(identityOf(F));
}

bool FunctionFilter::keepSubprogram(const DISubprogram *SP, const Function &F) {
  auto It = SubprogramCache.find(SP);
  if (It != SubprogramCache.end())
    return It->second;
  bool Keep;
  if (SP == F.getSubprogram()) {
    Keep = keep(identityOf(F));
  } else {
    // Inlined code: the callee's symbol name from its debug info (C
    // functions have no linkage name, their name is the symbol).
    StringRef Name = SP->getLinkageName();
    if (Name.empty())
      Name = SP->getName();
    Keep = keep(makeIdentity(Name, SP->getFile(), F.getParent()));
  }
  SubprogramCache[SP] = Keep;
  return Keep;
}

void FunctionFilter::removeFiltered(Function &F,
                                    SmallVectorImpl<MemoryAccess> &Accesses) {
  if (!Loaded)
    return;
  bool KeepOwn = keepFunction(F);
  auto Dropped = [&](const MemoryAccess &A) {
    const DILocation *Loc = A.Inst->getDebugLoc().get();
    if (!Loc)
      return !KeepOwn;
    const DISubprogram *SP = Loc->getScope()->getSubprogram();
    if (!SP)
      return !KeepOwn;
    return !keepSubprogram(SP, F);
  };
  Accesses.erase(std::remove_if(Accesses.begin(), Accesses.end(), Dropped),
                 Accesses.end());
}

} // namespace numaperf

// Turns run-time code addresses into report frames (module, offset, file,
// line, function) using the DWARF of each module (elfutils libdwfl, offline
// mode: every module is reported at its real load bias, so PIE executables
// and shared libraries resolve).
#pragma once

#include "report/profile_model.h"
#include "symbolize/module_snapshot.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct Dwfl;

namespace numaperf::symbolize {

struct SymbolizerOptions {
  // Separate debug info is searched locally (/usr/lib/debug/.build-id,
  // .gnu_debuglink). true: use elfutils' standard search, which may also
  // query debuginfod servers named by DEBUGINFOD_URLS (network; only for the
  // offline `numaperf` tool, never at the profiled program's exit).
  bool allow_debuginfod = false;
  // Source lines and inlined calls for frames in system libraries
  // (isSystemModule). Off: those frames are named from the symbol tables
  // only. Their DWARF usually sits in a separate, compressed debug package,
  // and decompressing libc's cost about 60 ms at every profiled program's
  // exit (docs/benchmarks.md, "Session 20"), for lines no report needs: an
  // allocation site is the first frame outside those libraries.
  bool system_source_lines = false;
};

class Symbolizer {
 public:
  // Builds a symbolizer over a module snapshot (normally snapshotModules()
  // taken just before symbolizing). Modules whose file cannot be opened are
  // skipped; their addresses still get module + offset.
  explicit Symbolizer(std::vector<ModuleInfo> modules, SymbolizerOptions options = {});
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // Symbolizes pc. For return addresses (stack frames above the innermost)
  // the lookup uses pc - 1 so that the call instruction is described; the
  // frame still carries the original pc. Unknown parts stay empty / 0: no
  // module -> empty module, offset 0; no line info -> empty file, line 0 and
  // the function from the symbol table if there is one. Results are cached
  // per (pc, is_return_address). Never throws. Not thread-safe.
  report::Frame symbolize(uint64_t pc, bool is_return_address);

  // The frame for pc followed by one frame per inlined call it sits in,
  // innermost first: the lines the source shows as calls, although the
  // compiler merged them into one machine frame. All share pc and module.
  // Cached per (pc, is_return_address) too: the scope walk reads the whole
  // compilation unit, seconds per thousand addresses in an amalgamation.
  std::vector<report::Frame> symbolizeInlined(uint64_t pc, bool is_return_address);
  // DWARF scope walks done by symbolizeInlined (cache misses).
  size_t inlinedLookups() const { return inlined_lookups_; }

  // Modules that could be opened for DWARF lookup (for diagnostics).
  size_t reportedModules() const { return reported_; }
  const std::vector<ModuleInfo>& modules() const { return modules_; }

 private:
  report::Frame lookup(uint64_t pc, bool is_return_address);
  std::vector<report::Frame> lookupInlined(uint64_t pc, bool is_return_address);

  // Whether pc's source lines are looked up (SymbolizerOptions).
  bool wantsSourceLines(const ModuleInfo* module) const;

  std::vector<ModuleInfo> modules_;
  SymbolizerOptions options_;
  Dwfl* dwfl_ = nullptr;
  size_t reported_ = 0;
  std::map<std::pair<uint64_t, bool>, report::Frame> cache_;
  std::map<std::pair<uint64_t, bool>, std::vector<report::Frame>> inlined_cache_;
  size_t inlined_lookups_ = 0;
};

}  // namespace numaperf::symbolize

// The in-memory profile: what the runtime collects at exit and what every
// output format (text, JSON, later HTML) is rendered from. `numaperf report`
// rebuilds the same model from a saved JSON file, so the exit-time text and
// the re-rendered text come from one renderer.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace numaperf::report {

constexpr int kSchemaVersion = 1;

struct SourceLocation {
  std::string file;      // empty when unknown
  uint32_t line = 0;     // 0 when unknown
  std::string function;  // demangled; empty when unknown
};

struct Frame {
  uint64_t pc = 0;             // return address as seen at run time
  std::string module;          // path of the ELF object holding pc
  uint64_t module_offset = 0;  // pc relative to the module's load base
  SourceLocation location;
};

struct ObjectInfo {
  std::string kind;                // "heap" or "global"
  std::optional<std::string> name; // symbol name for globals, null for heap
  uint64_t size = 0;               // bytes (largest object seen at the site)
  uint64_t instances = 1;          // objects allocated at this site
  SourceLocation site;             // allocation site / definition
  std::vector<Frame> stack;        // allocation stack, innermost first
};

struct Issue {
  std::string kind;           // remote_access, false_sharing, true_sharing, ...
  double score = 0;           // per millisecond of run time (paper units)
  double normalized_score = 0;// machine-independent form (per 1000 accesses)
  double threshold = 0;       // the score threshold it was compared with
  ObjectInfo object;
  std::string fix;            // page_interleave, block_interleave, ...
  nlohmann::json evidence = nlohmann::json::object();  // kind-specific facts
};

struct ProgramInfo {
  std::vector<std::string> command;
  int64_t pid = 0;
  double wall_ms = 0;
  // The ms that access scores are per (docs/scores.md): the wall (or
  // profiled) time less the time measured in numaperf's hooks and
  // allocation tracking, so that the profiler's own cost does not lower the
  // scores.
  double score_ms = 0;
  // Share of the threads' running time measured in the hooks and allocation
  // tracking; -1 = not measured.
  double hook_time_share = -1;
  uint64_t threads = 0;         // threads that ever ran, main included
  uint64_t total_accesses = 0;  // instrumented accesses of all threads
  bool access_data = true;      // false when no instrumented code ran
  uint64_t memory_limit_mib = 0;  // NUMAPERF_MEMORY_LIMIT; 0 = none
  uint64_t detail_dropped = 0;    // detail allocations refused by that limit
};

// One thread of the run (see docs/threads.md).
struct ThreadRecord {
  uint32_t index = 0;
  std::string type;              // "main", start routine name, "OpenMP worker"
  uint64_t accesses = 0;         // instrumented memory accesses
  uint64_t contentions = 0;      // lock acquisitions that found the lock busy
  uint64_t waits = 0;            // cond_waits + barrier_waits + sem_waits
  uint64_t cond_waits = 0;
  uint64_t barrier_waits = 0;
  uint64_t sem_waits = 0;        // semaphore waits that had to block
  std::optional<uint64_t> observed_migrations;  // kernel count; none if unmeasured
};

// A group of threads with the same start routine.
struct ThreadTypeShare {
  std::string name;
  uint64_t threads = 0;
  uint64_t accesses = 0;
  double share = 0;  // of the accesses of all worker (non-main) threads
};

// Work per thread type (NumaPerf Section 3.2.5).
struct Imbalance {
  uint64_t main_thread_accesses = 0;  // listed on its own, outside the shares
  std::vector<ThreadTypeShare> types;
  double ratio = 1;  // largest over smallest accesses per thread among types
  // Threads per type proportional to the shares, for the current number of
  // worker threads and (when NUMAPERF_SUGGEST_THREADS is set) for that total.
  uint64_t suggested_total = 0;
  std::vector<std::pair<std::string, uint64_t>> suggested;
  uint64_t requested_total = 0;  // 0 = not requested
  std::vector<std::pair<std::string, uint64_t>> suggested_for_requested;
};

// Bandwidth signature from the profile (docs/bwmodel.md): the share of
// accesses of each traffic class of the placement model, for one access kind.
struct SignatureShares {
  double accesses = 0;  // access weight the fractions are of
  double static_share = 0, local = 0, per_thread = 0, interleaved = 0;
  std::optional<uint32_t> static_thread;  // toucher of most static accesses
};

// Static accesses by the thread that first touched their pages (its node is
// the static socket under a placement). No thread: touchers past the table.
struct StaticToucherShare {
  std::optional<uint32_t> thread;
  double reads = 0, writes = 0;  // accesses
};

struct ObjectSignature {
  ObjectInfo object;
  SignatureShares read, write;
  std::vector<StaticToucherShare> static_threads;
};

struct BandwidthSignature {
  std::string weighting = "accesses";  // what the fractions weigh
  SignatureShares read, write;         // the whole program (all tracked objects)
  std::vector<StaticToucherShare> static_threads;
  std::vector<ObjectSignature> objects;  // heaviest first
  uint64_t objects_omitted = 0;          // lighter objects left out of the list
};

// What was instrumented and when profiling was on (docs/filters.md,
// docs/switching.md).
struct InstrumentedFunction {
  std::string name;       // symbol name
  std::string function;   // demangled
  std::string file;
  uint32_t line = 0;
  uint32_t hooks = 0;              // hook calls in its instrumented body
  uint32_t filtered_accesses = 0;  // accesses the filter left without a hook
  bool filtered = false;           // its own code is filtered out
  uint64_t entries = 0;            // entries while profiling was on
  // Accesses its hooks reported (a range hook counts its elements) when
  // hook_calls_counted, else the estimate entries x hooks.
  uint64_t hook_calls = 0;
  bool hook_calls_counted = false;
  std::optional<uint32_t> first_thread;  // index of the thread that entered it first
};

struct ProfiledPeriod {
  double start_ms = 0;  // from the runtime's start
  double end_ms = 0;
};

struct Instrumentation {
  bool initially_on = true;                 // NUMAPERF_ACTIVE
  std::vector<std::string> active_regions;  // NUMAPERF_ACTIVE_REGIONS
  std::string toggle_signal;                // "" = none
  bool always_on = true;                    // profiled the whole run
  double profiled_ms = 0;
  std::vector<ProfiledPeriod> periods;
  uint64_t switches_lost = 0;               // beyond the switch log
  std::vector<InstrumentedFunction> functions;  // most hook calls first
};

struct Profile {
  int schema_version = kSchemaVersion;
  ProgramInfo program;
  nlohmann::json thresholds = nlohmann::json::object();  // name -> value
  std::vector<Issue> issues;       // ranked, most serious first
  std::vector<std::string> notes;  // runtime remarks shown in the report
  std::vector<ThreadRecord> threads;   // index order; empty in older files
  std::optional<Imbalance> imbalance;  // none without worker threads
  std::optional<BandwidthSignature> signature;  // none in older files
  std::optional<Instrumentation> instrumentation;  // none in older files
};

}  // namespace numaperf::report

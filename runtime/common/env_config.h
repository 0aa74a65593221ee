// Run-time settings read once from NUMAPERF_* environment variables. A bad
// value never stops the program: it is named in a one-line message and the
// default is used instead.
#pragma once

#include <cstdint>
#include <string>

namespace numaperf {

struct RuntimeConfig {
  // Text report destination: "" = stderr, "none" = no text report.
  std::string report_path;
  // JSON profile destination: a file, or a directory for the default name
  // numaperf-<program>-<pid>.json; "" = that name in the start-up working
  // directory; "none" = no JSON.
  std::string json_path;
  // Calibration file of a host (numaperf probe calibrate): remote-access
  // issues then show their estimated extra time there. "" = none.
  std::string calibration_path;
  // Remote-access score threshold (remote accesses per millisecond).
  double remote_threshold = 1500.0;
  // False- and true-sharing score thresholds (invalidations per ms per thread).
  double false_sharing_threshold = 10.0;
  double true_sharing_threshold = 10.0;
  // A page whose invalidations exceed this share of its remote accesses is
  // dominated by sharing (reported as sharing, not remote access).
  double sharing_share = 0.5;
  // ... when its lines are fought over at least this often: invalidations
  // per invalidated line and ms. Lines that change hands more rarely are
  // fetched from memory, on the page's node: remote accesses like others.
  double sharing_hot_rate = 1.0;
  // Remote accesses a page takes before it gets page, line and word detail.
  uint32_t page_detail_threshold = 0;
  // Page sampling of large objects (core/page_sampling.h): one page in
  // `page_sample_rate` modelled in full (0 or 1: all), for objects of at
  // least `page_sample_min_kib` KiB.
  uint32_t page_sample_rate = 8;
  uint32_t page_sample_min_kib = 1024;
  // ... and pages packed with blocks of sites of at least this many objects
  // (0: none).
  uint32_t page_sample_site_objects = 1024;
  // Lines threads fight over are modelled in one time window in this many
  // (core/line_windows.h; a power of two, rounded down; 0 or 1: always).
  uint32_t line_window_rate = 8;  // docs/sampling.md "Hot lines"
  // Writes to a shared line after which word-level detail starts.
  uint32_t word_detail_writes = 2;
  // Frames kept per allocation stack.
  uint32_t stack_depth = 16;
  // Cap on the runtime's own memory in MiB (0 = none): beyond it, page,
  // line and word detail is dropped (common/memory_budget.h).
  uint32_t memory_limit_mib = 0;
  // Finished threads that keep a record of their own; older ones are folded
  // into per-start-routine totals (0 = keep every record).
  uint32_t thread_records = 4096;
  // Access scores per ms of the time the program would take without the
  // hooks (true, NUMAPERF_SCORE_TIME=native) or per ms of wall time (=wall).
  bool score_native_time = true;
};

// Reads the environment; messages about bad values go to stderr.
RuntimeConfig loadRuntimeConfig();

// Parsers shared with the tools. Each returns false (and leaves `out`
// untouched) when `text` is not a complete, in-range value.
bool parseDouble(const char *text, double min, double max, double *out);
bool parseUnsigned(const char *text, uint64_t min, uint64_t max, uint64_t *out);
bool parseBool(const char *text, bool *out);

}  // namespace numaperf

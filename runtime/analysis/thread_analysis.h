// The thread part of the report (NumaPerf Sections 3.2.4-3.2.5, see
// docs/threads.md): per-thread records, the thread-migration issue and the
// load balance between thread types.
#pragma once

#include "report/profile_model.h"
#include "symbolize/symbolizer.h"

#include <cstdint>

namespace numaperf {

struct ThreadAnalysisConfig {
  // Migration score threshold: possible migrations per thread per second,
  // weighted by the parallel phase (NUMAPERF_MIGRATION_THRESHOLD).
  double migration_threshold = 100.0;
  // Accesses per thread of the busiest type over those of the least busy
  // type (and busiest over least busy thread of one type) above which the
  // work is called imbalanced (NUMAPERF_IMBALANCE_RATIO).
  double imbalance_ratio = 2.0;
  // A second total for the suggested threads per type; 0 = none
  // (NUMAPERF_SUGGEST_THREADS).
  uint64_t suggest_threads = 0;
  // Worker accesses below which work shares are not judged (noise).
  uint64_t min_accesses = 100000;
};

// Read from the environment at start-up (bad values: one message, default).
const ThreadAnalysisConfig &threadAnalysisConfig();

// Appends thread records, the imbalance summary, thread issues, their
// thresholds and notes to the profile. Start routines are named with the
// report's symbolizer.
void appendThreadAnalysis(report::Profile &profile, uint64_t start_ns, uint64_t end_ns,
                          symbolize::Symbolizer &symbolizer);

}  // namespace numaperf

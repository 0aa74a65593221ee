// Estimates of a counted run, for the whole run and per -I interval, and
// their text and JSON renderings (format in docs/counters.md).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "counters/runner.h"

namespace numaperf::counters {

struct CountersReport {
  std::vector<std::string> argv;
  double level = 0.95;
  RunResult run;
  std::vector<EventEstimate> totals;
  std::vector<double> intervalEnd;                    // seconds
  std::vector<std::vector<EventEstimate>> intervals;  // [interval][event]
};

// Groups the run's slices into intervals of `intervalMs` (0: totals only).
CountersReport estimateRun(RunResult run, const std::vector<Invariant>& invariants, double intervalMs,
                           double level, std::vector<std::string> argv);

void printText(const CountersReport& r, std::ostream& out);
std::string toJson(const CountersReport& r);

}  // namespace numaperf::counters

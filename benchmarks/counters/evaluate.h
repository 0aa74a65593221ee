// Error of plain time scaling and of the corrected estimate against the
// truth of a synthetic trace, and how often the intervals contain the truth.
#pragma once
#include <vector>

#include "synthetic.h"

namespace numaperf::counters::bench {

struct Score {
  double plainError = 0;      // mean |plain - truth| / truth over multiplexed events and intervals
  double correctedError = 0;  // same for the posterior mean
  double coverage = 0;        // share of intervals [lo, hi] containing the truth
  std::vector<double> plainPerEvent, correctedPerEvent;  // mean relative error per event (fixed: 0)
  int cells = 0;
};

Score evaluate(const Trace& t, double level);

}  // namespace numaperf::counters::bench

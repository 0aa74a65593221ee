#include "evaluate.h"

#include <cmath>

namespace numaperf::counters::bench {

Score evaluate(const Trace& t, double level) {
  const size_t n = t.names.size();
  Estimator est(t.names, restrictTo(t.invariants, t.names), level);
  Score s;
  s.plainPerEvent.assign(n, 0);
  s.correctedPerEvent.assign(n, 0);
  std::vector<int> per(n, 0);
  int covered = 0;
  for (size_t iv = 0; iv < t.truth.size(); ++iv) {
    auto e = est.estimate(t.readings[iv]);
    for (size_t i = 0; i < n; ++i) {
      double truth = t.truth[iv][i];
      if (t.fixed[i] || truth <= 0) continue;  // always counted: exact for both
      double pe = std::fabs(e[i].plain - truth) / truth;
      double ce = e[i].available ? std::fabs(e[i].mean - truth) / truth : 1.0;
      s.plainError += pe;
      s.correctedError += ce;
      s.plainPerEvent[i] += pe;
      s.correctedPerEvent[i] += ce;
      ++per[i];
      ++s.cells;
      covered += e[i].available && e[i].lo <= truth && truth <= e[i].hi;
    }
  }
  if (s.cells) {
    s.plainError /= s.cells;
    s.correctedError /= s.cells;
    s.coverage = static_cast<double>(covered) / s.cells;
  }
  for (size_t i = 0; i < n; ++i)
    if (per[i]) {
      s.plainPerEvent[i] /= per[i];
      s.correctedPerEvent[i] /= per[i];
    }
  return s;
}

}  // namespace numaperf::counters::bench

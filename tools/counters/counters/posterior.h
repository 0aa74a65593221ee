// The closed-form Gaussian posterior of event values under linear invariants.
//
// Prior (from each event's own measurement): x ~ N(m, D), D diagonal.
// Invariants: A x = r, r ~ N(0, R) (R = 0 for exact invariants, R diagonal
// with (tolerance * scale)^2 for soft ones). Conditioning gives
//   S  = A D A' + R
//   K  = D A' S^-1
//   m' = m - K A m,      C' = D - K A D
// exactly (Gaussian conditioning). Rows that are linear combinations of
// others (redundant invariants) are dropped by the pivoted factorisation.
#pragma once
#include <vector>

#include "counters/invariants.h"

namespace numaperf::counters {

struct Posterior {
  std::vector<double> mean;
  std::vector<std::vector<double>> cov;
  double sd(size_t i) const;
};

// `var` entries must be > 0; an infinite or huge variance marks an event
// without a measurement (then only the invariants inform it).
Posterior conditionOnInvariants(const std::vector<double>& mean, const std::vector<double>& var,
                                const LinearSystem& sys);

}  // namespace numaperf::counters

// Quantiles of the standard normal and Student-t distributions, for the
// credible intervals (BayesPerf models an event's unknown mean as
// mean + S/sqrt(N) * t(N-1)).
#pragma once

namespace numaperf::counters {

// x with P(Z <= x) = p, 0 < p < 1.
double normalQuantile(double p);
// P(T <= t) for T ~ Student-t with nu > 0 degrees of freedom.
double studentCdf(double t, double nu);
// t with P(T <= t) = p, 0 < p < 1; nu = infinity gives the normal quantile.
double studentQuantile(double p, double nu);
// Half-width multiplier of a central interval at `level` (0.95 -> ~1.96 for
// large nu, 12.71 for nu = 1).
double studentHalfWidth(double level, double nu);

}  // namespace numaperf::counters

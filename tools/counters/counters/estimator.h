// Per-interval estimates of multiplexed events with credible intervals.
//
// Input: for each event, one reading per slice of the interval (count and
// the time it was enabled and running in that slice, as perf_event reports
// them). Slices are the short reads the command makes (or the scheduler
// quanta of the harness); an event is "counted" in a slice when it ran there.
//
// 1. Each event is estimated as a ratio to a reference measured in the same
//    slices: x_i = R * X_ref with R = sum z_i / sum z_ref over the slices both
//    ran. The reference is elapsed time (R * time is the kernel's
//    time_enabled/time_running scaling), an event linked to it by an
//    invariant, or an event counted all the time (fixed counters). Among
//    these the one with the smallest variance is chosen, shortest-path
//    fashion from time (BayesPerf's chains of overlapping events).
// 2. The ratio's uncertainty comes from its slice residuals: standard error
//    S/sqrt(N) with N-1 degrees of freedom (Student-t), S pooled over the
//    intervals seen so far, times the unsampled share of the interval.
// 3. The estimates, as Gaussians of variance (t/z)^2 * SE^2 (so that their
//    intervals equal the Student-t ones), are conditioned on the linear
//    invariants (posterior.h): exact, closed form.
// What is approximated is listed in docs/counters.md.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "counters/invariants.h"

namespace numaperf::counters {

struct Reading {
  double count = 0, enabled = 0, running = 0;
};

constexpr int kReferenceTime = -2;  // EventEstimate::reference: elapsed time
constexpr int kReferenceNone = -1;  // only the invariants determine it

struct EventEstimate {
  bool available = false;  // false: never counted and not implied by invariants
  double plain = 0;        // sum(count) * sum(enabled) / sum(running)
  double mean = 0;         // posterior mean
  double sd = 0;           // posterior standard deviation (t-adjusted)
  double lo = 0, hi = 0;   // credible interval at the estimator's level
  double counted = 0;      // sum(running) / sum(enabled)
  int reference = kReferenceNone;
  double dof = 0;          // degrees of freedom behind the interval
};

class Estimator {
 public:
  Estimator(std::vector<std::string> events, LinearSystem sys, double level = 0.95);

  // readings[event][slice]; all events have the same number of slices.
  // `learn` adds this interval's residuals to the pooled noise estimates
  // (false for whole-run totals, which reuse the intervals' slices).
  std::vector<EventEstimate> estimate(const std::vector<std::vector<Reading>>& readings, bool learn = true);

  const std::vector<std::string>& events() const { return events_; }
  double level() const { return level_; }

 private:
  struct Pool {
    double sumSq = 0, dof = 0;                 // relative slice residuals
    double lastR = 0, driftSq = 0, driftN = 0;  // ratio changes between intervals
  };
  std::vector<std::string> events_;
  LinearSystem sys_;
  std::vector<std::vector<int>> neighbours_;
  double level_;
  std::map<std::pair<int, int>, Pool> pool_;  // (event, reference) -> residuals
};

// The kernel's scaling alone, for comparison: sum(count) * sum(enabled) /
// sum(running); 0 when never running.
double plainScaling(const std::vector<Reading>& slices);

}  // namespace numaperf::counters

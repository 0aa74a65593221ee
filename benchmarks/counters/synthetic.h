// Synthetic counter traces with known truth for the evaluation harness:
// random event families tied by sum invariants (chained sub-events, local +
// remote = total, per-channel sums), a phased workload, and a simulated
// multiplexing scheduler that runs the rotation of tools/counters' schedule
// builder one configuration per slice, with measurement noise.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "counters/estimator.h"
#include "counters/invariants.h"
#include "counters/schedule.h"

namespace numaperf::counters::bench {

struct SyntheticSpec {
  int events = 20;            // including the fixed ones
  int fixedEvents = 2;        // always counted (cycles, instructions)
  int counters = 4;           // programmable counters of the simulated PMU
  int intervals = 40;
  int slicesPerInterval = 25;  // e.g. 100 ms intervals, 4 ms rotation
  double meanPhaseSlices = 30;
  double phaseSigma = 0.6;     // log-sd of a phase's activity
  double burstSigma = 0.6;     // log-sd of slice-to-slice activity
  double mixSigma = 0.25;      // log-sd of a phase's mix (event per instruction)
  double jitterSigma = 0.05;   // log-sd of an event's own slice noise
  double readNoise = 0.002;    // relative noise of a reading
  uint64_t seed = 1;
};

struct Trace {
  std::vector<std::string> names;
  std::vector<Invariant> invariants;
  std::vector<bool> fixed;
  std::vector<Configuration> schedule;
  // truth[interval][event], readings[interval][event][slice]
  std::vector<std::vector<double>> truth;
  std::vector<std::vector<std::vector<Reading>>> readings;
};

Trace makeTrace(const SyntheticSpec& spec);

}  // namespace numaperf::counters::bench

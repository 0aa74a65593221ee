// Runs a program under counters: resolves the events, reports the ones that
// cannot be counted (one line each, and carries on), builds the rotation,
// opens one group per configuration and PMU on the child, and reads every
// counter each slice until the program exits.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "counters/estimator.h"
#include "counters/event_names.h"
#include "counters/invariants.h"
#include "counters/schedule.h"

namespace numaperf::counters {

struct RunOptions {
  std::vector<std::string> argv;
  std::vector<std::string> events;
  double sliceMs = 10;
  std::string sysfsRoot = "/sys/bus/event_source/devices";
  std::vector<Family> families;  // for fixed counters, counter counts, invariants
  std::function<void(const std::string& event, const std::string& reason)> onUnavailable;  // as found
};

struct Unavailable {
  std::string event, reason;
};

struct RunResult {
  std::vector<EventSpec> specs;                 // the events counted
  std::vector<Unavailable> unavailable;
  std::vector<Configuration> schedule;
  std::vector<std::vector<Reading>> slices;     // [event][slice]
  std::vector<double> sliceEnd;                 // seconds since start
  int exitStatus = 0;                           // of the program (128 + signal when killed)
  double elapsed = 0;
};

// Throws CountersError when the program cannot be started or no event can
// be counted.
RunResult runAndCount(const RunOptions& opts);

}  // namespace numaperf::counters

// Counter schedules: when more events are asked for than a PMU has counters,
// a rotation of configurations (BayesPerf Section 4.1). Each configuration is
// valid for every PMU (each event on a counter it may use, at most one event
// per counter), every event appears in at least one configuration, and
// consecutive configurations (the last one followed by the first) share an
// event that takes part in an invariant, so that every slice of time is tied
// to the previous one. Events of fixed counters are in every configuration.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace numaperf::counters {

struct PmuSpec {
  std::string name;
  int counters = -1;  // general-purpose counters; -1: unlimited (software)
};

struct ScheduledEvent {
  std::string name;
  int pmu = 0;                   // index into the PmuSpec list
  bool fixed = false;            // on a fixed counter: always counted
  std::vector<int> allowed;      // counters it may use; empty: any
};

struct Configuration {
  std::vector<int> events;   // indices into the event list, sorted
  std::vector<int> counter;  // counter of each entry of `events` (-1: fixed/unlimited)
};

// `neighbours[i]`: events sharing an invariant with event i. Throws
// CountersError when an event cannot be counted at all (its PMU has no
// counter, or none it is allowed on).
std::vector<Configuration> buildSchedule(const std::vector<ScheduledEvent>& events, const std::vector<PmuSpec>& pmus,
                                         const std::vector<std::vector<int>>& neighbours);

// Counters for the events of one PMU, or false when they do not fit.
bool assignCounters(const std::vector<ScheduledEvent>& events, const std::vector<PmuSpec>& pmus,
                    const std::vector<int>& chosen, std::vector<int>* counters);

}  // namespace numaperf::counters

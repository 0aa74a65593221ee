// Event names to perf_event_attr: libpfm4 for core and perf's generic names
// (task-clock, cycles, MEM_LOAD_RETIRED:L1_HIT, mem_load_retired.l1_hit),
// sysfs for "pmu/event/" and "pmu/event=0x1,umask=0x2/" (uncore memory
// controllers and data fabric, with their scale and unit). No encodings are
// written in numaperf.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "counters/sysfs_pmu.h"

namespace numaperf::counters {

struct EventSpec {
  std::string name;     // as the user wrote it
  std::string pmu;      // "cpu", "software", "uncore_imc_0", ...
  uint32_t type = 0;
  uint64_t config = 0, config1 = 0, config2 = 0;
  double scale = 1;
  std::string unit;
  std::vector<int> cpus;  // non-empty: count per CPU on these (uncore)
  bool software = false;  // counted all the time, never multiplexed
};

// Throws CountersError("unknown event NAME: ...") when neither libpfm4 nor
// sysfs knows the name.
EventSpec resolveEvent(const std::string& name, const std::vector<Pmu>& pmus);
bool haveLibpfm();

}  // namespace numaperf::counters

// PMUs the kernel exposes under /sys/bus/event_source/devices (the root is a
// parameter so tests can use a copied tree): their perf type, the CPUs an
// uncore PMU counts on (cpumask), their named events with scale and unit, and
// the format fields that turn "event=0x04,umask=0x03" into attr.config.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace numaperf::counters {

enum class PmuKind { Core, Software, MemoryController, DataFabric, Other };

struct PmuEvent {
  std::string name;
  std::string terms;  // e.g. "event=0x04,umask=0x03"
  double scale = 1;   // from <event>.scale, e.g. 6.103515625e-5 (64 B in MiB)
  std::string unit;   // from <event>.unit, e.g. "MiB"
};

struct Pmu {
  std::string name;
  uint32_t type = 0;
  PmuKind kind = PmuKind::Other;
  std::vector<int> cpus;  // cpumask; empty: per-thread (core PMUs)
  std::map<std::string, std::string> format;  // field -> "config:0-7"
  std::vector<PmuEvent> events;
};

std::vector<Pmu> discoverPmus(const std::string& root = "/sys/bus/event_source/devices");
const char* kindName(PmuKind k);

// "0-3,8" -> {0,1,2,3,8}
std::vector<int> parseCpuList(const std::string& s);

// attr.config/config1/config2 of "event=0x04,umask=0x03" under `pmu`'s format;
// throws CountersError for an unknown field.
struct Encoding {
  uint64_t config = 0, config1 = 0, config2 = 0;
};
Encoding encodeTerms(const Pmu& pmu, const std::string& terms);

}  // namespace numaperf::counters

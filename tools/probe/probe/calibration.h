// The calibration file: a host's measured latencies and bandwidths per
// (CPU node, memory node) pair, plus a topology summary, date and host name.
// Schema: docs/probes.md ("Calibration file"). This header is also the reader
// API for the runtime and `numaperf report --calibration`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "probe/topology.h"

namespace numaperf::probe {

// Values per (CPU node, memory node); nullopt = not applicable / not measured.
struct NodeMatrix {
  std::vector<unsigned> cpuNodes;  // row labels (os indexes)
  std::vector<unsigned> memNodes;  // column labels
  std::vector<std::vector<std::optional<double>>> values;

  void reset(const std::vector<unsigned>& rows, const std::vector<unsigned>& cols);
  std::optional<double> at(unsigned cpuNode, unsigned memNode) const;
  void set(unsigned cpuNode, unsigned memNode, double v);
  bool empty() const { return values.empty(); }
};

struct TopologySummary {
  std::string source;
  unsigned packages = 0;
  unsigned pus = 0;
  std::string allowedPus;  // "0-3,8"
  struct Node {
    unsigned os = 0;
    uint64_t memoryBytes = 0;
    std::string pus;       // list of its allowed PUs, "" when CPU-less
  };
  std::vector<Node> nodes;
  std::vector<CacheInfo> caches;  // as seen from the first allowed PU
  std::vector<std::vector<uint64_t>> distances;  // may be empty
};

TopologySummary summarize(const Topology& t);

struct Calibration {
  static constexpr int kVersion = 1;
  int version = kVersion;
  std::string date;  // ISO 8601, UTC
  std::string host;
  std::string tool;  // "numaperf 0.1.0"
  TopologySummary topology;
  NodeMatrix idleLatencyNs;
  NodeMatrix loadedSpreadNs;    // loaded latency, noise spread
  NodeMatrix loadedOverloadNs;  // loaded latency, noise overload on the memory node
  NodeMatrix readGBps, writeGBps, mixedGBps;
  std::vector<std::string> notes;

  // Reader helpers.
  std::optional<double> latencyNs(unsigned cpuNode, unsigned memNode) const { return idleLatencyNs.at(cpuNode, memNode); }
  // Latency of memNode from cpuNode minus that of cpuNode's own memory;
  // nullopt when either is unknown (for instance on one-node hosts).
  std::optional<double> remoteExtraNs(unsigned cpuNode, unsigned memNode) const;
  // Mean idle latency of local pairs and of remote pairs (nullopt if none).
  std::optional<double> meanLocalNs() const;
  std::optional<double> meanRemoteNs() const;
};

nlohmann::json toJson(const Calibration& c);
// Throws CalibrationError on a malformed document or a newer major version.
Calibration calibrationFromJson(const nlohmann::json& j);

class CalibrationError : public std::runtime_error {
 public:
  explicit CalibrationError(const std::string& w) : std::runtime_error(w) {}
};

// Writes atomically (temporary file + rename). Throws CalibrationError.
void writeCalibration(const std::string& path, const Calibration& c);
Calibration readCalibration(const std::string& path);

std::string isoDateUtc();
std::string hostName();

}  // namespace numaperf::probe

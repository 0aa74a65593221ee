// The measurements behind `probe latency`, `probe latency --sweep` and
// `probe matrix` / `probe calibrate`, on this system.
#pragma once
#include <hwloc.h>

#include <functional>
#include <string>
#include <vector>

#include "probe/calibration.h"
#include "probe/chase.h"
#include "probe/placement.h"
#include "probe/request.h"
#include "probe/sweep.h"
#include "probe/topology.h"

namespace numaperf::probe {

// Called with a short description of the step about to start.
using ProgressFn = std::function<void(const std::string&)>;

struct LatencyResult {
  LatencyConfig config;
  LatencyStats stats;
  PlacementCheck placement;
  size_t loaders = 0;
  double seconds = 0;  // whole run
};

LatencyResult runLatency(hwloc_topology_t topo, const Topology& t, const LatencyConfig& c, const ProgressFn& progress = {});

struct SweepResult {
  LatencyConfig config;
  std::vector<CacheInfo> caches;
  std::vector<SweepPoint> points;
  std::vector<Plateau> plateaus;
  PlacementCheck placement;
  double seconds = 0;
};

// Sizes from 4 KiB up to config.bufferBytes.
SweepResult runSweep(hwloc_topology_t topo, const Topology& t, const LatencyConfig& c, const ProgressFn& progress);

struct MatrixOptions {
  uint64_t bufferBytes = 0;       // chase buffer per memory node; 0 = default DRAM size
  uint64_t workloadBytes = 64ull << 20;  // per latency figure
  unsigned repeat = 5;
  double bandwidthSeconds = 0.3;  // per bandwidth figure
  bool loaded = true;             // loaded latency (spread, overload)
  bool bandwidth = true;
};

// Steps runMatrix reports through progress (for a progress bar).
size_t matrixSteps(const Topology& t, const MatrixOptions& o);
Calibration runMatrix(hwloc_topology_t topo, const Topology& t, const MatrixOptions& o, const ProgressFn& progress);

}  // namespace numaperf::probe

// Latency sweep over buffer sizes and plateau detection against hwloc's
// cache sizes.
//
// Sizes are the powers of two from 4 KiB up to the DRAM buffer. The plateau
// of cache level k (size S_k, inner level S_{k-1}, S_0 = 0) is the median of
// the points in [2 S_{k-1}, S_k / 2] (fits in level k, far larger than the
// level below); when that window is empty, the points in (S_{k-1}, S_k]. The
// DRAM plateau is the median of the points of at least 4 x the last-level
// cache.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "probe/topology.h"

namespace numaperf::probe {

struct SweepPoint {
  uint64_t bytes = 0;
  double ns = 0;  // median ns per access
};

struct Plateau {
  std::string name;         // "L1", "L2", "L3", "DRAM"
  uint64_t cacheBytes = 0;  // from hwloc; 0 for DRAM
  uint64_t fromBytes = 0, toBytes = 0;  // sweep points used
  size_t points = 0;
  double ns = 0;
};

std::vector<uint64_t> sweepSizes(const std::vector<CacheInfo>& caches, uint64_t dramBytes);
std::vector<Plateau> findPlateaus(const std::vector<CacheInfo>& caches, const std::vector<SweepPoint>& points);
// True when every plateau is above the one before by at least `factor`.
bool plateausIncrease(const std::vector<Plateau>& p, double factor = 1.0);

}  // namespace numaperf::probe

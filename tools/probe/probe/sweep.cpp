#include "probe/sweep.h"

#include <algorithm>

#include "probe/chase.h"

namespace numaperf::probe {

std::vector<uint64_t> sweepSizes(const std::vector<CacheInfo>& caches, uint64_t dramBytes) {
  (void)caches;
  std::vector<uint64_t> out;
  for (uint64_t s = 4096; s < dramBytes; s *= 2) out.push_back(s);
  out.push_back(dramBytes);
  return out;
}

namespace {
Plateau plateauOf(const std::string& name, uint64_t cacheBytes, const std::vector<SweepPoint>& points, uint64_t lo,
                  uint64_t hi) {
  Plateau p;
  p.name = name;
  p.cacheBytes = cacheBytes;
  std::vector<double> ns;
  for (const auto& pt : points)
    if (pt.bytes >= lo && pt.bytes <= hi) {
      if (ns.empty()) p.fromBytes = pt.bytes;
      p.toBytes = pt.bytes;
      ns.push_back(pt.ns);
    }
  p.points = ns.size();
  p.ns = statsOf(ns, 0).medianNs;
  return p;
}
}  // namespace

std::vector<Plateau> findPlateaus(const std::vector<CacheInfo>& caches, const std::vector<SweepPoint>& points) {
  std::vector<Plateau> out;
  uint64_t prev = 0;
  for (const auto& c : caches) {
    std::string name = "L" + std::to_string(c.level);
    Plateau p = plateauOf(name, c.sizeBytes, points, 2 * prev, c.sizeBytes / 2);
    if (p.points == 0) p = plateauOf(name, c.sizeBytes, points, prev + 1, c.sizeBytes);
    if (p.points) out.push_back(p);
    prev = c.sizeBytes;
  }
  // Small nodes may not hold 4 x LLC: fall back to 2 x, then to beyond it.
  Plateau d = plateauOf("DRAM", 0, points, std::max<uint64_t>(4 * prev, 1), UINT64_MAX);
  if (!d.points) d = plateauOf("DRAM", 0, points, std::max<uint64_t>(2 * prev, 1), UINT64_MAX);
  if (!d.points) d = plateauOf("DRAM", 0, points, prev + 1, UINT64_MAX);
  if (d.points) out.push_back(d);
  return out;
}

bool plateausIncrease(const std::vector<Plateau>& p, double factor) {
  for (size_t i = 1; i < p.size(); ++i)
    if (!(p[i].ns > p[i - 1].ns * factor)) return false;
  return true;
}

}  // namespace numaperf::probe
